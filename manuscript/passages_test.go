package manuscript_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// para is a paragraph as a test states it: its text and heading.
type para struct {
	text    string
	heading string
}

func paragraphsOf(t *testing.T, text string) []para {
	t.Helper()
	u := manuscript.NewUnit("manuscript/01-test.md", text, 0)
	var out []para
	for _, p := range manuscript.Paragraphs(u) {
		checkParagraphRange(t, u, p)
		out = append(out, para{p.Text, p.Heading})
	}
	return out
}

// checkParagraphRange asserts what every paragraph promises: a trimmed
// range inside the body, on rune boundaries, whose text is the paragraph's
// unless a comment was cut out of it.
func checkParagraphRange(t *testing.T, u *manuscript.Unit, p manuscript.Paragraph) {
	t.Helper()
	r := p.Range
	require.True(t, u.Body.Start <= r.Start && r.Start < r.End && r.End <= len(u.Text), "range %v outside body %v", r, u.Body)
	src := u.Text[r.Start:r.End]
	assert.Equal(t, strings.TrimSpace(src), src, "range not trimmed")
	assert.True(t, utf8.RuneStart(u.Text[r.Start]), "range starts inside a rune")
	assert.True(t, r.End == len(u.Text) || utf8.RuneStart(u.Text[r.End]), "range ends inside a rune")
	if !strings.Contains(src, "<!--") {
		assert.Equal(t, src, p.Text)
	}
}

func TestParagraphs(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []para
	}{
		{
			name: "blank lines separate, headings name scenes",
			text: "# The Harbor\n\nRain came in sideways.\nMara kept her collar up.\n\n## Arrival\n\nThe ferry bumped the pilings.\n\n\n\nNobody looked twice.\n",
			want: []para{
				{"Rain came in sideways.\nMara kept her collar up.", "The Harbor"},
				{"The ferry bumped the pilings.", "Arrival"},
				{"Nobody looked twice.", "Arrival"},
			},
		},
		{
			name: "text before the first heading has none",
			text: "Prologue words.\n\n# One\n\nChapter words.",
			want: []para{{"Prologue words.", ""}, {"Chapter words.", "One"}},
		},
		{
			name: "front matter is not prose",
			text: "---\ntitle: The Storm\nsummary: Everything goes wrong.\n---\n\nThe storm broke at noon.\n",
			want: []para{{"The storm broke at noon.", ""}},
		},
		{
			name: "a heading ends a paragraph without a blank line",
			text: "First words.\n## Scene\nSecond words.",
			want: []para{{"First words.", ""}, {"Second words.", "Scene"}},
		},
		{
			name: "setext headings",
			text: "Harbor\n======\n\nThe tide turned.\n\nStorm\n-----\nIt rained.",
			want: []para{{"The tide turned.", "Harbor"}, {"It rained.", "Storm"}},
		},
		{
			name: "fenced code is not prose",
			text: "Before.\n\n```go\nfmt.Println(\"not prose\")\n\nstill code\n```\n\nAfter.\n\n~~~~\ncode\n~~~\nstill code, the fence needs four\n~~~~\nLast.",
			want: []para{{"Before.", ""}, {"After.", ""}, {"Last.", ""}},
		},
		{
			name: "an unclosed fence runs to the end",
			text: "Before.\n\n```\ncode\n\nmore code",
			want: []para{{"Before.", ""}},
		},
		{
			name: "a fence cuts a paragraph",
			text: "Words before\n```\ncode\n```\nwords after",
			want: []para{{"Words before", ""}, {"words after", ""}},
		},
		{
			name: "block comments are not prose",
			text: "Before.\n\n<!-- TODO: check the chapel\n\nstill the note -->\n\nAfter.\n<!-- note -->\nLast.",
			want: []para{{"Before.", ""}, {"After.", ""}, {"Last.", ""}},
		},
		{
			name: "comments inside a paragraph are left out of its text",
			text: "She counted <!-- nine? --> the lamps and <!-- a note\nover lines --> waited.",
			want: []para{{"She counted the lamps and waited.", ""}},
		},
		{
			name: "an unclosed block comment runs to the end",
			text: "Before.\n\n<!-- draft notes\n\nnever closed",
			want: []para{{"Before.", ""}},
		},
		{
			name: "an unclosed comment inside a line is text",
			text: "The arrow <!-- pointed left.\n\nNext.",
			want: []para{{"The arrow <!-- pointed left.", ""}, {"Next.", ""}},
		},
		{
			name: "comment marks in code are code",
			text: "```\n<!--\n```\nProse stays.",
			want: []para{{"Prose stays.", ""}},
		},
		{
			name: "CRLF line ends",
			text: "# One\r\n\r\nFirst line\r\nsecond line\r\n\r\n\r\nNext.\r\n",
			want: []para{{"First line\r\nsecond line", "One"}, {"Next.", "One"}},
		},
		{
			name: "scene breaks separate and are not prose",
			text: "End of a scene.\n* * *\nStart of the next.\n\n***\n\n- - -\nThird.",
			want: []para{{"End of a scene.", ""}, {"Start of the next.", ""}, {"Third.", ""}},
		},
		{
			name: "indented paragraphs are prose",
			text: "    She was pasted from a word processor.\n\n\tSo was he.",
			want: []para{{"She was pasted from a word processor.", ""}, {"So was he.", ""}},
		},
		{
			name: "quotes and lists stay prose",
			text: "> A letter, read aloud.\n> Signed, M.\n\n- salt\n- rope",
			want: []para{{"> A letter, read aloud.\n> Signed, M.", ""}, {"- salt\n- rope", ""}},
		},
		{
			name: "blocks with no words are skipped",
			text: "...\n\n—\n\nWords.",
			want: []para{{"Words.", ""}},
		},
		{
			name: "non-breaking and other unicode space is trimmed",
			text: "\u00a0\u2003Séverine wept.\u00a0\n\nØrsted smiled.",
			want: []para{{"Séverine wept.", ""}, {"Ørsted smiled.", ""}},
		},
		{
			name: "empty",
			text: "",
		},
		{
			name: "only front matter and headings",
			text: "---\ntitle: x\n---\n# Title\n## Scene\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, paragraphsOf(t, tt.text))
		})
	}
}

func TestParagraphsLongAreCutAtSentences(t *testing.T) {
	var sentences []string
	for i := range 80 {
		sentences = append(sentences, strings.Repeat("word ", 8+i%5)+"ends here"+[]string{".", "!", "?", ".”", "…"}[i%5])
	}
	long := strings.Join(sentences, " ")
	require.Greater(t, len(long), 2*manuscript.MaxParagraphBytes)
	u := manuscript.NewUnit("manuscript/01-long.md", "# Long\n\n"+long+"\n\nShort one.", 0)

	ps := manuscript.Paragraphs(u)
	require.Greater(t, len(ps), 3)
	var rebuilt []string
	for i, p := range ps[:len(ps)-1] {
		checkParagraphRange(t, u, p)
		assert.LessOrEqual(t, p.Range.Len(), manuscript.MaxParagraphBytes)
		assert.Equal(t, "Long", p.Heading)
		if i < len(ps)-2 {
			assert.Regexp(t, `ends here(\.|!|\?|\.”|…)$`, p.Text, "chunk %d cut inside a sentence", i)
		}
		rebuilt = append(rebuilt, p.Text)
	}
	assert.Equal(t, long, strings.Join(rebuilt, " "), "chunks must cover the paragraph exactly")
	assert.Equal(t, "Short one.", ps[len(ps)-1].Text)
}

func TestParagraphsChunksEndAtSentenceEnds(t *testing.T) {
	sentence := strings.Repeat("salt ", 30) + "rope." // 155 bytes
	long := strings.TrimSpace(strings.Repeat(sentence+" ", 30))
	u := manuscript.NewUnit("manuscript/01-long.md", long, 0)
	ps := manuscript.Paragraphs(u)
	require.Len(t, ps, 3)
	for _, p := range ps {
		assert.True(t, strings.HasSuffix(p.Text, "rope."), "chunk ends mid-sentence")
		assert.True(t, strings.HasPrefix(p.Text, "salt"), "chunk starts mid-sentence")
		// Greedy: each full chunk holds as many sentences as fit.
		assert.LessOrEqual(t, p.Range.Len(), manuscript.MaxParagraphBytes)
	}
	assert.Equal(t, 12*len(sentence)+11, ps[0].Range.Len())
}

func TestParagraphsGiantWordIsCutAtRunes(t *testing.T) {
	word := strings.Repeat("é", 3000) // 6,000 bytes, no space anywhere
	u := manuscript.NewUnit("manuscript/01-word.md", word, 0)
	ps := manuscript.Paragraphs(u)
	require.Len(t, ps, 3)
	total := 0
	for _, p := range ps {
		checkParagraphRange(t, u, p)
		assert.LessOrEqual(t, p.Range.Len(), manuscript.MaxParagraphBytes)
		assert.True(t, utf8.ValidString(p.Text))
		total += p.Range.Len()
	}
	assert.Equal(t, len(word), total)
}

func TestParagraphsLongWithoutSentencesCutAtSpaces(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("and then the tide ", 300))
	u := manuscript.NewUnit("manuscript/01-run-on.md", long, 0)
	ps := manuscript.Paragraphs(u)
	require.Len(t, ps, 3)
	var words []string
	for _, p := range ps {
		assert.LessOrEqual(t, p.Range.Len(), manuscript.MaxParagraphBytes)
		assert.NotContains(t, []byte{p.Text[0], p.Text[len(p.Text)-1]}, byte(' '))
		words = append(words, strings.Fields(p.Text)...)
	}
	assert.Equal(t, strings.Fields(long), words, "a cut split a word")
}
