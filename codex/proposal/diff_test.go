package proposal

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// patch applies a unified diff of one file to before, checking that every
// context and removed line is what the diff says, as patch(1) would.
func patch(t testing.TB, before, diff string) string {
	t.Helper()
	old := splitLines(before)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	at := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		var oldFrom, oldCount, newFrom, newCount int
		_, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &oldFrom, &oldCount, &newFrom, &newCount)
		require.NoError(t, err, "hunk header %q", l)
		start := oldFrom - 1
		if oldCount == 0 {
			start = oldFrom
		}
		require.GreaterOrEqual(t, start, at, "hunks in order")
		out = append(out, old[at:start]...)
		at = start
		seenOld, seenNew := 0, 0
		for i+1 < len(lines) && (seenOld < oldCount || seenNew < newCount) {
			i++
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				require.Equal(t, old[at], text, "context line %d", at+1)
				out = append(out, text)
				at++
				seenOld++
				seenNew++
			case '-':
				require.Equal(t, old[at], text, "removed line %d", at+1)
				at++
				seenOld++
			case '+':
				out = append(out, text)
				seenNew++
			default:
				t.Fatalf("unexpected diff line %q", l)
			}
		}
		require.Equal(t, oldCount, seenOld, "old count of %q", lines)
		require.Equal(t, newCount, seenNew, "new count")
	}
	out = append(out, old[at:]...)
	return strings.Join(out, "")
}

func fileEdit(start, end int, text string) FileEdit {
	return FileEdit{Path: "codex/a.md", Range: codex.Range{Start: start, End: end}, NewText: text}
}

func TestProposalDiffPatchesBack(t *testing.T) {
	base := "---\nname: Ada\n---\n# Ada\n\nOne.\nTwo.\nThree.\nFour.\nFive.\nSix.\nSeven.\nEight.\nNine.\nTen.\n"
	at := func(s string) int { return strings.Index(base, s) }
	tests := []struct {
		name  string
		edits []FileEdit
		want  string // the diff, when pinned
	}{
		{name: "replace one line", edits: []FileEdit{fileEdit(at("Two."), at("Two.")+4, "Deux.")},
			want: "--- a/codex/a.md\n+++ b/codex/a.md\n@@ -4,7 +4,7 @@\n # Ada\n \n One.\n-Two.\n+Deux.\n Three.\n Four.\n Five.\n"},
		{name: "insert a line at a line start", edits: []FileEdit{fileEdit(at("Six."), at("Six."), "Five and a half.\n")},
			want: "--- a/codex/a.md\n+++ b/codex/a.md\n@@ -8,6 +8,7 @@\n Three.\n Four.\n Five.\n+Five and a half.\n Six.\n Seven.\n Eight.\n"},
		{name: "append at the end", edits: []FileEdit{fileEdit(len(base), len(base), "## Allies\n\nThe dockhands.\n")},
			want: "--- a/codex/a.md\n+++ b/codex/a.md\n@@ -13,3 +13,6 @@\n Eight.\n Nine.\n Ten.\n+## Allies\n+\n+The dockhands.\n"},
		{name: "far apart edits make two hunks", edits: []FileEdit{
			fileEdit(at("Ada\n---"), at("Ada\n---")+3, "Ada Vell"), fileEdit(at("Ten."), at("Ten.")+4, "Ten!")}},
		{name: "near edits share a hunk", edits: []FileEdit{fileEdit(at("Two."), at("Two.")+4, "2"), fileEdit(at("Four."), at("Four.")+5, "4")}},
		{name: "delete lines", edits: []FileEdit{fileEdit(at("Three."), at("Six."), "")}},
		{name: "two edits on one line", edits: []FileEdit{fileEdit(at("One."), at("One.")+1, "o"), fileEdit(at("One.")+2, at("One.")+3, "E")}},
		{name: "no newline at the end", edits: []FileEdit{fileEdit(len(base)-1, len(base), "")}},
		{name: "an edit that changes nothing", edits: []FileEdit{fileEdit(at("Two."), at("Two.")+4, "Two.")}, want: "--- a/codex/a.md\n+++ b/codex/a.md\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff, err := Diff(tt.edits, map[string]string{"codex/a.md": base})
			require.NoError(t, err)
			if tt.want != "" {
				assert.Equal(t, tt.want, diff)
			}
			after, err := ApplyEdits(base, tt.edits)
			require.NoError(t, err)
			assert.Equal(t, after, patch(t, base, diff))
		})
	}
	if n := strings.Count(func() string {
		d, _ := Diff(tests[3].edits, map[string]string{"codex/a.md": base})
		return d
	}(), "@@ -"); n != 2 {
		t.Errorf("far apart edits: %d hunks, want 2", n)
	}
}

func TestProposalDiffOfCreatedFiles(t *testing.T) {
	diff, err := Diff([]FileEdit{
		{Path: "codex/characters/ada/index.md", Create: true, NewText: "---\nname: Ada\n---\n# Ada\n"},
		{Path: "codex/characters/ada/soul.md", Create: true, NewText: "Fear."},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, "--- /dev/null\n+++ b/codex/characters/ada/index.md\n@@ -0,0 +1,4 @@\n+---\n+name: Ada\n+---\n+# Ada\n"+
		"--- /dev/null\n+++ b/codex/characters/ada/soul.md\n@@ -0,0 +1,1 @@\n+Fear.\n\\ No newline at end of file\n", diff)
}

func TestProposalDiffNeedsTheBase(t *testing.T) {
	_, err := Diff([]FileEdit{fileEdit(0, 0, "x")}, nil)
	assert.ErrorContains(t, err, "codex/a.md")
}

func FuzzProposalDiff(f *testing.F) {
	f.Add("a\nb\nc\n", 2, 3, "B", 4, 5, "C\nD")
	f.Add("", 0, 0, "new\n", 0, 0, "")
	f.Add("no newline", 3, 3, "\n", 10, 10, "!")
	f.Fuzz(func(t *testing.T, base string, s1, e1 int, t1 string, s2, e2 int, t2 string) {
		clamp := func(v int) int { return min(max(v, 0), len(base)) }
		s1, e1, s2, e2 = clamp(s1), clamp(e1), clamp(s2), clamp(e2)
		if e1 < s1 || e2 < s2 || s2 < e1 {
			return
		}
		edits := []FileEdit{fileEdit(s1, e1, t1), fileEdit(s2, e2, t2)}
		diff, err := Diff(edits, map[string]string{"codex/a.md": base})
		require.NoError(t, err)
		after, err := ApplyEdits(base, edits)
		require.NoError(t, err)
		assert.Equal(t, after, patch(t, base, diff), "diff:\n%s", strconv.Quote(diff))
	})
}
