package manuscript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzNewUnit reads arbitrary bytes as a chapter: it must never panic,
// and every range it reports must lie inside the text.
func FuzzNewUnit(f *testing.F) {
	for _, seed := range []string{
		"# One\n\nText.\n",
		"---\ntitle: The Storm\n---\n# Heading\n\n## Scene\n\nWords.\n",
		"---\ntitle: [unclosed\n",
		"---\ntitle: &a [*a, *a]\n---\n",
		"Setext\n======\n\nbody\n---\n",
		"\xEF\xBB\xBF---\r\ntitle: BOM\r\n---\r\n# X\r\n",
		"```\n# not a heading\n```\n",
		"> # quoted heading\n",
		"\xff\xfe# bad utf-8",
	} {
		f.Add("manuscript/01-x.md", seed)
	}
	f.Fuzz(func(t *testing.T, rel, text string) {
		u := NewUnit(rel, text, 1)
		require.True(t, utf8.ValidString(u.Text), "text is made valid UTF-8")
		require.True(t, utf8.ValidString(u.Title))
		assert.False(t, strings.ContainsAny(u.Title, "\r\n"), "a title is one line: %q", u.Title)
		require.True(t, 0 <= u.Body.Start && u.Body.Start <= u.Body.End && u.Body.End <= len(u.Text), "body %v in %d bytes", u.Body, len(u.Text))
		for _, h := range u.Headings {
			require.True(t, 0 <= h.Range.Start && h.Range.Start <= h.Range.End && h.Range.End <= len(u.Text), "heading %v", h.Range)
			require.True(t, h.Range.Start <= h.HeadingRange.Start && h.HeadingRange.End <= h.Range.End)
		}
		require.GreaterOrEqual(t, u.Words, 0)
		require.LessOrEqual(t, u.Words, len(u.Text))
	})
}

// FuzzNewUnitManyKeys reads front matter of a few fuzzed lines repeated
// up to thousands of times as a document, as the server does with an
// open codex entry: it must never panic, and its title is one line.
func FuzzNewUnitManyKeys(f *testing.F) {
	f.Add("x: y\n", uint16(8000))
	f.Add("title: A\ntitle: B\n", uint16(500))
	f.Add("pov: [a, b]\n", uint16(2000))
	f.Add("bad: [\n", uint16(300))
	f.Fuzz(func(t *testing.T, lines string, n uint16) {
		if len(lines) > 200 {
			return
		}
		text := "---\ntitle: Kept\n" + strings.Repeat(lines, int(n%8000)) + "---\n# Heading\n"
		u := NewUnit("codex/characters/u.md", text, 1)
		require.True(t, utf8.ValidString(u.Title))
		assert.False(t, strings.ContainsAny(u.Title, "\r\n"), "a title is one line: %q", u.Title)
	})
}
