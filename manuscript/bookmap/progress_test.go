package bookmap

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/manuscript/progress"
)

// The progress view draws each chapter against its target and the words
// of each day, from the same Summary quire stats prints; a map built
// without one has no such view.
func TestProgressView(t *testing.T) {
	root := writeBook(t, map[string]string{
		"manuscript/01-a.md": "---\ntarget: 4\n---\n# A\n\nOne two three four five.\n",
		"manuscript/02-b.md": "# B <i>x</i>\n\nSix seven.\n",
	})
	b := openBook(t, root)
	snap := b.Manuscript.Snapshot()
	chapters := goals.ChaptersOf(snap)
	h := progress.History{Days: []progress.Day{
		{Date: "2026-11-26", First: 0, Last: 4, Net: 4, Gross: 5},
		{Date: "2026-11-27", First: 4, Last: 11, Net: 7, Gross: 10},
	}}
	now, err := time.Parse(time.DateOnly, "2026-11-27")
	require.NoError(t, err)
	sum := goals.Summarize(chapters, h, goals.Settings{Target: 100, Daily: 10}, now)

	without := string(render(t, Build(b.Store.Catalog(), snap, Options{Root: b.Root})))
	assert.False(t, strings.Contains(without, `id="progress"`) || strings.Contains(without, `href="#progress"`), "no summary, no progress view")

	m := Build(b.Store.Catalog(), snap, Options{Root: b.Root, Progress: &sum})
	page := string(render(t, m))
	has := func(want string) {
		t.Helper()
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	has(`<a href="#progress">Progress</a>`)
	// html/template writes + as &#43;.
	has("book 10 of 100 · today &#43;10 of 10 ✓ (net &#43;7)")
	has("10% of the book's target")
	// Chapter A: 6 words of 4, its bar full and marked met; B has no
	// target, and its title is text.
	assert.Regexp(t, regexp.MustCompile(`<td>1</td><td><a href="[^"]+01-a\.md[^"]*">A</a></td><td class="n">6</td><td class="n">4 ✓</td><td><span class="track"><span class="bar met" style="width: 100%"></span></span></td>`), chapterTable(t, page))
	assert.Regexp(t, regexp.MustCompile(`<td>2</td><td><a href="[^"]+02-b\.md[^"]*">B x</a></td><td class="n">4</td><td class="n"></td><td></td>`), chapterTable(t, page))
	// Days: the bar against the most added (10, the daily goal too).
	has(`<td>2026-11-26</td><td class="n">&#43;5</td><td class="n">&#43;4</td><td class="n">4</td><td><span class="track"><span class="bar" style="width: 50%"></span></span></td>`)
	has(`<td>2026-11-27</td><td class="n">&#43;10</td><td class="n">&#43;7</td><td class="n">11</td><td><span class="track"><span class="bar met" style="width: 100%"></span></span></td>`)
	assert.NotContains(t, page, "ZgotmplZ")

	// With a deadline the line ends with the quota, one sentence with
	// one full stop: "… by 1 March 2027. Counted by …", never "2027..".
	deadline, err := time.Parse(time.DateOnly, "2027-03-01")
	require.NoError(t, err)
	due := goals.Summarize(chapters, h, goals.Settings{Target: 100, Daily: 10, Deadline: deadline}, now)
	require.NotNil(t, due.Quota)
	page = string(render(t, Build(b.Store.Catalog(), snap, Options{Root: b.Root, Progress: &due})))
	assert.Contains(t, page, " · "+strings.TrimSuffix(due.Quota.Message, ".")+". Counted by quire's one rule")
	assert.NotContains(t, page, "2027..")

	empty := goals.Summarize(chapters, progress.History{}, goals.Settings{}, now)
	page = string(render(t, Build(b.Store.Catalog(), snap, Options{Root: b.Root, Progress: &empty})))
	has("No day seen yet")
}

// chapterTable is the chapter table of the progress view in page,
// so that a failed match shows it alone.
func chapterTable(t *testing.T, page string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<table id="chapter-progress"`)
	require.True(t, ok, "no chapter table in the progress view")
	table, _, _ := strings.Cut(rest, "</table>")
	return table
}
