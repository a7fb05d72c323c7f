package manuscript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

func TestNewUnitTitle(t *testing.T) {
	tests := []struct {
		name string
		rel  string
		text string
		want string
	}{
		{"front matter title wins", "manuscript/01-dawn.md", "---\ntitle: The Long Dawn\n---\n# Dawn\n\nText.\n", "The Long Dawn"},
		{"first level-1 heading", "manuscript/01-dawn.md", "# Harbor at Dawn\n\nText.\n", "Harbor at Dawn"},
		{"level-1 heading after a scene heading", "manuscript/01-dawn.md", "Intro.\n\n## A Scene\n\n# The Real Title\n", "The Real Title"},
		{"scene headings alone are not titles", "manuscript/02-the-storm.md", "## Scene one\n\nText.\n", "The Storm"},
		{"file name made readable", "manuscript/07-the-storm.md", "Just prose.\n", "The Storm"},
		{"underscores and markdown extension", "manuscript/03_a_new_dawn.markdown", "", "A New Dawn"},
		{"unnumbered name", "manuscript/epilogue.md", "", "Epilogue"},
		{"name that is only a number", "manuscript/01.md", "", "01"},
		{"non-ASCII name", "manuscript/04-été-à-paris.md", "", "Été À Paris"},
		{"empty front matter title falls back", "manuscript/05-x.md", "---\ntitle: \"\"\n---\n# Heading\n", "Heading"},
		{"null front matter title falls back", "manuscript/05-x.md", "---\ntitle:\n---\n# Heading\n", "Heading"},
		{"list title falls back", "manuscript/05-x.md", "---\ntitle: [a, b]\n---\n# Heading\n", "Heading"},
		{"numeric title is a title", "manuscript/05-x.md", "---\ntitle: 1984\n---\n# Heading\n", "1984"},
		{"title among other keys", "manuscript/05-x.md", "---\npov: Mara\ntitle: Salt\nstatus: draft\n---\n# Heading\n", "Salt"},
		{"CRLF front matter", "manuscript/05-x.md", "---\r\ntitle: Windows\r\n---\r\n# Heading\r\n", "Windows"},
		{"byte order mark", "manuscript/05-x.md", "\xEF\xBB\xBF---\ntitle: Bommed\n---\nText\n", "Bommed"},
		{"dots close front matter", "manuscript/05-x.md", "---\ntitle: Dotted\n...\n# Heading\n", "Dotted"},
		{"unclosed front matter keeps its last line", "manuscript/05-x.md", "---\npov: Mara\ntitle: Unclosed\n\n# Heading\n", "Unclosed"},
		{"broken YAML falls back", "manuscript/05-x.md", "---\ntitle: [unclosed\n---\n# Heading\n", "Heading"},
		{"empty front matter", "manuscript/05-x.md", "---\n---\n# Heading\n", "Heading"},
		{"title trimmed", "manuscript/05-x.md", "---\ntitle: '  Spaced  '\n---\n", "Spaced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := NewUnit(tt.rel, tt.text, 0)
			assert.Equal(t, tt.want, u.Title)
		})
	}
}

func TestNewUnitNumber(t *testing.T) {
	tests := []struct {
		rel  string
		want int
	}{
		{"manuscript/07-storm.md", 7},
		{"manuscript/0012-late.md", 12},
		{"manuscript/10.md", 10},
		{"manuscript/part-2/03-x.md", 3},
		{"manuscript/01-part/x.md", 0}, // the folder's number is not the file's
		{"manuscript/storm-12.md", 0},
		{"manuscript/epilogue.md", 0},
		{"manuscript/00-prologue.md", 0},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			assert.Equal(t, tt.want, NewUnit(tt.rel, "", 0).Number)
		})
	}
}

func TestNewUnitBodyWordsAndHeadings(t *testing.T) {
	text := "---\ntitle: Storm\ntags: [one two three four]\n---\n" +
		"# Storm\n\nThe sea rose.\n\n## Scene one\n\nMara ran.\n\n## Scene two\n\nIlse didn't follow.\n"
	u := NewUnit("manuscript/03-storm.md", text, 4)

	assert.Equal(t, "manuscript/03-storm.md", u.Path)
	assert.Equal(t, 3, u.Number)
	assert.Equal(t, int32(4), u.Version)
	assert.Equal(t, text, u.Text)
	assert.True(t, len(u.BodyText()) > 0 && u.BodyText()[0] == '#', "the body starts after the front matter")
	assert.Equal(t, text[u.Body.Start:u.Body.End], u.BodyText())
	assert.NotContains(t, u.BodyText(), "tags:")
	// Storm, The sea rose, Scene one, Mara ran, Scene two, Ilse didn't follow.
	assert.Equal(t, 1+3+2+2+2+3, u.Words, "front matter words are not prose")

	require.Len(t, u.Headings, 3)
	want := []struct {
		heading string
		level   int
		content string
	}{
		{"Storm", 1, "The sea rose."},
		{"Scene one", 2, "Mara ran."},
		{"Scene two", 2, "Ilse didn't follow."},
	}
	for i, w := range want {
		h := u.Headings[i]
		assert.Equal(t, w.heading, h.Heading)
		assert.Equal(t, w.level, h.Level)
		assert.Equal(t, strings.Repeat("#", w.level)+" "+w.heading, text[h.HeadingRange.Start:h.HeadingRange.End])
		assert.Contains(t, text[h.Range.Start:h.Range.End], w.content)
	}
	// A scene's range ends where the next one starts.
	assert.Equal(t, u.Headings[2].Range.Start, u.Headings[1].Range.End)
	assert.NotContains(t, text[u.Headings[1].Range.Start:u.Headings[1].Range.End], "Ilse")
	assert.Equal(t, len(text), u.Headings[2].Range.End)
}

func TestNewUnitInvalidUTF8(t *testing.T) {
	u := NewUnit("manuscript/01-x.md", "# Bad \xff\xfe title\n\ncaf\xe9 text\n", 0)
	assert.True(t, utf8.ValidString(u.Text))
	assert.True(t, utf8.ValidString(u.Title))
	assert.Equal(t, u.Text[u.Body.Start:u.Body.End], u.BodyText())
}

func TestNewUnitEmpty(t *testing.T) {
	u := NewUnit("manuscript/02-blank.md", "", 0)
	assert.Equal(t, "Blank", u.Title)
	assert.Zero(t, u.Words)
	assert.Empty(t, u.Headings)
	assert.Empty(t, u.BodyText())
}

func TestTitleFromName(t *testing.T) {
	tests := map[string]string{
		"07-the-storm.md":    "The Storm",
		"the_storm.markdown": "The Storm",
		"10. Calm Seas.md":   "Calm Seas",
		"ça-va.md":           "Ça Va",
		"007.md":             "007",
		"x.md":               "X",
	}
	for name, want := range tests {
		assert.Equal(t, want, titleFromName(name), name)
	}
}

// NewUnit reads chapters with codex.OutlineOf; these are the parts of
// the outline the manuscript relies on.
func TestOutlineOfChapter(t *testing.T) {
	fm := "---\ntitle: Storm\n---\n"
	body := "# Storm\n\nText.\n\n```\n# not a heading\n```\n\n## Scene\n\nMore `# code`.\n"
	src := fm + body
	o := codex.OutlineOf([]byte(src))

	assert.Equal(t, fm, src[o.FrontMatter.Start:o.FrontMatter.End])
	assert.Equal(t, codex.Range{Start: len(fm), End: len(src)}, o.Body)
	assert.Equal(t, "Storm", o.FirstHeading)
	require.Len(t, o.Sections, 2, "a # line inside a code block is no heading")
	assert.Equal(t, "Scene", o.Sections[1].Heading)
	for _, c := range o.Code {
		assert.True(t, c.Start >= o.Body.Start && c.End <= len(src))
	}
	require.Len(t, o.Code, 2)
	assert.Contains(t, src[o.Code[0].Start:o.Code[0].End], "# not a heading")
	assert.Contains(t, src[o.Code[1].Start:o.Code[1].End], "# code")

	none := codex.OutlineOf([]byte(body))
	assert.Zero(t, none.FrontMatter.Len())
	assert.Equal(t, codex.Range{Start: 0, End: len(body)}, none.Body)
}
