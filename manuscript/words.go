package manuscript

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CountWords is quire's one rule for counting words, used wherever a
// count is shown (docs/goals.md states it with examples):
//
//   - a word is a run of letters and digits; an apostrophe or hyphen
//     between two letters keeps it one word ("don't", "well-known"), and
//     so does a comma or point between two digits ("1,000", "3.14");
//   - an em or en dash, a slash and every other punctuation separate;
//   - Markdown markup is not words: HTML comments and tags, a link's
//     target ("[the harbor](harbor.md)" is two words), a footnote mark;
//   - a wiki link counts what the reader sees: "[[Mara Vell|Mara]]" is
//     one word, "[[Mara Vell]]" two.
//
// Front matter is the caller's to leave out (ChapterWords does).
func CountWords(s string) int { return countWords(s, true) }

// countWords is CountWords; fast takes ASCII words and breaks by their
// byte class, without the rules below, which count them alike (the fuzz
// test holds the two ways to one count).
func countWords(s string, fast bool) int {
	n := 0
	in := false
	for i := 0; i < len(s); {
		c := s[i]
		// Most of a chapter is ASCII letters and spaces: a word or a
		// space is taken without decoding a rune.
		if fast {
			switch byteClasses[c] {
			case byteWord:
				if !in {
					n++
					in = true
				}
				for i++; i < len(s) && byteClasses[s[i]] == byteWord; i++ {
				}
				continue
			case byteBreak:
				in = false
				i++
				continue
			}
		}
		// Markup is skipped whole; it separates the words either side.
		if c == '<' || c == '[' || c == ']' {
			if skip := markupLen(s, i); skip > 0 {
				i += skip
				in = false
				continue
			}
		}
		r, size := rune(c), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if !in {
				n++
				in = true
			}
			// The rest of a run of ASCII letters and digits is the same
			// word: skipped at once, as most of a chapter is.
			i += size
			for i < len(s) && byteClasses[s[i]] == byteWord {
				i++
			}
			continue
		case c == ' ' || c == '\n':
			// A space or line end joins nothing: it ends a word.
			in = false
		case in && i+size < len(s) && joins(s, i, r, size):
			// The joiner is inside the word; the next rune continues it.
		default:
			in = false
		}
		i += size
	}
	return n
}

// Classes of a byte for CountWords' fast path.
const (
	// byteOther needs the rules below: markup, a joiner, a byte of a
	// longer rune.
	byteOther = iota
	// byteWord is an ASCII letter or digit.
	byteWord
	// byteBreak is ASCII that ends a word: a space, a line end,
	// punctuation that joins nothing.
	byteBreak
)

// byteClasses classes every byte for CountWords and eachWord; it is
// never written after it is built.
var byteClasses = func() (t [256]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case isWordRune(rune(c)):
			t[c] = byteWord
		case strings.IndexByte("<[]'-,.", byte(c)) < 0:
			t[c] = byteBreak
		}
	}
	return t
}()

// ChapterWords counts the words of a chapter's whole file: what follows
// its front matter, by CountWords.
func ChapterWords(text string) int {
	u := NewUnit("", text, 0)
	return u.Words
}

// maxLinkTarget bounds the search for the end of a link's target or a
// wiki link's label, so that a line of unclosed brackets stays linear.
const maxLinkTarget = 512

// markupLen is how many bytes of markup start at s[i], 0 when none
// does: an HTML comment (to its end, or the end of the text when it is
// never closed, as a Markdown reader hides it), a link target "](…)",
// a wiki link's target before its "|", or a footnote mark "[^1]".
func markupLen(s string, i int) int {
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "<!--"):
		if end := strings.Index(rest[4:], "-->"); end >= 0 {
			return 4 + end + 3
		}
		return len(rest)
	case rest[0] == '<' && len(rest) > 1 && (isASCIILetter(rest[1]) || rest[1] == '/'):
		// An HTML tag (<br>, <span class="x">, </em>) on one line.
		if end := closeOnLine(rest[1:], '>'); end >= 0 {
			return 1 + end + 1
		}
	case strings.HasPrefix(rest, "]("):
		if end := closeOnLine(rest[2:], ')'); end >= 0 {
			return 2 + end + 1
		}
	case strings.HasPrefix(rest, "[["):
		// [[Name|label]]: the name is skipped, the label counted.
		inner := rest[2:min(len(rest), 2+maxLinkTarget)]
		close := strings.Index(inner, "]]")
		if close < 0 {
			return 0
		}
		if bar := strings.IndexByte(inner[:close], '|'); bar >= 0 && !strings.ContainsRune(inner[:bar], '\n') {
			return 2 + bar + 1
		}
	case strings.HasPrefix(rest, "[^"):
		if end := closeOnLine(rest[2:], ']'); end >= 0 {
			return 2 + end + 1
		}
	}
	return 0
}

// closeOnLine is the index of the first c in s before the end of the
// line and within maxLinkTarget bytes, -1 when there is none.
func closeOnLine(s string, c byte) int {
	s = s[:min(len(s), maxLinkTarget)]
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case c:
			return j
		case '\n':
			return -1
		}
	}
	return -1
}

// joins reports whether r at s[i] joins the word before it with a word
// rune after it: an apostrophe or hyphen between letters, a comma or
// point between digits.
func joins(s string, i int, r rune, size int) bool {
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	switch r {
	case '\'', '’', 'ʼ', '-', '‐':
		return isWordRune(next)
	case ',', '.':
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		return isDigit(prev) && isDigit(next)
	}
	return false
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}
