package bookmap

import (
	"bytes"
	"cmp"
	"context"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/manuscript/outline"
)

// The map as a writer sees it: Debian's chromium renders the page of the
// sample book (and of the sample with an outline, its outline view
// filtered, sorted and edited) and of a 1,000-entry corpus, the test
// reads the DOM after the page's script ran, and the screenshots
// (map-sample-outline.png, map-sample-outline-edit.png among them) stay
// in QUIRE_ARTEFACTS
// (a temporary folder when unset). With QUIRE_REQUIRE_CHROMIUM=1 a
// missing chromium fails the test.

// browser is a headless chromium.
type browser struct {
	bin, profile string
}

func newBrowser(t *testing.T) browser {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if bin, err := exec.LookPath(name); err == nil {
			return browser{bin: bin, profile: t.TempDir()}
		}
	}
	// make test requires it (QUIRE_REQUIRE_CHROMIUM=1): there a missing
	// chromium fails, as a missing editor does.
	editortest.Unavailable(t, "QUIRE_REQUIRE_CHROMIUM", "chromium is not on PATH; install Debian's chromium")
	return browser{}
}

func (b browser) run(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--hide-scrollbars", "--user-data-dir=" + b.profile}, args...)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "chromium: %s", lastLines(stderr.String(), 10))
	return stdout.Bytes()
}

// dom is the page at pageURL as chromium holds it once loaded.
func (b browser) dom(t *testing.T, pageURL string) string {
	t.Helper()
	return string(b.run(t, "--dump-dom", pageURL))
}

// screenshot saves the page at pageURL as a PNG of the given size.
func (b browser) screenshot(t *testing.T, pageURL, png string, width, height int) {
	t.Helper()
	b.run(t, "--screenshot="+png, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), pageURL)
	info, err := os.Stat(png)
	require.NoError(t, err)
	assert.Greater(t, info.Size(), int64(10_000), "a screenshot of a drawn page")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// artefacts is where screenshots are kept.
func artefacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("QUIRE_ARTEFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// writePage writes m's page to a file of the test's and returns its URL.
func writePage(t *testing.T, m *Map, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	_, err := m.WriteFile(path)
	require.NoError(t, err)
	return fileURL(path)
}

// fileURL is the file:// URL of the file at path.
func fileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // file:///C:/…
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

var (
	rowRE  = regexp.MustCompile(`(?s)<tr data-first="\d+"[^>]*>(.*?)</tr>`)
	nameRE = regexp.MustCompile(`<th scope="row" class="name[^"]*">([^<]*)</th>`)
	cellRE = regexp.MustCompile(`<td class="h\d"><a href="([^"]*)">(\d+)</a></td>`)
	// The Spoken view's rows, its cells (their title before the link)
	// and the row of shares.
	spokenRE     = regexp.MustCompile(`(?s)<tr class="speaker"[^>]*><th scope="row" class="name t-character"[^>]*>([^<]*)</th>(.*?)</tr>`)
	spokenCellRE = regexp.MustCompile(`<td class="h\d( guess)?" title="[^"]*"><a href="[^"]*">\d+</a></td>`)
	shareRE      = regexp.MustCompile(`(?s)<tr class="share">.*?</tr>`)
	percentRE    = regexp.MustCompile(`<td[^>]*>(<?\d+%)</td>`)
)

// domRow is one heatmap row as chromium shows it.
type domRow struct {
	name   string
	hidden bool
	cells  map[string]string // link → count
}

func domRows(dom string) []domRow {
	var out []domRow
	for _, m := range rowRE.FindAllStringSubmatch(dom, -1) {
		r := domRow{cells: map[string]string{}, hidden: strings.Contains(strings.SplitN(m[0], ">", 2)[0], " hidden")}
		if n := nameRE.FindStringSubmatch(m[1]); n != nil {
			r.name = n[1]
		}
		for _, c := range cellRE.FindAllStringSubmatch(m[1], -1) {
			r.cells[c[1]] = c[2]
		}
		out = append(out, r)
	}
	return out
}

func TestChromiumSampleMap(t *testing.T) {
	b := newBrowser(t)
	out := artefacts(t)
	m, book := buildMap(t, sampleRoot, Options{})
	page := writePage(t, m, "sample-map.html")

	dom := b.dom(t, page)
	// The script ran: it counts the rows it shows.
	assert.Contains(t, dom, `23 of 23 rows`)
	rows := domRows(dom)
	require.Len(t, rows, 23)
	cells := 0
	for i, e := range m.Entries {
		assert.Equal(t, e.Name, rows[i].name, "rows in order of first appearance")
		assert.Len(t, rows[i].cells, e.Chapters, e.Name)
		cells += len(rows[i].cells)
	}
	assert.Equal(t, 69, cells, "one linked cell per entry and chapter that mentions it")

	// Ebba Strand: once in chapter 1 (line 14), 8 times in chapter 3
	// (her given name alone, "Ebba smiled", among them).
	root := filepath.ToSlash(book.Root)
	var ebba domRow
	for _, r := range rows {
		if r.name == "Ebba Strand" {
			ebba = r
		}
	}
	assert.Equal(t, "1", ebba.cells["file://"+root+"/manuscript/01-thirteen-strokes.md#L14"])
	e, _ := m.Entry("codex/characters/ebba-strand.md")
	third := e.Cells[1]
	assert.Equal(t, "8", ebba.cells["file://"+root+"/manuscript/03-slack-water.md#L"+strconv.Itoa(third.Line)])

	// The timeline: five chapters over three days, by Teodora's eyes.
	assert.Equal(t, 5, strings.Count(dom, `class="chapter"`))
	for _, d := range []string{"Day 1", "Day 2", "Day 3"} {
		assert.Contains(t, dom, d)
	}
	assert.Contains(t, dom, "POV Teodora Quill")
	assert.Contains(t, dom, "at Skerry Vault")

	// The graph: 26 entries, the links among them.
	assert.Equal(t, 26, strings.Count(dom, `<g class="node t-`))
	links := 0
	for _, e := range m.Graph.Edges {
		if e.Link {
			links++
		}
	}
	assert.Equal(t, links, strings.Count(dom, `class="link"`))
	assert.Positive(t, links)

	// Sorted by total and filtered to characters, from the address.
	rows = domRows(b.dom(t, page+"?sort=total&type=character"))
	var shown []string
	for _, r := range rows {
		if !r.hidden {
			shown = append(shown, r.name)
		}
	}
	assert.Equal(t, []string{"Teodora Quill", "Moss Kettering", "Ebba Strand", "Séverine Aubrac", "Jory Fenwick", "Lisle Varga", "Bettany Crewe"}, shown)
	rows = domRows(b.dom(t, page+"?tag=antagonist"))
	shown = nil
	for _, r := range rows {
		if !r.hidden {
			shown = append(shown, r.name)
		}
	}
	assert.Contains(t, shown, "Ebba Strand")
	assert.NotContains(t, shown, "Teodora Quill")

	// The Spoken view: a row per character who speaks, each number the
	// words they speak in a chapter and a link to their first line there;
	// its first row the share of each chapter that is dialogue.
	dom = b.dom(t, page+"?view=spoken")
	spoken := spokenRE.FindAllStringSubmatch(dom, -1)
	require.Len(t, spoken, len(m.Speakers))
	for i, s := range m.Speakers {
		assert.Equal(t, s.Name, spoken[i][1], "rows in order of first line")
		assert.Equal(t, len(s.Cells), len(spokenCellRE.FindAllString(spoken[i][2], -1)), s.Name)
	}
	assert.Contains(t, spoken[0][0], `<a href="file://`+root+`/manuscript/01-thirteen-strokes.md#L14">56</a>`, "Moss's first line")
	row := shareRE.FindString(dom)
	require.NotEmpty(t, row)
	var shares []string
	for _, c := range percentRE.FindAllStringSubmatch(row, -1) {
		shares = append(shares, c[1])
	}
	assert.Equal(t, []string{"24%", "10%", "29%", "46%", "21%", "15%"}, shares, "the book's, then each chapter's")
	assert.True(t, strings.Contains(dom, `<section id="appearances" aria-labelledby="h-appearances" hidden=""`), "?view=spoken shows the Spoken view alone")

	b.screenshot(t, page, filepath.Join(out, "map-sample.png"), 1400, 2600)
	b.screenshot(t, page+"?view=spoken", filepath.Join(out, "map-sample-spoken.png"), 1200, 520)
	b.screenshot(t, page+"?view=timeline", filepath.Join(out, "map-sample-timeline.png"), 1200, 700)
	t.Logf("screenshots in %s", out)
}

func TestChromiumCorpusMap(t *testing.T) {
	b := newBrowser(t)
	out := artefacts(t)
	m, _ := buildMap(t, genCorpus(t, 1000, 30), Options{})
	page := writePage(t, m, "corpus-map.html")

	dom := b.dom(t, page)
	rows := domRows(dom)
	require.Len(t, rows, min(len(m.Entries), DefaultMaxRows))
	assert.Contains(t, dom, strconv.Itoa(len(rows))+" of "+strconv.Itoa(len(rows))+" rows")
	if len(m.Entries) > DefaultMaxRows {
		assert.Contains(t, dom, "gives a row each to the 200 mentioned most")
		assert.Contains(t, dom, `<tr class="rest">`)
	}
	// Each shown row links each chapter that mentions it.
	byName := map[string]Entry{}
	for _, e := range m.Entries {
		byName[e.Name] = e
	}
	for _, r := range rows[:20] {
		assert.Len(t, r.cells, byName[r.name].Chapters, r.name)
	}
	assert.Equal(t, DefaultMaxNodes, strings.Count(dom, `<g class="node t-`))
	assert.Contains(t, dom, "the graph shows the 60 mentioned most")

	b.screenshot(t, page, filepath.Join(out, "map-corpus-1k.png"), 1400, 2000)
	b.screenshot(t, page+"?view=relationships", filepath.Join(out, "map-corpus-1k-graph.png"), 1400, 1400)
	t.Logf("screenshots in %s", out)
}

// writePageWith writes m's page with script run after the page's own,
// as a writer's clicks would: chromium's command line loads a page but
// cannot click in it.
func writePageWith(t *testing.T, m *Map, name, script string) string {
	t.Helper()
	page := string(render(t, m))
	i := strings.LastIndex(page, "</body>")
	require.GreaterOrEqual(t, i, 0)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(page[:i]+"<script>"+script+"</script>"+page[i:]), 0o644))
	return fileURL(path)
}

var (
	flatRE     = regexp.MustCompile(`(?s)<ol id="outline-flat"[^>]*>(.*?)</ol>`)
	sceneRE    = regexp.MustCompile(`<li class="card scene[^"]*" data-key="([^"]+)"[^>]*>`)
	commandRE  = regexp.MustCompile(`<code id="edit-command">([^<]*)</code>`)
	outCountRE = regexp.MustCompile(`<output id="outline-count"[^>]*>([^<]*)</output>`)
)

// scenesShown are the keys (3.2) of the scene cards chromium shows, in
// the order it shows them: in the flat list when it is shown, else in
// their chapters.
func scenesShown(t *testing.T, dom string) []string {
	t.Helper()
	part := dom
	if f := flatRE.FindStringSubmatch(dom); f != nil && strings.TrimSpace(f[1]) != "" {
		require.NotContains(t, strings.SplitN(f[0], ">", 2)[0], "hidden", "the flat list is shown while it holds the scenes")
		part = f[1]
	}
	var keys []string
	for _, m := range sceneRE.FindAllStringSubmatch(part, -1) {
		if !strings.Contains(m[0], ` hidden`) {
			keys = append(keys, m[1])
		}
	}
	return keys
}

// outlineOrder is the keys of the scenes of m's outline from the point
// of view pov, sorted by order and then by their place in the book, as
// the page sorts them.
func outlineOrder(m *Map, pov string, order func(a, b outline.Scene) int) []string {
	type keyed struct {
		key string
		s   outline.Scene
	}
	var scenes []keyed
	for _, a := range m.Outline.Acts {
		for _, ch := range a.Chapters {
			for _, s := range ch.Scenes {
				if m.codexName(s.POV) == pov {
					scenes = append(scenes, keyed{strconv.Itoa(ch.Position) + "." + strconv.Itoa(s.Number), s})
				}
			}
		}
	}
	slices.SortStableFunc(scenes, func(a, b keyed) int { return order(a.s, b.s) })
	keys := make([]string, len(scenes))
	for i, s := range scenes {
		keys[i] = s.key
	}
	return keys
}

// The outline view as a writer uses it, in chromium: filtered and sorted
// from the address and by the controls, a scene's edit form filled in
// and, in a browser, the quire outline set command it shows; in a host
// (the VS Code panel) the request it hands over, and the answer shown.
func TestChromiumOutline(t *testing.T) {
	b := newBrowser(t)
	out := artefacts(t)
	m, root := buildOutlined(t, Options{})
	page := writePage(t, m, "outline-map.html")

	dom := b.dom(t, page+"?view=outline")
	assert.Equal(t, "10 of 10 scenes", outCountRE.FindStringSubmatch(dom)[1])
	assert.Equal(t, []string{"1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2", "5.1", "5.2"}, scenesShown(t, dom))
	assert.Contains(t, dom, `<section id="appearances" aria-labelledby="h-appearances" hidden=""`, "?view=outline shows the outline alone")

	// From the address: Teodora Quill's scenes, by words, most first.
	dom = b.dom(t, page+"?view=outline&pov=Teodora+Quill&outline-sort=words")
	assert.Equal(t, "9 of 10 scenes", outCountRE.FindStringSubmatch(dom)[1])
	assert.Equal(t, outlineOrder(m, "Teodora Quill", func(a, b outline.Scene) int { return cmp.Compare(b.Words, a.Words) }), scenesShown(t, dom))
	assert.Equal(t, []string{"1.1", "5.1", "3.1", "4.1", "2.1", "2.2", "5.2", "4.2", "3.2"}, scenesShown(t, dom))
	// Only the draft scenes, in their chapters: a chapter left with none
	// is hidden.
	dom = b.dom(t, page+"?view=outline&status=draft")
	assert.Equal(t, []string{"1.2"}, scenesShown(t, dom))
	assert.Regexp(t, `<li class="card chapter" id="outline-ch-2"[^>]* hidden=""`, dom)
	assert.NotRegexp(t, `<li class="card chapter" id="outline-ch-1"[^>]* hidden=""`, dom)

	// By the controls: Teodora Quill's scenes by story day; the market
	// scene's form filled in and sent: a browser shows the command.
	edit := `(function () {
  function set(id, v) { var el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); }
  set("outline-pov", "=Teodora Quill");
  set("outline-sort", "day");
  document.querySelector('li.card[data-key="3.2"] > button.edit').click();
  var s = document.getElementById("edit-synopsis");
  s.value = "Moss sells what the tide left,\n and Ebba's \"price\" is a name.";
  s.dispatchEvent(new Event("input"));
  set("edit-status", "draft");
  document.getElementById("edit-submit").click();
})();`
	edited := writePageWith(t, m, "outline-edit.html", edit)
	dom = b.dom(t, edited+"?view=outline")
	assert.Equal(t, "9 of 10 scenes", outCountRE.FindStringSubmatch(dom)[1])
	assert.Equal(t, outlineOrder(m, "Teodora Quill", func(a, b outline.Scene) int { return cmp.Compare(a.Day, b.Day) }), scenesShown(t, dom))
	assert.Equal(t, []string{"1.1", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2", "5.1", "5.2"}, scenesShown(t, dom), "by day, then place: 4.2's note puts it on day 3")
	cmd := commandRE.FindStringSubmatch(dom)
	require.NotNil(t, cmd, "the form shows the command")
	assert.Equal(t, `quire outline set --project `+root+` manuscript/03-slack-water.md --scene 2 --synopsis 'Moss sells what the tide left, and Ebba'\''s "price" is a name.' --status draft`,
		html.UnescapeString(cmd[1]))
	assert.Contains(t, dom, `<button type="submit" id="edit-submit">Show the command</button>`)
	assert.Regexp(t, `<li class="card scene editing" data-key="3.2"`, dom, "the form is in the card it edits")

	b.screenshot(t, page+"?view=outline", filepath.Join(out, "map-sample-outline.png"), 1200, 1500)
	b.screenshot(t, edited+"?view=outline", filepath.Join(out, "map-sample-outline-edit.png"), 1200, 1100)

	// In a host: a form sent unchanged changes nothing; the chapter's
	// status alone is handed over (its synopsis unchanged is not sent,
	// which would mark it current), and the host's answer is shown.
	hosted := `(function () {
  window.quireMapHost = { setOutline: function (r) { document.body.setAttribute("data-sent", JSON.stringify(r)); } };
  document.querySelector('li.card[data-key="2.1"] > button.edit').click();
  document.getElementById("edit-submit").click();
  document.body.setAttribute("data-unchanged", document.getElementById("edit-result").textContent);
  document.querySelector('li.card[data-key="1"] > button.edit').click();
  document.getElementById("edit-status").value = "final";
  document.getElementById("edit-submit").click();
  document.body.setAttribute("data-sending", document.getElementById("edit-result").textContent);
  window.dispatchEvent(new MessageEvent("message", { data: { type: "outlineResult", applied: true, message: "Set the status of the chapter Thirteen Strokes: review and save." } }));
})();`
	dom = b.dom(t, writePageWith(t, m, "outline-host.html", hosted)+"?view=outline")
	attr := func(name string) string {
		t.Helper()
		a := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(dom)
		require.NotNil(t, a, name)
		return html.UnescapeString(a[1])
	}
	assert.Equal(t, "Nothing changed.", attr("data-unchanged"))
	assert.Equal(t, "Sent to your editor: review the change there, then save.", attr("data-sending"))
	uri := "file://" + escapePath(fileURIPath(filepath.ToSlash(root))) + "/manuscript/01-thirteen-strokes.md"
	assert.JSONEq(t, `{"uri": "`+uri+`", "scene": 0, "status": "final"}`, attr("data-sent"))
	assert.Contains(t, dom, `<div id="edit-result" aria-live="polite"><p class="said">Set the status of the chapter Thirteen Strokes: review and save.</p></div>`)
	assert.Contains(t, dom, `<button type="submit" id="edit-submit">Send to the editor</button>`)
	t.Logf("screenshots in %s", out)
}
