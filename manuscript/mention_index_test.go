package manuscript

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// chapter builds a unit as discovery would, at a place in reading order.
func chapter(path string, position int, text string) *Unit {
	u := NewUnit(path, text, 0)
	u.Position = position
	return u
}

func bookCatalog(t testing.TB) *codex.Catalog {
	return catalogOf(t,
		"codex/mara.md", "name: Mara Vell\naliases: [Mara]",
		"codex/ilse.md", "name: Ilse Dorn\naliases: [Ilse]",
		"codex/gull.md", "type: location\nname: Gull Rock",
		"codex/twin-a.md", "name: Ada Pell\naliases: [the Twins]",
		"codex/twin-b.md", "name: Ida Pell\naliases: [the Twins]",
	)
}

func book() []*Unit {
	return []*Unit{
		chapter("manuscript/01-harbor.md", 1, "---\ntitle: Mara's Return\n---\n# The Harbor\n\nMara Vell rowed past Gull Rock. Ilse waved; Mara did not.\n"),
		chapter("manuscript/02-storm.md", 2, "# Storm\n\nIlse counted. Ilse counted again. The Twins laughed at Mara.\n"),
		chapter("manuscript/03-calm.md", 3, "# Calm\n\nNobody came.\n"),
	}
}

func TestMentionIndexMentions(t *testing.T) {
	units := book()
	ix := BuildMentionIndex(NewMatcher(bookCatalog(t)), units)

	got := ix.Mentions("manuscript/01-harbor.md")
	text := units[0].Text
	// Offsets are into the whole file; the front matter's title is not
	// prose and holds no mention.
	assert.Equal(t, []seen{
		{entry: "codex/mara.md", text: "Mara Vell"},
		{entry: "codex/gull.md", text: "Gull Rock"},
		{entry: "codex/ilse.md", text: "Ilse", alias: true},
		{entry: "codex/mara.md", text: "Mara", alias: true},
	}, seenIn(text, got))
	assert.Greater(t, got[0].Range.Start, strings.Index(text, "# The Harbor"))
	assert.Nil(t, ix.Mentions("manuscript/99-missing.md"))

	m, ok := ix.MentionAt("manuscript/01-harbor.md", strings.Index(text, "Vell"))
	require.True(t, ok)
	assert.Equal(t, "codex/mara.md", m.Entry)
	_, ok = ix.MentionAt("manuscript/01-harbor.md", strings.Index(text, "rowed"))
	assert.False(t, ok)
	_, ok = ix.MentionAt("manuscript/01-harbor.md", got[0].Range.End)
	assert.False(t, ok, "ranges are half-open")
}

func TestMentionIndexInUnit(t *testing.T) {
	units := book()
	ix := BuildMentionIndex(NewMatcher(bookCatalog(t)), units)
	text := units[1].Text
	assert.Equal(t, []EntryCount{
		{Entry: "codex/ilse.md", Count: 2, First: codex.Range{Start: strings.Index(text, "Ilse"), End: strings.Index(text, "Ilse") + 4}},
		// The ambiguous "the Twins" counts for each entry it may name.
		{Entry: "codex/twin-a.md", Count: 1, First: codex.Range{Start: strings.Index(text, "The Twins"), End: strings.Index(text, "The Twins") + 9}},
		{Entry: "codex/twin-b.md", Count: 1, First: codex.Range{Start: strings.Index(text, "The Twins"), End: strings.Index(text, "The Twins") + 9}},
		{Entry: "codex/mara.md", Count: 1, First: codex.Range{Start: strings.Index(text, "Mara"), End: strings.Index(text, "Mara") + 4}},
	}, ix.InUnit("manuscript/02-storm.md"))
	assert.Equal(t, []string{"codex/twin-b.md"}, ix.Mentions("manuscript/02-storm.md")[2].Others)
	assert.Empty(t, ix.InUnit("manuscript/03-calm.md"))
}

func TestMentionIndexAppearances(t *testing.T) {
	units := book()
	// A document outside the manuscript (position 0) comes after the
	// chapters, whatever its path.
	units = append(units, chapter("notes/aaa.md", 0, "Mara again.\n"))
	ix := BuildMentionIndex(NewMatcher(bookCatalog(t)), units)

	got := ix.Appearances("codex/mara.md")
	require.Len(t, got, 3)
	assert.Equal(t, Appearance{Path: "manuscript/01-harbor.md", Number: 1, Position: 1, Title: "Mara's Return", Count: 2,
		First: codex.Range{Start: strings.Index(units[0].Text, "Mara Vell"), End: strings.Index(units[0].Text, "Mara Vell") + 9}}, got[0])
	assert.Equal(t, []string{"manuscript/01-harbor.md", "manuscript/02-storm.md", "notes/aaa.md"}, appearancePaths(got))
	assert.Empty(t, ix.Appearances("codex/nobody.md"))
	assert.Equal(t, []string{"manuscript/02-storm.md"}, appearancePaths(ix.Appearances("codex/twin-b.md")), "an ambiguous mention counts for each entry it may name")
}

func appearancePaths(as []Appearance) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Path)
	}
	return out
}

func TestMentionIndexWithUnit(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	units := book()
	ix := BuildMentionIndex(m, units)

	edited := chapter("manuscript/03-calm.md", 3, "# Calm\n\nMara came, and Ilse.\n")
	next := ix.WithUnit(m, edited)
	assert.Len(t, next.Mentions("manuscript/03-calm.md"), 2)
	assert.Empty(t, ix.Mentions("manuscript/03-calm.md"), "the old index is unchanged")
	assert.Equal(t, []string{"manuscript/01-harbor.md", "manuscript/02-storm.md", "manuscript/03-calm.md"}, appearancePaths(next.Appearances("codex/mara.md")))
	assert.Equal(t, []string{"manuscript/01-harbor.md", "manuscript/02-storm.md"}, appearancePaths(ix.Appearances("codex/mara.md")))

	// A new chapter between two others.
	inserted := chapter("manuscript/02a-interlude.md", 3, "Ilse slept.\n")
	moved := chapter("manuscript/03-calm.md", 4, edited.Text)
	next = next.WithUnit(m, inserted).WithUnit(m, moved)
	assert.Equal(t, []string{"manuscript/01-harbor.md", "manuscript/02-storm.md", "manuscript/02a-interlude.md", "manuscript/03-calm.md"}, unitPaths(next.Units()))
	assert.Equal(t, 4, next.Appearances("codex/ilse.md")[3].Position)
}

func unitPaths(units []*Unit) []string {
	var out []string
	for _, u := range units {
		out = append(out, u.Path)
	}
	return out
}

func TestMentionIndexKeepsScansOfUnchangedText(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	units := book()
	ix := BuildMentionIndex(m, units)

	// Only the position changed: the scan is reused, the unit updated.
	moved := *units[0]
	moved.Position = 7
	next := ix.WithUnit(m, &moved)
	assert.Same(t, &ix.Mentions(units[0].Path)[0], &next.Mentions(units[0].Path)[0])
	assert.Equal(t, 7, next.Appearances("codex/gull.md")[0].Position)

	synced := next.Sync(m, units)
	assert.Same(t, &ix.Mentions(units[1].Path)[0], &synced.Mentions(units[1].Path)[0])
	assert.Equal(t, 1, synced.Appearances("codex/gull.md")[0].Position)

	// A new matcher is a new codex: everything is scanned again.
	cat := bookCatalog(t).With([]*codex.Entry{parseEntry(t, "codex/calm.md", "type: concept\nname: Nobody")}, nil, nil)
	rescanned := synced.WithUnit(NewMatcher(cat), units[0])
	assert.Len(t, rescanned.Mentions("manuscript/03-calm.md"), 1)
	assert.NotSame(t, &ix.Mentions(units[1].Path)[0], &rescanned.Mentions(units[1].Path)[0])
	assert.Len(t, rescanned.Units(), 3)
}

func TestMentionIndexWithout(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	ix := BuildMentionIndex(m, book())
	next := ix.Without("manuscript/02-storm.md")
	assert.Empty(t, next.Appearances("codex/ilse.md")[1:])
	assert.Len(t, ix.Appearances("codex/ilse.md"), 2)
	assert.Same(t, next, next.Without("manuscript/02-storm.md"))
	assert.Len(t, next.Units(), 2)
}

func TestMentionIndexSyncDropsMissingUnits(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	units := book()
	ix := BuildMentionIndex(m, units).Sync(m, units[:1])
	assert.Equal(t, []string{"manuscript/01-harbor.md"}, unitPaths(ix.Units()))
}

func TestMentionIndexTable(t *testing.T) {
	ix := BuildMentionIndex(NewMatcher(bookCatalog(t)), book())
	table := ix.Table()
	require.Len(t, table.Units, 3)
	assert.Equal(t, MentionColumn{Path: "manuscript/02-storm.md", Number: 2, Position: 2, Title: "Storm"}, table.Units[1])
	assert.Equal(t, []MentionRow{
		{Entry: "codex/ilse.md", Counts: []int{1, 2, 0}, Total: 3},
		{Entry: "codex/mara.md", Counts: []int{2, 1, 0}, Total: 3},
		{Entry: "codex/gull.md", Counts: []int{1, 0, 0}, Total: 1},
		{Entry: "codex/twin-a.md", Counts: []int{0, 1, 0}, Total: 1},
		{Entry: "codex/twin-b.md", Counts: []int{0, 1, 0}, Total: 1},
	}, table.Rows)

	empty := BuildMentionIndex(nil, nil).Table()
	assert.Empty(t, empty.Units)
	assert.Empty(t, empty.Rows)
}

func TestMentionIndexHandBuiltUnit(t *testing.T) {
	// A unit that did not come from NewUnit has no body range: all of its
	// text is prose.
	ix := BuildMentionIndex(NewMatcher(bookCatalog(t)), []*Unit{{Path: "x.md", Text: "Mara and Ilse"}})
	assert.Len(t, ix.Mentions("x.md"), 2)
}

func TestMentionIndexConcurrentReaders(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	ix := BuildMentionIndex(m, book())
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for range 50 {
				_ = ix.Appearances("codex/mara.md")
				_ = ix.Table()
				_ = ix.Untracked(1)
			}
		})
		wg.Go(func() {
			next := ix
			for j := range 50 {
				next = next.WithUnit(m, chapter("manuscript/03-calm.md", 3, strings.Repeat("Mara. ", i+j)))
			}
			assert.Len(t, next.Mentions("manuscript/03-calm.md"), i+49)
		})
	}
	wg.Wait()
	assert.Empty(t, ix.Mentions("manuscript/03-calm.md"))
}

// A chapter scanned keeps its mentions in the chapter cache's encoding,
// not as records (a tenth of the memory), and gives back the same
// mentions; reading every chapter's names once keeps none decoded.
func TestMentionIndexKeepsScansEncoded(t *testing.T) {
	units := book()
	m := NewMatcher(bookCatalog(t))
	ix := BuildMentionIndex(m, units)
	for _, u := range units[:2] {
		um := ix.units[u.Path]
		assert.Nil(t, um.mentions, u.Path)
		require.NotEmpty(t, um.raw, u.Path)
		body := u.BodyRange()
		want := m.scan(u.Text[:body.End], body.Start, false)
		require.NotEmpty(t, want)
		// The untracked names' reading decodes without keeping.
		assert.Equal(t, want, um.transient(), u.Path)
		assert.Nil(t, um.mentions, u.Path)
		assert.Equal(t, want, ix.Mentions(u.Path), u.Path)
	}
	// A chapter with no mentions has nothing to encode.
	assert.Nil(t, ix.units["manuscript/03-calm.md"].raw)
	assert.Empty(t, ix.Mentions("manuscript/03-calm.md"))
	// A chapter scanned alone after an edit is read at once: it keeps
	// its records.
	edited := chapter("manuscript/02-storm.md", 2, "# Storm\n\nIlse counted, and Mara rowed.\n")
	for _, next := range []*MentionIndex{ix.WithUnit(m, edited), ix.Sync(m, []*Unit{units[0], edited, units[2]})} {
		um := next.units[edited.Path]
		assert.NotEmpty(t, um.mentions)
		assert.Nil(t, um.raw)
	}
}
