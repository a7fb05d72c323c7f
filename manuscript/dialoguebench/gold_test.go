package dialoguebench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// quotes makes the quotations of a test book: each is a speaker and the
// words of its parts, found in order in the text.
func quotes(t *testing.T, text string, qs ...[]string) []Quote {
	t.Helper()
	var out []Quote
	from := 0
	for i, q := range qs {
		quote := Quote{ID: "Q" + string(rune('1'+i)), Speaker: q[0]}
		for _, w := range q[1:] {
			s := span(t, text[from:], w)
			quote.Spans = append(quote.Spans, rng(from+s.Start, from+s.End))
			from += s.End
		}
		out = append(out, quote)
	}
	return out
}

func words(text string, g Gold) []string {
	var out []string
	for _, s := range g.Spans {
		out = append(out, text[s.Start:s.End])
	}
	return out
}

func TestReadingPDNC(t *testing.T) {
	cast := []Character{{ID: "k", Name: "Mr. Knightley"}, {ID: "e", Name: "Emma"}}
	for _, tc := range []struct {
		name   string
		text   string
		quotes [][]string
		want   [][]string
		stats  GoldStats
	}{{
		name:   "a nested quotation PDNC cuts out is filled in",
		text:   `"Poor Mr. and Miss Woodhouse; but I cannot possibly say 'poor Miss Taylor.' I have a great regard for you," said Mr. Knightley.`,
		quotes: [][]string{{"k", "Poor Mr. and Miss Woodhouse; but I cannot possibly say"}, {"k", "I have a great regard for you,"}},
		want:   [][]string{{"Poor Mr. and Miss Woodhouse; but I cannot possibly say 'poor Miss Taylor.' I have a great regard for you,"}},
		stats:  GoldStats{Quotes: 2, Utterances: 1, Nested: 1, Filled: 1},
	}, {
		name:   "a parenthesis inside a quotation's parts is filled in",
		text:   `"I do not know, (smiling,) but I hope it may be allowed," said Emma.`,
		quotes: [][]string{{"e", "I do not know,", "but I hope it may be allowed,"}},
		want:   [][]string{{"I do not know, (smiling,) but I hope it may be allowed,"}},
		stats:  GoldStats{Quotes: 1, Utterances: 1, Filled: 1},
	}, {
		name:   "a tag between a quotation's parts stays out",
		text:   `"I cannot," said Emma, "agree."`,
		quotes: [][]string{{"e", "I cannot,", "agree."}},
		want:   [][]string{{"I cannot,", "agree."}},
		stats:  GoldStats{Quotes: 1, Utterances: 1},
	}, {
		name:   "PDNC's judgement that narration parts two quotations is kept",
		text:   `"I cannot," said Emma. She rose and walked to the window. "I will not."`,
		quotes: [][]string{{"e", "I cannot,"}, {"e", "I will not."}},
		want:   [][]string{{"I cannot,"}, {"I will not."}},
		stats:  GoldStats{Quotes: 2, Utterances: 2},
	}, {
		name:   "speech that runs on into the next paragraph is one utterance",
		text:   "\"It was a long story, my dear.\n\n\"And a sad one.\"\n\n\"Indeed,\" said Emma.",
		quotes: [][]string{{"k", "It was a long story, my dear."}, {"k", "And a sad one."}, {"e", "Indeed,"}},
		want:   [][]string{{"It was a long story, my dear.", "And a sad one."}, {"Indeed,"}},
		stats:  GoldStats{Quotes: 3, Utterances: 2, Paragraphs: 1},
	}, {
		name:   "a quotation over a paragraph that closes its speech is cut",
		text:   "\"No,\" he said.\n\nShe waited.\n\n\"I will not.\"",
		quotes: [][]string{{"k", "No,", "I will not."}},
		want:   [][]string{{"No,"}, {"I will not."}},
		stats:  GoldStats{Quotes: 1, Utterances: 2, Split: 1},
	}, {
		name:   "speech that opens with a nested quotation is moved out to its mark",
		text:   `"Very true. 'Woman, lovely woman.' It is such a pretty charade, my dear."`,
		quotes: [][]string{{"k", "Very true."}, {"k", "It is such a pretty charade, my dear."}},
		want:   [][]string{{"Very true. 'Woman, lovely woman.' It is such a pretty charade, my dear."}},
		stats:  GoldStats{Quotes: 2, Utterances: 1, Nested: 1, Filled: 1},
	}, {
		name:   "and one that only opens with it",
		text:   `"'Woman, lovely woman.' It is such a pretty charade, my dear."`,
		quotes: [][]string{{"k", "It is such a pretty charade, my dear."}},
		want:   [][]string{{"'Woman, lovely woman.' It is such a pretty charade, my dear."}},
		stats:  GoldStats{Quotes: 1, Utterances: 1, Extended: 1},
	}, {
		name:   "two speakers are never joined",
		text:   `"Yes," said Emma; "No," said Mr. Knightley.`,
		quotes: [][]string{{"e", "Yes,"}, {"k", "No,"}},
		want:   [][]string{{"Yes,"}, {"No,"}},
		stats:  GoldStats{Quotes: 2, Utterances: 2},
	}} {
		b := Book{Text: tc.text, Characters: cast, Quotes: quotes(t, tc.text, tc.quotes...)}
		gold, st := Reading(b)
		var got [][]string
		for _, g := range gold {
			got = append(got, words(tc.text, g))
		}
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.stats, st, tc.name)
	}
}

func TestReadingLitBank(t *testing.T) {
	cast := []Character{{ID: "e", Name: "Emma"}, {ID: "b", Name: "Buck Mulligan"}}
	for _, tc := range []struct {
		name   string
		text   string
		quotes [][]string
		want   [][]string
	}{{
		name:   "speech a tag interrupts is one utterance",
		text:   `“I cannot,” said Emma, looking up, “agree.”`,
		quotes: [][]string{{"e", "I cannot,"}, {"e", "agree."}},
		want:   [][]string{{"I cannot,", "agree."}},
	}, {
		name:   "a tag that ends its sentence too",
		text:   `"I cannot," said Mr. Knightley to Emma. "I will not."`,
		quotes: [][]string{{"e", "I cannot,"}, {"e", "I will not."}},
		want:   [][]string{{"I cannot,", "I will not."}},
	}, {
		name:   "narration of more than one sentence parts two utterances",
		text:   `"I cannot," said Emma. She rose. "I will not."`,
		quotes: [][]string{{"e", "I cannot,"}, {"e", "I will not."}},
		want:   [][]string{{"I cannot,"}, {"I will not."}},
	}, {
		name:   "single marks",
		text:   `‘I cannot,’ said Emma, ‘agree; the Bennets’ way is not mine.’`,
		quotes: [][]string{{"e", "I cannot,"}, {"e", "agree; the Bennets’ way is not mine."}},
		want:   [][]string{{"I cannot,", "agree; the Bennets’ way is not mine."}},
	}, {
		name:   "dashes: the tag between stays out",
		text:   "—Thanks, old chap, he cried briskly. That will do nicely.\n\n—Yes.",
		quotes: [][]string{{"b", "Thanks, old chap,"}, {"b", "That will do nicely."}, {"e", "Yes."}},
		want:   [][]string{{"Thanks, old chap,", "That will do nicely."}, {"Yes."}},
	}} {
		b := Book{Text: tc.text, Characters: cast, Quotes: quotes(t, tc.text, tc.quotes...), SplitAtTags: true}
		gold, _ := Reading(b)
		var got [][]string
		for _, g := range gold {
			got = append(got, words(tc.text, g))
		}
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestReadingSpeakersAndTypes(t *testing.T) {
	text := `"I cannot," said Emma, "agree." "Nor I." "Who?"`
	b := Book{
		Text:       text,
		Characters: []Character{{ID: "e", Name: "Emma"}},
		Quotes:     quotes(t, text, []string{"e", "I cannot,"}, []string{"e", "agree."}, []string{"Harriet", "Nor I."}, []string{"e", "Who?"}),
	}
	b.Quotes[0].Type, b.Quotes[1].Type, b.Quotes[3].Type = Implicit, Explicit, Anaphoric
	b.SplitAtTags = true
	gold, _ := Reading(b)
	require.Len(t, gold, 3)
	assert.Equal(t, Explicit, gold[0].Type, "the strongest type of the quotations joined")
	assert.Equal(t, []string{"Q1", "Q2"}, gold[0].Quotes)
	assert.Equal(t, "e", gold[0].Speaker)
	assert.Equal(t, "", gold[1].Speaker, "Harriet is not in the codex")
	assert.Equal(t, "Harriet", gold[1].Named)
	assert.Equal(t, "e", gold[2].Speaker)
	raw := RawReading(b)
	assert.Len(t, raw, 4)
}

func TestTagBetween(t *testing.T) {
	for gap, want := range map[string]bool{
		`," said Emma, "`:                           true,
		`," said Mr. Knightley, laughing, "`:        true,
		`," said Mr. Woodhouse, with a sigh. "`:     true,
		`!" he persisted. "`:                        true,
		`," said Emma. She rose. "`:                 false,
		`," she said--and turning to Harriet, "`:    false,
		`" `:                                        false,
		"”\n said Emma, “":                          true,
		`," he said; then, after a pause: "Well. "`: false,
	} {
		assert.Equal(t, want, tagBetween(gap), gap)
	}
}

func TestParagraphBreak(t *testing.T) {
	assert.True(t, paragraphBreak("a\n\nb"))
	assert.True(t, paragraphBreak("a\n   \nb"))
	assert.False(t, paragraphBreak("a\nb"))
	assert.False(t, paragraphBreak("a b"))
	assert.True(t, runsOn("\n\n\""))
	assert.True(t, runsOn("  \n\n“"))
	assert.False(t, runsOn("\"\n\n\""), "the paragraph closed its speech")
	assert.False(t, runsOn("\n\nHe said. \""))
	assert.False(t, runsOn(" \""))
}

func TestUnion(t *testing.T) {
	got := union([]codex.Range{rng(10, 20), rng(0, 5), rng(4, 8), rng(20, 25), rng(30, 30)})
	assert.Equal(t, []codex.Range{rng(0, 8), rng(10, 25)}, got)
	assert.Equal(t, 23, coverLen(got))
	assert.Equal(t, 7, overlap([]codex.Range{rng(0, 8), rng(10, 25)}, []codex.Range{rng(5, 12), rng(20, 22)}))
}
