package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// block is a block as the table writes it: kind, marker, depth, text
// with emphasis as *…* and strong as **…**.
type block struct {
	Kind   Kind
	Marker string
	Depth  int
	Text   string
}

func styled(b Block) block {
	out := block{Kind: b.Kind, Marker: b.Marker, Depth: b.Depth}
	for _, r := range b.Runs {
		t := r.Text
		if r.Emph {
			t = "*" + t + "*"
		}
		if r.Strong {
			t = "**" + t + "**"
		}
		if r.Break {
			t += "⏎"
		}
		out.Text += t
	}
	return out
}

func TestReadChapter(t *testing.T) {
	tests := []struct {
		name, text string
		title      string
		want       []block
	}{
		{
			name:  "front matter, title heading and comments never reach the text",
			text:  "---\ntitle: The Storm\npov: Mara\n---\n# The Storm\n\n<!-- fix the tide -->\nShe ran. <!-- too short? --> Then she *stopped*.\n",
			title: "The Storm",
			want:  []block{{Kind: Paragraph, Text: "She ran. Then she *stopped*."}},
		},
		{
			name:  "a link becomes its label, or its name",
			text:  "She met [[Mara Vell|the witch]] and [[Ilse Dorn]] at [[the Harbor]].\n",
			title: "X",
			want:  []block{{Kind: Paragraph, Text: "She met the witch and Ilse Dorn at the Harbor."}},
		},
		{
			name:  "scene headings and rules are scene breaks, never first, last or doubled",
			text:  "## Opening\n\nOne.\n\n***\n\n* * *\n\n## Later\n\nTwo.\n\n---\n",
			title: "X",
			want: []block{
				{Kind: Paragraph, Text: "One."},
				{Kind: SceneBreak},
				{Kind: Paragraph, Text: "Two."},
			},
		},
		{
			name:  "smart punctuation, strong and both",
			text:  "\"It's --- well...\" she said -- **loud** and ***clear***.\n",
			title: "X",
			want:  []block{{Kind: Paragraph, Text: "“It’s — well…” she said — **loud** and ***clear***."}},
		},
		{
			name:  "block quotes and lists keep their shape",
			text:  "> The sea\n> is *slow*.\n\n1. first\n2. second\n\n- a\n  - b\n",
			title: "X",
			want: []block{
				{Kind: Quote, Depth: 1, Text: "The sea is *slow*."},
				{Kind: Item, Marker: "1.", Depth: 1, Text: "first"},
				{Kind: Item, Marker: "2.", Depth: 1, Text: "second"},
				{Kind: Item, Marker: "•", Depth: 1, Text: "a"},
				{Kind: Item, Marker: "•", Depth: 2, Text: "b"},
			},
		},
		{
			name:  "escapes, entities, hard breaks and raw HTML",
			text:  "A \\*star\\* &amp; <span>a</span> line  \nbreak.\n\n<div>\nmarkup\n</div>\n",
			title: "X",
			want:  []block{{Kind: Paragraph, Text: "A *star* & a line⏎break."}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := ReadChapter(manuscript.NewUnit("manuscript/01-x.md", tt.text, 0), ReadOptions{})
			assert.Equal(t, tt.title, ch.Title)
			var got []block
			for _, b := range ch.Blocks {
				got = append(got, styled(b))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestReadFirstParagraphAndWords(t *testing.T) {
	ch := ReadChapter(manuscript.NewUnit("manuscript/01-x.md", "One two.\n\nThree.\n\n***\n\nFour <!-- five six -->.\n", 0), ReadOptions{})
	require.Len(t, ch.Blocks, 4)
	assert.True(t, ch.Blocks[0].First)
	assert.False(t, ch.Blocks[1].First)
	assert.True(t, ch.Blocks[3].First, "the first paragraph after a scene break")
	assert.Equal(t, 4, ch.Words, "the comment's words are not the book's")
}

func TestProse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a <!-- b --> c", "a  c"},
		{"a <!-- open to the end", "a "},
		{"[[A|b]] `[[code]]`", "b `[[code]]`"},
		{"<!-- [[A]] -->[[B|c]]", "c"},
		// A control character no format holds is dropped first, so it
		// neither hides a comment nor makes one of the text around it.
		{"a <!-\x1e- b --> c", "a  c"},
		{"0<!-\x1e-", "0"},
		{"a\x01b\tc\nd", "ab\tc\nd"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Prose(tt.in), tt.in)
	}
}

func TestRoundedWords(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "about 100 words"},
		{149, "about 100 words"},
		{150, "about 200 words"},
		{4_249, "about 4,200 words"},
		{123_456, "about 123,500 words"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, RoundedWords(tt.n), tt.n)
	}
}

func TestFileName(t *testing.T) {
	assert.Equal(t, "the-thirteenth-bell.docx", FileName("The Thirteenth Bell", DOCX, Manuscript))
	assert.Equal(t, "the-thirteenth-bell-reader.docx", FileName("The Thirteenth Bell", DOCX, Reader))
	assert.Equal(t, "l’été-à-brinmouth.epub", FileName("L’Été à: Brinmouth", EPUB, Reader))
	assert.Equal(t, "manuscript.md", FileName("../..", Markdown, Reader))
	assert.Equal(t, "a-b.html", FileName("a/b", HTML, Reader))
	assert.Equal(t, "con-book.docx", FileName("Con", DOCX, Manuscript), "a name Windows keeps for a device")
}

// TestReadDashes: -- and --- by each convention (build: dashes), at a
// paragraph's edges, beside quotes and emphasis, between digits, in a
// code span and in the chapter's title.
func TestReadDashes(t *testing.T) {
	const text = "---\ntitle: Before--After\n---\n" +
		"He asked in various ways--with barefaced questions--and waited.\n\n" +
		"She said -- loudly -- no. Three---hyphens.\n\n" +
		"\"I was--\" she began. He said--\"No.\"\n\n" +
		"--and *then*--*not*.\n\n" +
		"Pages 10--12, 1914---1918, and `a--b` in code; \\-- stays.\n"
	tests := []struct {
		dashes Dashes
		title  string
		want   []string
	}{
		{
			dashes: "",
			title:  "Before—After",
			want: []string{
				"He asked in various ways—with barefaced questions—and waited.",
				"She said — loudly — no. Three—hyphens.",
				"“I was—” she began. He said—“No.”",
				"—and *then*—*not*.",
				"Pages 10–12, 1914—1918, and a--b in code; -- stays.",
			},
		},
		{
			dashes: DashesPandoc,
			title:  "Before–After",
			want: []string{
				"He asked in various ways–with barefaced questions–and waited.",
				"She said – loudly – no. Three—hyphens.",
				"“I was–” she began. He said–“No.”",
				"–and *then*–*not*.",
				"Pages 10–12, 1914—1918, and a--b in code; -- stays.",
			},
		},
		{
			dashes: DashesSpaced,
			title:  "Before – After",
			want: []string{
				"He asked in various ways – with barefaced questions – and waited.",
				"She said – loudly – no. Three—hyphens.",
				"“I was –” she began. He said – “No.”",
				"– and *then* – *not*.",
				"Pages 10–12, 1914—1918, and a--b in code; -- stays.",
			},
		},
	}
	for _, tt := range tests {
		name := string(tt.dashes)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			ch := ReadChapter(manuscript.NewUnit("manuscript/01-x.md", text, 0), ReadOptions{Dashes: tt.dashes})
			assert.Equal(t, tt.title, ch.Title)
			var got []string
			for _, b := range ch.Blocks {
				got = append(got, styled(b).Text)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
