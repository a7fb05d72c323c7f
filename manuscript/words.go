package manuscript

import (
	"unicode"
	"unicode/utf8"
)

// CountWords counts words as a writer does: runs of letters and digits,
// with an apostrophe or hyphen between two letters ("don't",
// "well-known") kept inside one word. Markdown markup, punctuation and
// numbers' separators are not words.
func CountWords(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if !in {
				n++
				in = true
			}
		case in && isJoiner(r) && i+size < len(s):
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			in = isWordRune(next)
		default:
			in = false
		}
		i += size
	}
	return n
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// isJoiner reports runes that join two word parts into one word.
func isJoiner(r rune) bool {
	switch r {
	case '\'', '’', 'ʼ', '-', '‐':
		return true
	}
	return false
}
