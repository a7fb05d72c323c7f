package manuscript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountWords(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"blank", " \t\n\r\n ", 0},
		{"one", "harbor", 1},
		{"sentence", "The sea rose over the wall.", 6},
		{"apostrophe inside a word", "Don't stop, Mara's boat.", 4},
		{"curly apostrophe", "O’Brien didn’t come", 3},
		{"leading apostrophe", "’tis the season", 3},
		{"quoted with apostrophes", "rock 'n' roll", 3},
		{"hyphenated compound is one word", "a well-known fact", 3},
		{"long compound", "a happy-go-lucky sailor", 3},
		{"double hyphen splits", "this--that", 2},
		{"em dash between words separates", "wait—no", 2},
		{"en dash between words separates", "pages 10–12", 3},
		{"spaced dash", "wait — no", 2},
		{"trailing hyphen", "end-", 1},
		{"markdown markup is not words", "# Heading\n\n**bold** and _it_ `code`\n\n- item\n> quote", 7},
		{"punctuation alone", "... !!! ?? — –", 0},
		{"digits are words", "In 1984 they left", 4},
		{"a number with separators is one word", "1,000 ships and 3.14 pies", 5},
		{"a comma after a number separates", "in 1984, then", 3},
		{"a point after a number before a letter separates", "It was 1984.Then", 4},
		{"accents", "café naïve Séverine", 3},
		{"combining mark stays in the word", "cafe\u0301 au lait", 3},
		{"CJK run", "日本語の文章", 1},
		{"emoji between words", "party 🎉 time", 2},
		{"non-breaking space separates", "hello\u00a0world", 2},
		{"CRLF", "one\r\ntwo\r\nthree", 3},
		{"invalid UTF-8 separates", "ab\xffcd", 2},
		{"HTML comment is not words", "She ran <!-- fix this later --> home.", 3},
		{"HTML comment across lines", "One\n<!--\nnote to self\n-->\nTwo", 2},
		{"HTML comment glued to words separates", "one<!-- x -->two", 2},
		{"unclosed HTML comment hides the rest", "One <!-- never closed\nmore words", 1},
		{"HTML tag is not words", "line<br>break and <span class=\"x\">this</span>", 4},
		{"a less-than sign in prose is not a tag", "3 < 4 and x <y", 5},
		{"wiki link counts its name", "She met [[Mara Vell]] there", 5},
		{"wiki link counts its label", "She met [[Mara Vell|the witch]] there", 5},
		{"wiki link with a one-word label", "[[Ilse Dorn|Ilse]] laughed", 2},
		{"unclosed wiki link counts what is there", "[[Mara|Vell never closed", 4},
		{"link counts its text, not its target", "Go to [the harbor](../codex/harbor.md) now", 5},
		{"image alt text counts, not its source", "![a grey gull](gull.png)", 3},
		{"footnote mark is not a word", "It rained.[^1]\n\n[^1]: In June.", 4},
		{"bare URL counts its parts", "see https://example.com", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, CountWords(tt.text))
		})
	}
}

func TestChapterWords(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"no front matter", "# The Storm\n\nRain fell.\n", 4},
		{"front matter is not words", "---\ntitle: The Storm\npov: Mara Vell\ntarget: 4000\n---\n# The Storm\n\nRain fell.\n", 4},
		{"comment after front matter", "---\ntitle: X\n---\n<!-- draft two -->\nRain fell.\n", 2},
		{"CRLF front matter", "---\r\ntitle: X\r\n---\r\nRain fell.\r\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ChapterWords(tt.text))
		})
	}
}

func TestCountWordsLong(t *testing.T) {
	assert.Equal(t, 10000, CountWords(strings.Repeat("word ", 10000)))
	assert.Equal(t, 5000, CountWords(strings.Repeat("it's ", 5000)))
	// Unclosed brackets by the thousand stay linear (a bounded search
	// each) and are not words.
	assert.Equal(t, 0, CountWords(strings.Repeat("[[ ](<!", 20000)))
}

// FuzzCountWords: any text counts without panicking, to no more words
// than it has characters, and blank text to none; a text with markup
// never counts more than the same text with its markup's brackets made
// spaces would (markup hides words, it never makes them).
func FuzzCountWords(f *testing.F) {
	for _, seed := range []string{
		"The sea rose over the wall.",
		"a well-known fact—wait 1,000",
		"She ran <!-- fix --> home",
		"[[Mara Vell|the witch]] and [[Ilse]]",
		"[text](url) ![alt](src) [^1] <br>",
		"<!-- never closed",
		"\xff\xfe[[|",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := CountWords(s)
		require.GreaterOrEqual(t, n, 0)
		require.LessOrEqual(t, n, utf8.RuneCountInString(s))
		if n > 0 {
			require.NotEqual(t, 0, len(strings.TrimSpace(s)))
		}
		plain := strings.NewReplacer("<", " ", "[", " ", "]", " ", "|", " ").Replace(s)
		require.LessOrEqual(t, n, CountWords(plain), "plain %q", plain)
	})
}

// FuzzCountWordsFastPath holds CountWords' fast path to the count its
// rules give alone, rune by rune.
func FuzzCountWordsFastPath(f *testing.F) {
	for _, seed := range []string{
		"The sea rose over the wall.", "don't 'em o'clock well-known 1,000 3.14 a,b",
		"She ran <!-- fix --> home", "[[Mara Vell|the witch]]", "[x](y) [^1] <br> <3",
		"é—è ’tis Ma’am", "\xff\xfe[[|", "a.\n-b '", "- list\n* x\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, countWords(s, false), CountWords(s), "%q", s)
	})
}
