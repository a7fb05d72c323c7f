package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

func TestChapterMeta(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     ChapterMeta
		problems []string // the text each problem points at
	}{
		{name: "none", text: "# One\n\nProse.\n"},
		{name: "all keys",
			text: "---\ntitle: Salt-Debt\npov: Teodora Quill\nday: 14\nlocation: Skerry Vault\nflashback: true\n---\nProse.\n",
			want: ChapterMeta{POV: "Teodora Quill", Day: 14, HasDay: true, Location: "Skerry Vault", Flashback: true}},
		{name: "quoted day and yes", text: "---\nday: \"3\"\nflashback: yes\n---\n",
			want: ChapterMeta{Day: 3, HasDay: true, Flashback: true}},
		{name: "negative and float-whole day", text: "---\nday: -2\n---\n", want: ChapterMeta{Day: -2, HasDay: true}},
		{name: "whole float", text: "---\nday: 14.0\n---\n", want: ChapterMeta{Day: 14, HasDay: true}},
		{name: "day soon", text: "---\ntitle: X\nday: soon\n---\n", problems: []string{"soon"}},
		{name: "day quoted soon", text: "---\nday: \"soon\"\n---\n", problems: []string{`"soon"`}},
		{name: "half day", text: "---\nday: 14.5\n---\n", problems: []string{"14.5"}},
		{name: "huge day", text: "---\nday: 99999999999999\n---\n", problems: []string{"99999999999999"}},
		{name: "day list", text: "---\nday: [1, 2]\n---\n", problems: []string{"[1, 2]"}},
		{name: "flashback maybe", text: "---\nflashback: maybe\n---\n", problems: []string{"maybe"}},
		{name: "pov list", text: "---\npov: [Ann, Bo]\n---\n", problems: []string{"[Ann, Bo]"}},
		{name: "empty values", text: "---\npov:\nday:\nflashback:\n---\n"},
		{name: "first key wins", text: "---\npov: Ann\npov: Bo\n---\n", want: ChapterMeta{POV: "Ann"}},
		{name: "unicode column", text: "---\ntitle: Séverine\npov:   Séverine Août\n---\n", want: ChapterMeta{POV: "Séverine Août"}},
		{name: "target", text: "---\ntarget: 4000\n---\n", want: ChapterMeta{Target: 4000}},
		{name: "quoted target", text: "---\ntarget: \"2500\"\n---\n", want: ChapterMeta{Target: 2500}},
		{name: "target words", text: "---\ntarget: lots\n---\n", problems: []string{"lots"}},
		{name: "target zero", text: "---\ntarget: 0\n---\n", problems: []string{"0"}},
		{name: "target negative", text: "---\ntarget: -5\n---\n", problems: []string{"-5"}},
		{name: "target huge", text: "---\ntarget: 99999999999\n---\n", problems: []string{"99999999999"}},
		{name: "broken yaml", text: "---\npov: [unclosed\n---\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := NewUnit("manuscript/01-one.md", tc.text, 0)
			got := u.Meta
			var pointed []string
			for _, p := range got.Problems {
				assert.Equal(t, "manuscript/01-one.md", p.Path)
				assert.Equal(t, CodeChapterField, p.Code)
				assert.NotContains(t, p.Message, "yaml")
				pointed = append(pointed, tc.text[p.Range.Start:p.Range.End])
			}
			assert.Equal(t, tc.problems, pointed)
			assert.Equal(t, tc.want.POV, got.POV)
			assert.Equal(t, tc.want.Day, got.Day)
			assert.Equal(t, tc.want.HasDay, got.HasDay)
			assert.Equal(t, tc.want.Location, got.Location)
			assert.Equal(t, tc.want.Flashback, got.Flashback)
			assert.Equal(t, tc.want.Target, got.Target)
			if got.POV != "" {
				assert.Equal(t, got.POV, tc.text[got.POVRange.Start:got.POVRange.End])
			}
			if got.Location != "" {
				assert.Equal(t, got.Location, tc.text[got.LocationRange.Start:got.LocationRange.End])
			}
		})
	}
}

func TestChapterMetaProblemLineColumn(t *testing.T) {
	text := "---\ntitle: X\nday: soon\n---\n"
	u := NewUnit("manuscript/01-x.md", text, 0)
	require.Len(t, u.Meta.Problems, 1)
	line, col := codex.LineColumn(text, u.Meta.Problems[0].Range.Start)
	assert.Equal(t, 3, line)
	assert.Equal(t, 6, col)
	assert.Contains(t, u.Meta.Problems[0].Message, `not "soon"`)
	assert.Equal(t, "X", u.Title, "a bad day costs the chapter nothing else")
}

// FuzzChapterMeta: any front matter reads without panicking, every range
// lies inside the text, and a value read is the one its range covers.
func FuzzChapterMeta(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: Salt-Debt\npov: Teodora Quill\nday: 14\nlocation: Skerry Vault\nflashback: true\n---\n",
		"---\nday: soon\n---\n", "---\npov: [a]\nday: {x: 1}\n---", "---\nday: &a 3\nflashback: *a\n",
		"---\r\npov: Ré\r\n---\r\n", "---\npov: >\n  folded\n  text\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		u := NewUnit("manuscript/01-f.md", text, 0)
		n := len(u.Text)
		for _, r := range []codex.Range{u.Meta.POVRange, u.Meta.DayRange, u.Meta.LocationRange, u.Meta.FlashbackRange} {
			if r.Start < 0 || r.End > n || r.Start > r.End {
				t.Fatalf("range %v outside %d bytes", r, n)
			}
		}
		for _, p := range u.Meta.Problems {
			if p.Range.Start < 0 || p.Range.End > n || p.Range.Start > p.Range.End {
				t.Fatalf("problem range %v outside %d bytes", p.Range, n)
			}
		}
		if u.Meta.Day > maxDay || u.Meta.Day < -maxDay {
			t.Fatalf("day %d out of bounds", u.Meta.Day)
		}
	})
}
