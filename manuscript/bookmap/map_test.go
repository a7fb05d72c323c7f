package bookmap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// The sample book's map counts what `quire mentions` counts, and places
// each cell's link at the chapter's first mention.
func TestSampleAppearances(t *testing.T) {
	m, b := buildMap(t, sampleRoot, Options{})
	require.Len(t, m.Chapters, 5)
	assert.Equal(t, "The Thirteenth Bell", m.Title)
	assert.Equal(t, "1", m.Chapters[0].Label())
	assert.Equal(t, "Slack Water", m.Chapters[2].Title)
	require.Len(t, m.Entries, 23)

	tests := []struct {
		id     string
		total  int
		counts map[int]int
		first  [2]int // chapter index and line of the first mention
	}{
		{"codex/characters/moss-kettering.md", 26, map[int]int{0: 8, 2: 6, 3: 7, 4: 5}, [2]int{0, 12}},
		{"codex/characters/ebba-strand.md", 16, map[int]int{0: 1, 2: 8, 3: 3, 4: 4}, [2]int{0, 14}},
		// Her given name alone is hers (manuscript.GivenName): "Teodora turned".
		{"codex/characters/teodora-quill/index.md", 43, map[int]int{0: 9, 1: 8, 2: 8, 3: 8, 4: 10}, [2]int{0, 10}},
		{"codex/events/wreck-of-the-marigold.md", 8, map[int]int{1: 3, 2: 1, 3: 2, 4: 2}, [2]int{1, 18}},
		{"codex/style/brinmouth-glossary.md", 1, map[int]int{4: 1}, [2]int{4, 56}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			e, ok := m.Entry(tt.id)
			require.True(t, ok)
			assert.Equal(t, tt.total, e.Total)
			assert.Equal(t, len(tt.counts), e.Chapters)
			got := map[int]int{}
			for _, c := range e.Cells {
				got[c.Chapter] = c.Count
			}
			assert.Equal(t, tt.counts, got)
			first, ok := e.First()
			require.True(t, ok)
			assert.Equal(t, tt.first, [2]int{first.Chapter, first.Line})
		})
	}

	// Every cell's line and column are the chapter's first mention, as
	// codex.LineColumn counts them.
	snap := b.Manuscript.Snapshot()
	for _, e := range m.Entries {
		for _, c := range e.Cells {
			u := snap.Units()[c.Chapter]
			var want codex.Range
			for _, ec := range snap.Mentions().InUnit(u.Path) {
				if ec.Entry == e.ID {
					want = ec.First
				}
			}
			line, col := codex.LineColumn(u.Text, want.Start)
			assert.Equal(t, [2]int{line, col}, [2]int{c.Line, c.Column}, "%s in %s", e.Name, u.Path)
		}
	}

	// Rows come in order of first appearance: chapter, then line.
	for i := 1; i < len(m.Entries); i++ {
		a, _ := m.Entries[i-1].First()
		b, _ := m.Entries[i].First()
		assert.True(t, a.Chapter < b.Chapter || a.Chapter == b.Chapter && a.Line <= b.Line,
			"%s before %s", m.Entries[i-1].Name, m.Entries[i].Name)
	}

	var unmentioned []string
	for _, e := range m.Unmentioned {
		unmentioned = append(unmentioned, e.Name)
	}
	assert.Equal(t, []string{"Greyhand Company", "Narrative Voice", "Tobiah Quill"}, unmentioned)
	assert.Equal(t, []codex.Type{codex.TypeCharacter, codex.TypeLocation, codex.TypeOrganization, codex.TypeItem,
		codex.TypeConcept, codex.TypeEvent, codex.TypeStyle}, m.Types)
	assert.Contains(t, m.Tags, "antagonist")
}

// The sample's chapters give a pov, a day and a location each.
func TestSampleTimeline(t *testing.T) {
	m, _ := buildMap(t, sampleRoot, Options{})
	assert.Equal(t, []string{"Teodora Quill"}, m.Timeline.POVs)
	assert.Equal(t, []Day{{Day: 1, Chapters: []int{0, 1}}, {Day: 2, Chapters: []int{2, 3}}, {Day: 3, Chapters: []int{4}}}, m.Timeline.Days)
	assert.Empty(t, m.Timeline.Undated)
	assert.Equal(t, "Teo", m.Chapters[0].POV)
	assert.Equal(t, "Skerry Vault", m.Chapters[3].LocationName)
}

// [[links]] become edges between the entries they join, whichever of
// the two links the other.
func TestSampleRelationships(t *testing.T) {
	m, _ := buildMap(t, sampleRoot, Options{})
	ebba, ok := m.Entry("codex/characters/ebba-strand.md")
	require.True(t, ok)
	assert.Contains(t, ebba.Links(), "codex/organizations/tidewardens.md")
	assert.Contains(t, ebba.Links(), "codex/locations/brinmouth.md")
	assert.NotContains(t, ebba.Links(), ebba.ID, "a link to itself is no relationship")

	g := m.Graph
	// Every mentioned entry, and the unmentioned ones that link or are
	// linked: the sample's codex links all of them.
	assert.Equal(t, 26, g.Candidates)
	require.Len(t, g.Nodes, 26)
	node := map[string]int{}
	for i, n := range g.Nodes {
		node[n.ID] = i
	}
	linked := func(a, b string) (Edge, bool) {
		i, j := node[a], node[b]
		for _, e := range g.Edges {
			if e.From == min(i, j) && e.To == max(i, j) {
				return e, true
			}
		}
		return Edge{}, false
	}
	e, ok := linked("codex/characters/ebba-strand.md", "codex/organizations/tidewardens.md")
	require.True(t, ok)
	assert.True(t, e.Link)
	// Nodes sit grouped by type, in the catalog's order of types.
	for i := 1; i < len(g.Nodes); i++ {
		assert.LessOrEqual(t, compareTypes(g.Nodes[i-1].Type, g.Nodes[i].Type), 0)
	}
	for _, e := range g.Edges {
		if !e.Link {
			assert.GreaterOrEqual(t, e.Shared, g.MinShared)
		}
	}
}

// A book whose chapters leave out days, go back in a flashback and
// change point of view: days by story order, the rest in reading order.
func TestTimelineFlashbackAndUndated(t *testing.T) {
	root := writeBook(t, map[string]string{
		"codex/characters/ana.md":  "---\nname: Ana Brisk\naliases: [Ana]\n---\n# Ana Brisk\n\nSister of [[Ben Hale]].\n",
		"codex/characters/ben.md":  "---\nname: Ben Hale\n---\n# Ben Hale\n",
		"codex/locations/mill.md":  "---\nname: The Mill\n---\n# The Mill\n",
		"manuscript/01-storm.md":   "---\npov: Ana\nday: 3\nlocation: The Mill\n---\n# Storm\n\nAna watched Ben Hale.\n",
		"manuscript/02-before.md":  "---\npov: Ben Hale\nday: 1\nflashback: true\n---\n# Before\n\nBen Hale was young.\n",
		"manuscript/03-after.md":   "---\npov: Ana\n---\n# After\n\nAna alone.\n",
		"manuscript/04-later.md":   "---\npov: Ana\nday: 5\n---\n# Later\n\nAna and Ben Hale at the Mill.\n",
		"manuscript/05-nowhere.md": "# Nowhere\n\nNobody.\n",
	})
	m, _ := buildMap(t, root, Options{})
	assert.Equal(t, []string{"Ana Brisk", "Ben Hale"}, m.Timeline.POVs)
	assert.Equal(t, []Day{{Day: 1, Chapters: []int{1}}, {Day: 3, Chapters: []int{0}, Gap: true}, {Day: 5, Chapters: []int{3}, Gap: true}}, m.Timeline.Days)
	assert.Equal(t, []int{2, 4}, m.Timeline.Undated)
	assert.True(t, m.Chapters[1].Flashback)
	// An undated chapter follows the story day of the chapter before it
	// that is no flashback.
	assert.Equal(t, [2]any{3, true}, [2]any{m.Chapters[2].StoryDay, m.Chapters[2].HasStoryDay})
	assert.Equal(t, "The Mill", m.Chapters[0].LocationName)

	page := string(render(t, m))
	assert.Contains(t, page, "No day given (reading order)")
	assert.Contains(t, page, "after day 3")
	assert.Contains(t, page, `stroke-dasharray="5 3"`, "the flashback is dashed")
	assert.Contains(t, page, "POV Ben Hale · flashback")
}

// The same book writes the same bytes, opened twice.
func TestDeterministic(t *testing.T) {
	m1, _ := buildMap(t, sampleRoot, Options{})
	m2, _ := buildMap(t, sampleRoot, Options{})
	p1, p2 := render(t, m1), render(t, m2)
	assert.True(t, bytes.Equal(p1, p2))
	assert.True(t, bytes.Equal(p1, render(t, m1)))
}

// Cells link the chapter at the first mention: a file:// URI with the
// line, or the editor's own URI when a template is given; a template
// that could run script is not used.
func TestCellLinks(t *testing.T) {
	tests := []struct {
		name, template, want string
	}{
		{"file", "", "file://%s/manuscript/01-thirteen-strokes.md#L14"},
		// One slash after file, on every system (links_test.go).
		{"editor", "vscode://file/{path}:{line}:{column}", "vscode://file/%s/manuscript/01-thirteen-strokes.md:14:"},
		{"unsafe", "javascript:alert('{path}')", "file://%s/manuscript/01-thirteen-strokes.md#L14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, b := buildMap(t, sampleRoot, Options{EditorURI: tt.template})
			e, _ := m.Entry("codex/characters/ebba-strand.md")
			first, _ := e.First()
			link := m.chapterLink(m.Chapters[first.Chapter].Path, first.Line, first.Column)
			root := filepath.ToSlash(b.Root)
			if tt.name == "editor" {
				root = strings.TrimPrefix(root, "/")
			} else if !strings.HasPrefix(root, "/") {
				root = "/" + root // file:///C:/…
			}
			assert.Contains(t, link, sprintf(tt.want, root))
			page := string(render(t, m))
			assert.Contains(t, page, sprintf(tt.want, root))
			assert.NotContains(t, page, "ZgotmplZ", "html/template refused no chapter link (the heads and the timeline's boxes)")
		})
	}
}

// What the book says reaches the page as text, never as markup.
func TestEscapes(t *testing.T) {
	root := writeBook(t, map[string]string{
		"codex/characters/x.md": "---\nname: Eve <script>alert(1)</script>\naliases: [Eve]\ntags: [\"a\\\" onmouseover=\\\"x\"]\n---\n# Eve\n",
		"manuscript/01-a&b.md":  "---\ntitle: A <b>bold</b> & \"quoted\" chapter\npov: Eve\nlocation: <img src=x>\n---\n# A\n\nEve came.\n\n\"<i>Hi</i>,\" said Eve.\n",
	})
	m, _ := buildMap(t, root, Options{})
	require.Len(t, m.Speakers, 1, "Eve speaks: her name is in the Spoken view too")
	page := string(render(t, m))
	assert.NotContains(t, page, "<script>alert")
	assert.NotContains(t, page, "<b>bold")
	assert.NotContains(t, page, "<img src=x>")
	assert.NotContains(t, page, `" onmouseover="x`)
	assert.Contains(t, page, "Eve &lt;script&gt;")
}

// Past MaxRows, the heatmap keeps the entries mentioned most and sums
// the others by type; the graph draws MaxNodes and says so.
func TestCorpusBounds(t *testing.T) {
	dir := genCorpus(t, 1000, 20)
	m, b := buildMap(t, dir, Options{MaxRows: 100, MaxNodes: 40})
	table := b.Manuscript.Snapshot().Mentions().Table()
	require.Len(t, m.Entries, len(table.Rows))
	require.Greater(t, len(m.Entries), 100, "the corpus mentions more entries than the heatmap shows")
	total := 0
	for _, r := range table.Rows {
		total += r.Total
	}
	got := 0
	for _, e := range m.Entries {
		got += e.Total
	}
	assert.Equal(t, total, got)
	assert.Len(t, m.Graph.Nodes, 40)
	assert.LessOrEqual(t, len(m.Graph.Edges)-countLinks(m.Graph), m.Graph.MaxShared)

	page := string(render(t, m))
	assert.Contains(t, page, "gives a row each to the 100 mentioned most")
	assert.Contains(t, page, "the graph shows the 40 mentioned most")
	assert.Contains(t, page, `<tr class="rest">`)
}

func countLinks(g Graph) int {
	n := 0
	for _, e := range g.Edges {
		if e.Link {
			n++
		}
	}
	return n
}

func writeBook(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return root
}

// A book with nothing in it yet still gets a page that says so.
func TestEmptyBook(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no chapters, no codex", map[string]string{"quire.yaml": "title: Blank\n"}, []string{"No chapter mentions a codex entry yet.", "No chapters yet.", "No codex entry is mentioned or linked yet."}},
		{"chapters without names", map[string]string{"manuscript/01-a.md": "# A\n\nRain.\n", "codex/characters/x.md": "---\nname: Xu\n---\n# Xu\n"},
			[]string{"No chapter mentions a codex entry yet.", "No chapter gives a story day or a point of view yet", "Never mentioned in the chapters: Xu."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := buildMap(t, writeBook(t, tt.files), Options{})
			page := string(render(t, m))
			for _, w := range tt.want {
				assert.Contains(t, page, w)
			}
		})
	}
}

// A book none of whose chapters gives a day, a point of view, a place or
// a flashback has no timeline to draw: the view says how to give them
// instead of a box per chapter saying "no POV given". One chapter that
// gives a point of view brings the boxes back.
func TestTimelineWithNothingToPlace(t *testing.T) {
	files := map[string]string{
		"codex/characters/ana.md": "---\nname: Ana Brisk\n---\n# Ana Brisk\n",
		"manuscript/01-one.md":    "# One\n\nAna Brisk ran.\n",
		"manuscript/02-two.md":    "# Two\n\nAna stopped.\n",
	}
	m, _ := buildMap(t, writeBook(t, files), Options{})
	page := string(render(t, m))
	assert.NotContains(t, page, "no POV given")
	assert.NotContains(t, page, `id="timeline-svg"`)
	assert.Contains(t, page, `<p id="timeline-empty">No chapter gives a story day or a point of view yet`)
	assert.Contains(t, page, "day: 3\npov: Ana Brisk")

	files["manuscript/02-two.md"] = "---\npov: Ana\n---\n# Two\n\nAna stopped.\n"
	m, _ = buildMap(t, writeBook(t, files), Options{})
	page = string(render(t, m))
	assert.Contains(t, page, `id="timeline-svg"`)
	assert.Contains(t, page, "POV Ana Brisk")
	assert.Contains(t, page, "no POV given", "the chapter that gives none says so among those that do")
	assert.NotContains(t, page, `id="timeline-empty"`)
}
