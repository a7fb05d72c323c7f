package proposal

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal/proposaltest"
)

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
			assert.Equal(t, after, proposaltest.Patch(t, base, diff))
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
		assert.Equal(t, after, proposaltest.Patch(t, base, diff), "diff:\n%s", strconv.Quote(diff))
	})
}
