package continuity

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// timelineBook is smallBook with a third chapter, a progression from
// chapter 2 and one from a notes file that does not exist yet.
func timelineBook() map[string]string {
	files := maps.Clone(smallBook)
	files["codex/characters/marek.md"] = "---\ntype: character\nname: Marek Dunn\naliases: [Marek]\neyes: brown\nhair: brown\nprogressions:\n  - from: 2\n    hair: grey\n---\n"
	files["codex/characters/ilse.md"] = "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse]\neyes: unsettling\nprogressions:\n  - from: notes/ideas.md\n    eyes: grey\n---\n"
	files["manuscript/03-after.md"] = "---\ntitle: After\nday: 6\n---\nMarek laughed. Jory stood at the rail. His black hair, Marek's, was wet.\n"
	return files
}

// TestTimelineFor: a timeline moved to a new snapshot keeps its placing
// of the chapters only when the edit left every chapter's order, name,
// title and front matter as they were, and it always equals the
// timeline built afresh for that snapshot.
func TestTimelineFor(t *testing.T) {
	const after = "manuscript/03-after.md"
	tests := []struct {
		name string
		// edit changes the book after the first timeline is built.
		edit   func(t *testing.T, root string, m *manuscript.Manuscript)
		shared bool
		// problem, when set, is a problem the moved timeline must say.
		problem string
	}{
		{"prose only", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, after, "---\ntitle: After\nday: 6\n---\nMarek smiled. Jory climbed the stair.\n")
		}, true, ""},
		{"the same text again", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, after, timelineBook()[after])
		}, true, ""},
		{"a day", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, "manuscript/02-drowning.md", "---\ntitle: The Drowning\nday: 7\n---\nThe sea took him.\n")
		}, false, ""},
		{"a flashback", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, after, "---\ntitle: After\nday: 6\nflashback: true\n---\nMarek laughed. Jory stood at the rail.\n")
		}, false, ""},
		{"a day moved in its file", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, after, "---\ntitle: After\n# the day after the storm\nday: 6\n---\nMarek laughed.\n")
		}, false, ""},
		{"a day that is no number", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, after, "---\ntitle: After\nday: soon\n---\nMarek laughed.\n")
		}, false, ""},
		{"a title a progression names", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, "manuscript/02-drowning.md", "---\ntitle: The Flood\nday: 4\n---\nThe sea took him.\n")
		}, false, "progression `from: The Drowning` names no chapter"},
		{"a chapter added", func(t *testing.T, root string, m *manuscript.Manuscript) {
			openDoc(t, m, "manuscript/04-later.md", "---\ntitle: Later\nday: 9\n---\nJory said nothing.\n")
		}, false, ""},
		{"the file a progression names appears", func(t *testing.T, root string, m *manuscript.Manuscript) {
			p := filepath.Join(root, "notes", "ideas.md")
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte("# Ideas\n"), 0o644))
			openDoc(t, m, after, "---\ntitle: After\nday: 6\n---\nMarek smiled.\n")
		}, true, "progression `from: notes/ideas.md` names a file that is not a chapter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeBook(t, timelineBook())
			canon, m := openManuscript(t, root, Options{}, nil)
			before := NewTimeline(canon, m.Snapshot())
			require.NotEmpty(t, before.Problems(), "the notes file is missing: its progression applies nowhere")
			tc.edit(t, root, m)
			snap := m.Snapshot()
			moved, fresh := before.For(snap), NewTimeline(canon, snap)
			assert.Equal(t, tc.shared, moved.placing == before.placing, "placing shared")
			assert.Equal(t, timelineView(t, fresh, snap), timelineView(t, moved, snap))
			if tc.problem != "" {
				var said []string
				for _, p := range moved.Problems() {
					said = append(said, p.Message)
				}
				assert.Contains(t, strings.Join(said, "\n"), tc.problem)
			}
		})
	}
}

func openDoc(t *testing.T, m *manuscript.Manuscript, rel, text string) {
	t.Helper()
	require.NoError(t, m.OpenDocument(context.Background(), rel, text, 2))
}

// view is what a timeline tells its callers.
type view struct {
	Chapters []Chapter
	Problems []codex.Problem
	Previous []Previous
	AsOf     []string
	Checks   [][]Diagnostic
}

func timelineView(t *testing.T, tl *Timeline, snap *manuscript.Snapshot) view {
	t.Helper()
	v := view{Chapters: tl.Chapters(), Problems: slices.Clone(tl.Problems())}
	slices.SortFunc(v.Problems, func(a, b codex.Problem) int { return strings.Compare(a.String(), b.String()) })
	for _, ch := range tl.Chapters() {
		p, _ := tl.Previous(ch.Position)
		v.Previous = append(v.Previous, p)
		for _, e := range tl.Canon().Catalog().All() {
			v.AsOf = append(v.AsOf, tl.AsOfLine(e, ch), tl.AsOf(e, ch).Field("hair"), tl.AsOf(e, ch).Field("eyes"))
		}
	}
	for _, u := range snap.Units() {
		v.Checks = append(v.Checks, Check(tl, u))
	}
	return v
}
