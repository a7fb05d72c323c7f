package bookmap

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
)

// outlinedSample is the sample book as a writer planning it has it: two
// acts named in quire.yaml, a chapter with a status and a synopsis, and
// scene notes giving scenes a point of view, a status and a synopsis,
// one of them written for text that has since changed (stale).
func outlinedSample(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(sampleRoot)))
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Contains(t, string(b), old, rel)
		require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
	}
	edit("quire.yaml", "title:", "outline:\n  acts:\n    - {title: The Count, from: 1}\n    - {title: The Vault, from: 4}\ntitle:")
	edit("manuscript/01-thirteen-strokes.md", "location: Harbor Tally\n",
		"location: Harbor Tally\nstatus: revised\nsynopsis: The bell strikes thirteen and Teo starts counting what the harbor owes.\n")
	edit("manuscript/01-thirteen-strokes.md", "## The Causeway at Dawn\n",
		"## The Causeway at Dawn\n\n<!-- scene\npov: Séverine Aubrac\nstatus: draft\nsynopsis: Séverine walks the causeway and finds Jory's boat \"gone\" & the rope cut.\n-->\n")
	edit("manuscript/03-slack-water.md", "## The Market Without Water\n",
		"## The Market Without Water\n\n<!-- scene\nstatus: idea\nsynopsis: Moss sells what the tide left.\nsynopsis-hash: 000000000000\n-->\n")
	edit("manuscript/04-the-vault-beneath-the-light.md", "## Thirteen, Witnessed\n",
		"## Thirteen, Witnessed\n\n<!-- scene: {status: final, day: 3} -->\n")
	return dir
}

// buildOutlined builds the map of the outlined sample with its outline:
// settings, as quire map does.
func buildOutlined(t testing.TB, opts Options) (*Map, string) {
	t.Helper()
	dir := outlinedSample(t)
	b := openBook(t, dir)
	set, problems := manuscript.ReadOutlineSettings(b.Settings)
	require.Empty(t, problems)
	opts.Root, opts.Outline = b.Root, set
	opts.Title = TitleOf(b.Settings)
	return Build(b.Store.Catalog(), b.Manuscript.Snapshot(), opts), b.Root
}

// The map holds the book's outline, built as quire outline builds it:
// the acts quire.yaml names, each chapter's card and its scenes', with
// who appears and who speaks.
func TestOutlineData(t *testing.T) {
	m, _ := buildOutlined(t, Options{})
	o := m.Outline
	require.NotNil(t, o)
	assert.Equal(t, 5, o.Chapters)
	assert.Equal(t, 10, o.Scenes)
	assert.Equal(t, 1, o.Stale)
	require.Len(t, o.Acts, 2)
	assert.Equal(t, "The Count", o.Acts[0].Title)
	assert.Len(t, o.Acts[0].Chapters, 3)
	assert.Equal(t, "The Vault", o.Acts[1].Title)

	one := o.Acts[0].Chapters[0]
	assert.Equal(t, "revised", one.Status)
	assert.Equal(t, "The bell strikes thirteen and Teo starts counting what the harbor owes.", one.Synopsis)
	causeway := one.Scenes[1]
	assert.Equal(t, "Séverine Aubrac", causeway.POV)
	assert.Equal(t, "draft", causeway.Status)
	assert.Equal(t, []string{"Séverine Aubrac", "Moss Kettering"}, causeway.Speak, "who speaks, as quire dialogue gives the lines")
	assert.Contains(t, causeway.Appear, "Jory Fenwick")
	market := o.Acts[0].Chapters[2].Scenes[1]
	assert.True(t, market.Stale)
	assert.Equal(t, "idea", market.Status)
}

// card is the markup of the outline card with the key (3, 3.2).
func card(t *testing.T, page, key string) string {
	t.Helper()
	re := regexp.MustCompile(`(?s)<li class="card (?:chapter|scene)"[^>]* data-key="` + regexp.QuoteMeta(key) + `".*?</h[45]>.*?<button type="button" class="edit"`)
	c := re.FindString(page)
	require.NotEmpty(t, c, "no card %s", key)
	return c
}

// The page's outline view: acts, chapter cards holding scene cards, a
// stale synopsis marked, filters built from the book, and on each card
// what an edit sends (the chapter's file URI, path and scene number).
func TestOutlinePage(t *testing.T) {
	m, root := buildOutlined(t, Options{})
	page := string(render(t, m))
	assert.Contains(t, page, `<a href="#outline">Outline</a>`)
	assert.Contains(t, page, `<section id="outline" aria-labelledby="h-outline" data-root="`+html.EscapeString(root)+`">`)
	assert.Contains(t, page, "5 chapters, 10 scenes, 4,188 words; 1 synopsis is")
	assert.Equal(t, []string{"The Count", "The Vault"}, findAll(`<h3 class="act-title">([^<]*)</h3>`, page))
	assert.Equal(t, 5, strings.Count(page, `<li class="card chapter"`))
	assert.Equal(t, 10, strings.Count(page, `<li class="card scene"`))

	uri := "file://" + escapePath(fileURIPath(filepath.ToSlash(root)))
	one := card(t, page, "1")
	assert.Contains(t, one, ` data-scene="0" data-uri="`+uri+`/manuscript/01-thirteen-strokes.md" data-path="manuscript/01-thirteen-strokes.md" data-status="revised"`)
	assert.Contains(t, one, `<a href="`+uri+`/manuscript/01-thirteen-strokes.md#L1">1. Thirteen Strokes</a>`)
	assert.Contains(t, one, `<span class="status">revised</span> POV Teodora Quill · day 1 · at Harbor Tally · 871 words`, "the pov by its codex name")
	assert.Contains(t, one, `<span class="text">The bell strikes thirteen and Teo starts counting what the harbor owes.</span>`)

	causeway := card(t, page, "1.2")
	assert.Contains(t, causeway, `data-ch="1" data-scene="2" data-pos="2" data-pov="Séverine Aubrac" data-status="draft" data-rank="1" data-day="1" data-words="351"`)
	assert.Contains(t, causeway, `#L44">1.2 The Causeway at Dawn</a> <span class="in">in Thirteen Strokes</span>`, "a scene opens at its heading (two lines of front matter added above it)")
	assert.Contains(t, causeway, `finds Jory&#39;s boat &#34;gone&#34; &amp; the rope cut.`)
	assert.Contains(t, causeway, `<p class="people"><span class="label">Speak:</span> Séverine Aubrac, Moss Kettering</p>`)

	// The stale mark: on the market scene's card, and nowhere else but
	// in the summary above the cards.
	market := card(t, page, "3.2")
	assert.Contains(t, market, `<span class="stale" title="The text changed after this synopsis was written">stale</span> <span class="text">Moss sells what the tide left.</span>`)
	assert.Contains(t, market, `data-rank="0"`, "idea, the book's first status")
	assert.Equal(t, 2, strings.Count(page, `class="stale"`))
	assert.Contains(t, card(t, page, "2.1"), `<p class="synopsis none">No synopsis yet.</p>`)
	assert.Contains(t, card(t, page, "2.1"), `data-status="" data-rank="4"`, "no status ranks after the book's four")

	// The filters offer what the scenes hold: points of view by codex
	// name ("Teo" is Teodora Quill), statuses in the book's order.
	assert.Equal(t, []string{"all", "Séverine Aubrac", "Teodora Quill"}, options(t, page, "outline-pov"))
	assert.Equal(t, []string{"all", "idea", "draft", "final", "none given"}, options(t, page, "outline-status"))
	assert.Contains(t, page, `<option value="=Teodora Quill">Teodora Quill</option>`)
	assert.Equal(t, []string{"place in the book", "point of view", "status", "story day", "words"}, options(t, page, "outline-sort"))
	// The edit form offers every status the book has.
	assert.Equal(t, []string{"none", "idea", "draft", "revised", "final"}, options(t, page, "edit-status"))
	assert.Contains(t, page, `<textarea id="edit-synopsis" rows="3" maxlength="4096"></textarea>`)
}

// options are the labels of the select with the id.
func options(t *testing.T, page, id string) []string {
	t.Helper()
	sel := regexp.MustCompile(`(?s)<select id="` + id + `">(.*?)</select>`).FindStringSubmatch(page)
	require.NotNil(t, sel, id)
	return findAll(`<option[^>]*>([^<]*)</option>`, sel[1])
}

func findAll(expr, s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(expr).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// A book without acts, with a long synopsis and markup in its text:
// one run of chapters and no act heading, a synopsis cut on the card but
// whole for the edit form (or, past what quire sets, marked as too long
// to edit here), and the writer's text escaped.
func TestOutlineSynopsesAndEscapes(t *testing.T) {
	long := strings.Repeat("The tide turns and the ledger lies. ", 12)
	huge := strings.Repeat("Salt. ", 800)
	root := writeBook(t, map[string]string{
		"codex/characters/eve.md": "---\nname: Eve\n---\n# Eve\n",
		"manuscript/01-a.md":      "---\ntitle: A <b>bold</b> chapter\nsynopsis: \"<script>alert(2)</script> & more\"\n---\n# A\n\nEve came.\n\n* * *\n\n<!-- scene\nsynopsis: " + long + "\n-->\n\nEve went.\n",
		"manuscript/02-b.md":      "---\nsynopsis: " + huge + "\nstatus: Polished\n---\n# B\n\nEve stayed.\n",
	})
	m, _ := buildMap(t, root, Options{})
	page := string(render(t, m))
	assert.NotContains(t, page, `class="act-title"`, "no act has a title")
	assert.NotContains(t, page, "<script>alert(2)")
	assert.NotContains(t, page, "<b>bold")
	assert.Contains(t, card(t, page, "1"), `<span class="text">&lt;script&gt;alert(2)&lt;/script&gt; &amp; more</span>`)

	scene := card(t, page, "1.2")
	shown := regexp.MustCompile(`<span class="text">([^<]*)</span>`).FindStringSubmatch(scene)
	require.NotNil(t, shown)
	assert.Equal(t, maxSynopsisShown, utf8.RuneCountInString(html.UnescapeString(shown[1])), "cut, an ellipsis last")
	assert.True(t, strings.HasSuffix(shown[1], "…"))
	assert.Contains(t, scene, ` data-full="`+html.EscapeString(strings.TrimSpace(long))+`"`)

	b := card(t, page, "2")
	assert.Contains(t, b, ` data-long=""`)
	assert.NotContains(t, b, "data-full")
	assert.Equal(t, []string{"none", "idea", "draft", "revised", "final"}, options(t, page, "edit-status"))
	assert.Contains(t, b, `data-status="Polished"`, "a status the book does not know is kept as written")
}

// A series of 800 chapters draws every chapter's card and, up to
// MaxScenes, its scenes', saying where it stops; the page stays about a
// kilobyte a scene.
func TestOutlineSeriesBounds(t *testing.T) {
	dir := t.TempDir()
	_, err := corpus.Generate(context.Background(), dir, corpus.Options{Entries: 120, Chapters: 800, ChapterWords: 500, Seed: 3, Outline: true})
	require.NoError(t, err)
	m, _ := buildMap(t, dir, Options{MaxScenes: 1000})
	o := m.Outline
	require.Equal(t, 800, o.Chapters)
	require.Greater(t, o.Scenes, 1000)
	v := m.outlineView()
	assert.Equal(t, 1000, v.Drawn)
	assert.Equal(t, []string{"idea", "draft", "revised", "final"}, v.Statuses)

	page := string(render(t, m))
	section := page[strings.Index(page, `<section id="outline"`):]
	section = section[:strings.Index(section, "</section>")]
	assert.Equal(t, 800, strings.Count(section, `<li class="card chapter"`))
	assert.Equal(t, 1000, strings.Count(section, `<li class="card scene"`))
	assert.Contains(t, section, "To stay readable the map draws the first 1000 scenes; <code>quire outline</code> lists every one.")
	last := card(t, section, "800")
	assert.Regexp(t, `<p class="note">\d+ more scenes? not drawn here\.</p>`, section[strings.Index(section, last):])
	assert.Less(t, len(section), 800*1200+1000*1500, "about a kilobyte a card")
}
