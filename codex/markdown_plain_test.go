package codex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The plain outline (markdown_plain.go) must be goldmark's outline of
// every body it accepts.

// checkPlainOutline compares both outlines of src's body, with and
// without the first paragraph, and reports whether the plain one
// accepted it.
func checkPlainOutline(t *testing.T, src []byte) bool {
	t.Helper()
	body := splitFrontMatter(src).Body
	accepted := false
	for _, first := range []bool{true, false} {
		plain, ok := plainOutline(src, body, first)
		if !ok {
			continue
		}
		accepted = true
		require.Equal(t, markdownOutline(src, body, first), plain, "first paragraph %v of %q", first, src)
	}
	return accepted
}

func TestPlainOutline(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		plain bool
	}{
		{"headings and paragraphs", "# Mara\n\nA smuggler of [[Tidewater]].\n\n## History\n\nBorn at sea,\nraised on the quay.\n\n### Later\nGone.\n", true},
		{"a paragraph straight after a heading, a heading straight after one", "# A\ntext\n## B\nmore\n# C\n", true},
		{"emphasis, links and entities are text", "Her *lamp* and _boat_, [a link](http://x) &amp; a \\*star.\n", true},
		{"a heading's inline markup", "## The *Lamp* & [[Boat]]\n\nText.\n", true},
		{"an empty heading", "#\n\nText.\n##   \n", true},
		{"hashtags and seven #s are text", "#tag and more\n####### seven\n", true},
		{"a year opens a line, a closing paren inside", "1999 was the year (or 2000).\n", true},
		{"quotes and non-ASCII open lines", "\"Yes,\" she said.\n'No.'\n“Maybe.”\n(Aside.)\nÉmile.\n", true},
		{"trailing spaces and a backslash", "Line one  \nline two\\\nline three \\  \n", true},
		{"no body", "", true},
		{"an indented line", "Text\n    more\n", false},
		{"a list", "- one\n- two\n", false},
		{"an ordered list", "1. one\n", false},
		{"a quote", "> quoted\n", false},
		{"a setext heading", "Title\n=====\n", false},
		{"a thematic break", "Text\n\n***\n\nMore\n", false},
		{"a fence of tildes", "~~~\ncode\n~~~\n", false},
		{"a code span", "Use `code` here.\n", false},
		{"an autolink or HTML", "See <http://x>.\n", false},
		{"a link definition", "[x]: http://x\n", false},
		{"a closing run of #", "## Title ##\n", false},
		{"an escaped # in a heading", "## Title \\#\n", false},
		{"CRLF", "# A\r\n\r\nText.\r\n", false},
		{"a table", "| a | b |\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte("---\nname: X\n---\n" + tt.body)
			assert.Equal(t, tt.plain, checkPlainOutline(t, src))
		})
	}
}

// TestPlainOutlineOfTheSampleAndTestdata compares both outlines over the
// sample book and the parser's test files: most of the sample's codex
// is read plain.
func TestPlainOutlineOfTheSampleAndTestdata(t *testing.T) {
	files, plain := 0, 0
	eachMarkdownFile(t, []string{"../cmd/quire/sample", "testdata/parse"}, func(_ string, src []byte) {
		files++
		if checkPlainOutline(t, src) {
			plain++
		}
	})
	assert.Greater(t, files, 30)
	t.Logf("%d of %d files outlined plain", plain, files)
	assert.Greater(t, plain, files/3)
}

// FuzzPlainOutline compares both outlines of any body. Run it with:
// go test ./codex -run '^$' -fuzz '^FuzzPlainOutline$' -fuzztime 60s
func FuzzPlainOutline(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add(src)
	}
	f.Add("# Mara\n\nA [[Tidewater]] smuggler.\n\n## History\n\nBorn *at* sea\\\nand raised.  \n\n#tag\n####### x\n")
	f.Add("#\tTab heading\n# \n1999 (x) 2)\n\"q\" 'a' “b”\n")
	f.Fuzz(func(t *testing.T, src string) {
		checkPlainOutline(t, []byte(src))
		// Most random bodies are declined; the same bytes made plain
		// enough to be accepted reach its reading of lines.
		if p := plainish(src); !checkPlainOutline(t, p) && !strings.Contains(string(p), "#") {
			t.Fatalf("a plain body was declined: %q", p)
		}
	})
}

// plainish is src with what plainOutline declines taken out: backticks,
// angle brackets, carriage returns and NULs dropped, and a line that
// opens otherwise than plainly opened with a letter instead.
func plainish(src string) []byte {
	// A byte-order mark is no part of the body (splitFrontMatter).
	src = strings.TrimPrefix(src, "\ufeff")
	src = strings.Map(func(r rune) rune {
		switch r {
		case '`', '<', '\r', 0:
			return -1
		}
		return r
	}, src)
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.Trim(l, " \t") != "" && l[0] != '#' && !plainLineStart([]byte(l)) {
			lines[i] = "a" + strings.TrimLeft(l, " \t0123456789")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
