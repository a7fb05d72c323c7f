package dialogue

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue/dialoguetest"
)

// chapterOf is text as the server gives it to attribution: its outline's
// body and code, and its names scanned.
func chapterOf(m *manuscript.Matcher, text string) Chapter {
	o := codex.OutlineOf([]byte(text))
	return Chapter{Text: text, Body: o.Body, Skip: o.Code, Mentions: m.Scan(text)}
}

// edits are what a writer does to a chapter of dialogue: a word typed,
// a name changed, a line deleted, a quotation mark or a paragraph break
// typed or deleted, a tag written.
var edits = []func(r *rand.Rand, text string) string{
	func(r *rand.Rand, t string) string { at := r.IntN(len(t)); return t[:at] + "x" + t[at:] },
	func(r *rand.Rand, t string) string { at := r.IntN(len(t)); return t[:at] + " Elizabeth " + t[at:] },
	func(r *rand.Rand, t string) string { at := r.IntN(len(t)); return t[:at] + "\"" + t[at:] },
	func(r *rand.Rand, t string) string { at := r.IntN(len(t)); return t[:at] + "\n\n" + t[at:] },
	func(r *rand.Rand, t string) string {
		at := r.IntN(len(t))
		return t[:at] + "\n\n\"Indeed,\" said she, \"I wonder.\"\n\n" + t[at:]
	},
	func(r *rand.Rand, t string) string {
		at := r.IntN(len(t))
		end := min(len(t), at+1+r.IntN(200))
		return t[:at] + t[end:]
	},
	func(r *rand.Rand, t string) string {
		// One word replaced: the name of one character by another's.
		for range 20 {
			at := r.IntN(len(t))
			if k := strings.Index(t[at:], "Jane"); k >= 0 {
				return t[:at+k] + "Lydia" + t[at+k+4:]
			}
		}
		return t
	},
	func(r *rand.Rand, t string) string {
		at := r.IntN(len(t))
		return t[:at] + "<!-- speaker: Jane -->" + t[at:]
	},
}

// TestAnalyzeAfterIsAnalyze edits a 5,000-word chapter of Pride and
// Prejudice a thousand times, each edit after the last: the analysis
// that takes unreached conversations from the version before must be
// the fresh one, utterance for utterance, and must take most of them.
func TestAnalyzeAfterIsAnalyze(t *testing.T) {
	text := dialoguetest.Stretch(dialoguetest.PrideAndPrejudice(t), 5000)
	entries := dialoguetest.Cast(t)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	r := rand.New(rand.NewPCG(1, 2))
	prev := AnalyzeAfter(nil, chapterOf(m, text), cast, Options{})
	reused, total := 0, 0
	for n := range 1000 {
		// Each run of edits starts again from the chapter now and then,
		// so that it stays a chapter of dialogue.
		if n%100 == 0 {
			text = dialoguetest.Stretch(dialoguetest.PrideAndPrejudice(t), 5000+n)
			prev = AnalyzeAfter(nil, chapterOf(m, text), cast, Options{})
		}
		k := r.IntN(len(edits))
		text = edits[k](r, text)
		ch := chapterOf(m, text)
		want := Analyze(ch, cast, Options{})
		got := AnalyzeAfter(prev, ch, cast, Options{})
		require.Equal(t, want, got.Utterances(), "edit %d (kind %d)", n, k)
		r, c := got.Reused()
		reused, total = reused+r, total+c
		prev = got
	}
	t.Logf("%d of %d conversations taken from the version before", reused, total)
	// Most edits reach one conversation or two of some forty; those
	// that change the chapter's facts reach them all.
	assert.Greater(t, reused, total/2)
}

// TestAnalyzeAfterOneWord types a word into one line: only that line's
// conversation is attributed again.
func TestAnalyzeAfterOneWord(t *testing.T) {
	text := dialoguetest.Stretch(dialoguetest.PrideAndPrejudice(t), 5000)
	entries := dialoguetest.Cast(t)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	prev := AnalyzeAfter(nil, chapterOf(m, text), cast, Options{})
	_, before := prev.Reused()
	require.Greater(t, before, 10)
	mid := prev.Utterances()[len(prev.Utterances())/2].Spans[0]
	edited := text[:mid.Start] + "Well, " + text[mid.Start:]
	got := AnalyzeAfter(prev, chapterOf(m, edited), cast, Options{})
	reused, total := got.Reused()
	assert.Equal(t, before, total)
	// Attributed again: the edited conversation, and those after it
	// whose window reaches back over the edit (the chain looks back
	// 4,000 bytes for whom a pronoun means).
	reached := 0
	for _, w := range got.windows {
		if w.Start <= mid.Start && mid.Start < w.End {
			reached++
		}
	}
	assert.Equal(t, total-reached, reused)
	assert.Less(t, reached, 4)
	assert.Greater(t, reused, 0)
	// Its speech is found again in the edited paragraph and those around
	// it whose reading reaches the edit, back to where the scan entered
	// one clean: a few of the chapter's paragraphs.
	assert.Equal(t, len(prev.found.paras), len(got.found.paras))
	assert.Less(t, got.found.scanned, 6, "of %d paragraphs", len(got.found.paras))
	assert.Positive(t, got.found.scanned)
	assert.Equal(t, Analyze(chapterOf(m, edited), cast, Options{}), got.Utterances())

	// Another cast, or other settings, start afresh.
	again := AnalyzeAfter(got, chapterOf(m, edited), NewCast(entries), Options{})
	r, _ := again.Reused()
	assert.Zero(t, r)
	again = AnalyzeAfter(got, chapterOf(m, edited), cast, Options{Quotes: QuotesDouble})
	r, _ = again.Reused()
	assert.Zero(t, r)
}

// TestAnalyzeAfterFarBack edits a chapter far before a line whose "she"
// nothing near explains: the chain gives it to whoever spoke or was
// named earlier in the chapter, beyond any conversation's window, so
// such an edit must reach it all the same. (Neither edit is inside the
// line's window, and neither changes the chapter's facts.)
func TestAnalyzeAfterFarBack(t *testing.T) {
	entries := dialoguetest.Cast(t)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	rain := strings.Repeat(strings.Repeat("The rain fell on the fields and on the lanes, and the wind rose. ", 4)+"\n\n", 40)
	text := "\"Come,\" said Jane.\n\nAfter that.\n\n" + rain + "\"Nonsense,\" said she.\n\n" + rain + "\"Yes,\" said Lydia.\n\n\"No,\" said Jane.\n"
	// Mentions as the server finds them: none inside a comment.
	chapter := func(text string) Chapter {
		ch := chapterOf(m, text)
		prose := []byte(text)
		for _, c := range manuscript.HTMLComments(text, codex.Range{End: len(text)}) {
			copy(prose[c.Start:c.End], strings.Repeat(" ", c.Len()))
		}
		ch.Mentions = m.Scan(string(prose))
		return ch
	}
	for _, tc := range []struct{ name, from, to string }{
		{"the writer names the first line's speaker", "said Jane.\n", "said Jane.\n<!-- speaker: Lydia -->\n"},
		{"the narration names a character", "After that.", "After that Mary sat down."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := AnalyzeAfter(nil, chapter(text), cast, Options{})
			edited := strings.Replace(text, tc.from, tc.to, 1)
			got := AnalyzeAfter(prev, chapter(edited), cast, Options{})
			want := Analyze(chapter(edited), cast, Options{})
			require.Equal(t, want, got.Utterances())
			require.NotEqual(t, prev.Utterances()[1], want[1], "the edit changes the far line")
		})
	}
}

// TestAnalyzeAfterReadsPastAParagraph edits the first word of a
// paragraph: the scan of the paragraph before reads it (whether quoted
// words at its end are named or spoken), so that paragraph is scanned
// again though the edit is past its end.
func TestAnalyzeAfterReadsPastAParagraph(t *testing.T) {
	entries := dialoguetest.Cast(t)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	rain := strings.Repeat("The rain fell on the fields and on the lanes, and the wind rose.\n\n", 20)
	text := rain + "She had never known \"ennui itself\"\n\nAnd then it rained.\n\n" + rain
	prev := AnalyzeAfter(nil, chapterOf(m, text), cast, Options{})
	edited := strings.Replace(text, "\n\nAnd then", "\n\nand then", 1)
	want := Analyze(chapterOf(m, edited), cast, Options{})
	require.NotEqual(t, prev.Utterances(), want, "the edit changes what the paragraph before holds")
	got := AnalyzeAfter(prev, chapterOf(m, edited), cast, Options{})
	assert.Equal(t, want, got.Utterances())
	// The paragraphs whose reading (128 bytes either side) meets the
	// edit, of these short ones.
	assert.Less(t, got.found.scanned, 8, "of %d paragraphs", len(got.found.paras))
}
