package bookmap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/dialogue"
)

// The sample book's Spoken view counts what quire dialogue and quire
// stats count: each chapter's words spoken and share of dialogue, and
// each character's words per chapter, their best-guess lines with them
// and the certain ones apart.
func TestSampleSpoken(t *testing.T) {
	m, b := buildMap(t, sampleRoot, Options{})
	snap := b.Manuscript.Snapshot()
	units := snap.Units()
	spoken := dialogue.SpokenWords(units, dialogue.Options{})
	require.Len(t, m.Chapters, len(spoken))
	total, words := 0, 0
	for i, ch := range m.Chapters {
		assert.Equal(t, spoken[i], ch.SpokenWords, ch.Title)
		assert.Positive(t, ch.SpokenWords, "every chapter of the sample has dialogue")
		assert.InDelta(t, dialogue.Share(spoken[i], ch.Words), ch.DialogueShare, 1e-9, ch.Title)
		total += ch.SpokenWords
		words += ch.Words
	}
	assert.InDelta(t, float64(total)/float64(words), m.BookShare(), 1e-9)

	// Every line counts once, for its speaker or its best guess.
	type cell struct{ words, certain int }
	want := map[string]map[int]cell{}
	for col, cd := range dialogue.NewBook(snap, b.Store.Catalog(), dialogue.Options{}).Chapters() {
		for _, u := range cd.Utterances {
			id := u.Best()
			if id == "" {
				continue
			}
			if want[id] == nil {
				want[id] = map[int]cell{}
			}
			c := want[id][col]
			c.words += u.Words
			if !u.Uncertain {
				c.certain += u.Words
			}
			want[id][col] = c
		}
	}
	require.Len(t, m.Speakers, len(want))
	for _, s := range m.Speakers {
		got := map[int]cell{}
		sum := 0
		for _, c := range s.Cells {
			got[c.Chapter] = cell{c.Words, c.CertainWords}
			sum += c.Words
			assert.LessOrEqual(t, c.CertainLines, c.Lines)
		}
		assert.Equal(t, want[s.ID], got, s.Name)
		assert.Equal(t, sum, s.Words, s.Name)
	}
	// In order of their first line: Moss speaks first, in chapter 1.
	assert.Equal(t, "Moss Kettering", m.Speakers[0].Name)
	moss := m.Speakers[0]
	assert.Equal(t, [3]int{0, 14, 1}, [3]int{moss.Cells[0].Chapter, moss.Cells[0].Line, moss.Cells[0].Column}, "at his first line")
	for i := 1; i < len(m.Speakers); i++ {
		a, b := m.Speakers[i-1].Cells[0], m.Speakers[i].Cells[0]
		assert.True(t, a.Chapter < b.Chapter || a.Chapter == b.Chapter && a.Line <= b.Line)
	}

	page := string(render(t, m))
	for _, s := range []string{
		`<a href="#spoken">Spoken</a>`, `<h2 id="h-spoken">Spoken</h2>`, `<table id="spoken-heatmap" class="heatmap">`,
		`<th scope="row" class="name">Share of the chapter</th><td></td><td class="total">24%</td><td title="1. Thirteen Strokes: 87 of 880 words are dialogue">10%</td>`,
		"· 24% dialogue</p>", `<span class="share">· 46% dialogue</span>`, `title="3. Slack Water · 46% dialogue"`,
		`<th scope="row" class="name t-character" title="Moss Kettering: 193 words in 22 lines, 40 of them certain">Moss Kettering</th><td class="type">22</td><td class="total">193</td>`,
		`title="Moss Kettering in 1. Thirteen Strokes: 56 words in 6 lines, 23 of them certain"><a href="file://`,
		"quire's best guess",
	} {
		assert.Contains(t, page, s)
	}
	assert.Equal(t, len(m.Speakers), strings.Count(page, `<tr class="speaker"`))
	// Teodora's lines are all guesses: her numbers are in italics.
	assert.Regexp(t, `<td class="h\d guess" title="Teodora Quill in 1\. Thirteen Strokes: 15 words in 2 lines, 0 of them certain">`, page)
	assert.NotContains(t, page, "No speaker found", "every line of the sample has a guess at least")
}

// The book's dialogue: setting says which marks are speech; a line
// with no one to guess is counted as such; past MaxRows, the characters
// who speak least are summed in one row.
func TestSpokenSettingsUnknownAndBounds(t *testing.T) {
	root := writeBook(t, map[string]string{
		"codex/characters/ana.md": "---\nname: Ana Brisk\naliases: [Ana]\n---\n# Ana Brisk\n",
		"codex/characters/ben.md": "---\nname: Ben Hale\naliases: [Ben]\n---\n# Ben Hale\n",
		"manuscript/01-storm.md":  "# Storm\n\n\"Hold the line,\" said Ana.\n\n\"I have it,\" said Ben.\n\n\"Both hands, Ben, both,\" said Ana.\n",
		"manuscript/02-dark.md":   "# Dark\n\n\"Who is there?\"\n\nNo one answered.\n",
	})
	m, _ := buildMap(t, root, Options{})
	require.Len(t, m.Speakers, 2)
	assert.Equal(t, []string{"Ana Brisk", "Ben Hale"}, []string{m.Speakers[0].Name, m.Speakers[1].Name})
	assert.Equal(t, 7, m.Speakers[0].Words)
	assert.Equal(t, 3, m.Chapters[1].UnattributedWords)
	assert.Equal(t, 3, m.Chapters[1].SpokenWords)
	page := string(render(t, m))
	assert.Contains(t, page, `<tr class="rest"><th scope="row" class="name">No speaker found</th><td class="type"></td><td class="total">3</td><td></td><td class="h1">3</td></tr>`)

	one, _ := buildMap(t, root, Options{MaxRows: 1})
	page = string(render(t, one))
	assert.Equal(t, 1, strings.Count(page, `<tr class="speaker"`))
	assert.Contains(t, page, `<tr class="speaker" data-name="ana brisk">`, "the one who speaks most")
	assert.Contains(t, page, `<th scope="row" class="name">Other characters (1)</th><td class="type">1</td><td class="total">3</td>`)
	assert.Contains(t, page, "2 characters speak: the 1 who speak most have a row each")

	dash, _ := buildMap(t, root, Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesDash}})
	assert.Empty(t, dash.Speakers)
	assert.Zero(t, dash.BookShare())
	page = string(render(t, dash))
	assert.Contains(t, page, "No line of dialogue is given to a character yet.")
	assert.Contains(t, page, "· 0% dialogue")
}
