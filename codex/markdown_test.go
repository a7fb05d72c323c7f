package codex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutline(t *testing.T) {
	tests := []struct {
		name           string
		src            string
		firstHeading   string
		firstParagraph string
		headings       []string
	}{
		{name: "plain", src: "# Mara\n\nSmuggler.\n\n## Past\n", firstHeading: "Mara", firstParagraph: "Smuggler.",
			headings: []string{"Mara", "Past"}},
		{name: "first heading must be level 1", src: "## Sub\n\n# Top\n", firstHeading: "Top",
			headings: []string{"Sub", "Top"}},
		{name: "inline markup flattened", src: "# Mara *Vell* `x` [link](u)\n\nA **bold** <b>html</b> line\nand a soft break.\n",
			firstHeading: "Mara Vell x link", firstParagraph: "A bold html line and a soft break.",
			headings: []string{"Mara Vell x link"}},
		{name: "hard line break", src: "Line one  \nline two\n", firstParagraph: "Line one line two"},
		{name: "tight list items are not paragraphs", src: "- item one\n- item two\n\nProse.\n", firstParagraph: "Prose."},
		{name: "setext levels", src: "One\n===\n\nTwo\n---\n", firstHeading: "One", headings: []string{"One", "Two"}},
		{name: "no headings in code", src: "```\n# x\n```\n\n    # y\n", headings: nil},
		{name: "thematic break is not a setext underline", src: "Text\n\n---\n", firstParagraph: "Text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			o := outlineOf(src, Range{0, len(src)}, true)
			assert.Equal(t, tt.firstHeading, o.FirstHeading)
			assert.Equal(t, tt.firstParagraph, o.FirstParagraph)
			var headings []string
			for _, s := range o.Sections {
				headings = append(headings, s.Heading)
			}
			assert.Equal(t, tt.headings, headings)
		})
	}
}

// TestOutlineOffsets checks that a body which starts partway into the
// file yields offsets into the file.
func TestOutlineOffsets(t *testing.T) {
	src := "---\nname: x\n---\n# A\n\n`code`\n\n## B\ntext\n# C\n"
	body := splitFrontMatter([]byte(src)).Body
	o := outlineOf([]byte(src), body, true)
	require.Len(t, o.Sections, 3)
	type sec struct{ heading, section string }
	var got []sec
	for _, s := range o.Sections {
		got = append(got, sec{sub(src, s.HeadingRange), sub(src, s.Range)})
	}
	assert.Equal(t, []sec{
		{"# A", "# A\n\n`code`\n\n## B\ntext\n"},
		{"## B", "## B\ntext\n"},
		{"# C", "# C\n"},
	}, got)
	require.Len(t, o.Code, 1)
	assert.Equal(t, "`code`", sub(src, o.Code[0]))
}

// TestFirstParagraphOnlyWhenAsked: an entry with a summary of its own
// has its first paragraph left unread, and nothing else of its outline
// changes; one without takes its summary from that paragraph.
func TestFirstParagraphOnlyWhenAsked(t *testing.T) {
	src := []byte("# Mara\n\nA *smuggler* of [[Tidewater]] and `lamps`.\n\n## History\n\nBorn at sea.\n")
	whole := Range{0, len(src)}
	with, without := outlineOf(src, whole, true), outlineOf(src, whole, false)
	assert.Equal(t, "A smuggler of [[Tidewater]] and lamps.", with.FirstParagraph)
	assert.Empty(t, without.FirstParagraph)
	with.FirstParagraph = ""
	assert.Equal(t, with, without)

	for _, tt := range []struct{ fm, summary string }{
		{"name: Mara\nsummary: Her own words.", "Her own words."},
		{"name: Mara", "A smuggler of Tidewater and lamps."},
	} {
		e, _ := Parse("codex/characters/mara.md", append([]byte("---\n"+tt.fm+"\n---\n"), src...), TypeCharacter)
		require.NotNil(t, e)
		assert.Equal(t, tt.summary, e.Summary)
	}
}

func TestOutlineCodeRanges(t *testing.T) {
	tests := []struct {
		name string
		src  string
		code []string
	}{
		{name: "code span", src: "a `b` c", code: []string{"`b`"}},
		{name: "fenced with closing fence", src: "```go\nx\n```\nafter\n", code: []string{"```go\nx\n```"}},
		{name: "fenced, CRLF", src: "```\r\nx\r\n```\r\nafter\r\n", code: []string{"```\r\nx\r\n```"}},
		{name: "indented", src: "    x\n    y\n\nz\n", code: []string{"    x\n    y\n"}},
		{name: "html block", src: "<div>\nx\n</div>\n\ny\n", code: []string{"<div>\nx\n</div>\n"}},
		{name: "fenced without info or content has nothing to hide", src: "```\n```\n", code: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			var code []string
			for _, r := range outlineOf(src, Range{0, len(src)}, true).Code {
				code = append(code, sub(tt.src, r))
			}
			assert.Equal(t, tt.code, code)
		})
	}
}

func TestHumanize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mara-vell", "Mara Vell"},
		{"old_harbor", "Old Harbor"},
		{"ølby", "Ølby"},
		{"--x--", "X"},
		{"", ""},
		{"caf\xe9", "Caf\uFFFD"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, humanize(tt.in), "%q", tt.in)
	}
}

func TestFlattenNesting(t *testing.T) {
	deep := strings.Repeat("> ", maxNesting+3) + "text"
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "shallow is untouched", src: "> > - 1. x\n", want: "> > - 1. x\n"},
		{name: "exactly at the limit", src: strings.Repeat(">", maxNesting) + " x", want: strings.Repeat(">", maxNesting) + " x"},
		{name: "past the limit", src: strings.Repeat(">", maxNesting+2) + " x", want: strings.Repeat(">", maxNesting) + "   x"},
		{name: "spaced markers", src: deep, want: strings.Repeat("> ", maxNesting) + strings.Repeat("  ", 3) + "text"},
		{name: "list markers", src: strings.Repeat("- ", maxNesting+1) + "x\n- y", want: strings.Repeat("- ", maxNesting) + "  x\n- y"},
		{name: "ordered markers", src: strings.Repeat("12) ", maxNesting+1) + "x", want: strings.Repeat("12) ", maxNesting) + "    x"},
		{name: "text stops the prefix", src: "> a " + strings.Repeat("> ", 40), want: "> a " + strings.Repeat("> ", 40)},
		{name: "not markers", src: strings.Repeat("-x ", 40), want: strings.Repeat("-x ", 40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			got := flattenNesting(src)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, tt.src, string(src), "the input is never changed")
		})
	}

	t.Run("sections survive", func(t *testing.T) {
		src := []byte(strings.Repeat(">", 10000) + " deep\n\n# Heading\n\nText [[Link]].\n")
		whole := Range{0, len(src)}
		o := outlineOf(src, whole, true)
		require.Len(t, o.Sections, 1)
		assert.Equal(t, "Heading", o.Sections[0].Heading)
		assert.Equal(t, "# Heading", sub(string(src), o.Sections[0].HeadingRange))
		assert.Len(t, scanLinks(src, whole, o.Code), 1)
	})
}

func TestLinkDefinitions(t *testing.T) {
	src := []byte("Text [a].\n\n[a]: /a\n   [b c]: https://x \"T\"\n    [code]: /no\n[]: /empty\n[d]:\n")
	assert.Equal(t, "[a]: /a\n   [b c]: https://x \"T\"\n[d]:\n", string(linkDefinitions(src)))

	many := []byte(strings.Repeat("[x]: /x\n", maxLinkDefinitions+10))
	assert.Equal(t, maxLinkDefinitions, strings.Count(string(linkDefinitions(many)), "\n"))
}
