package manuscript

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// The prose tokenizer the mention scan, the untracked-name finder and
// the continuity checks' name lookups read text with: words (with the
// apostrophes inside them and their clitic endings), single punctuation
// marks, and the keys the name trie is built from.

type proseTokenKind uint8

const (
	proseWord proseTokenKind = iota + 1
	prosePunct
	// proseInvalid is a byte that is not UTF-8; nothing matches across it.
	proseInvalid
)

// proseToken is a word or a single punctuation mark. Whitespace separates
// tokens and is never one.
type proseToken struct {
	kind proseTokenKind
	// upper is true for a word that begins with a capital letter, and
	// allCaps for one of two letters or more written in capitals.
	upper, allCaps bool
	start, end     int
	// stem is where a clitic ending of a word starts ("'s" of "Mara's",
	// "'d" of "Jory'd"), 0 when the word has none.
	stem int
	// lineBreaks counts the newlines in the whitespace before the token;
	// gap is that whitespace's length in bytes.
	lineBreaks int
	gap        int
}

// proseTokenizer splits text into tokens. A word is a run of word runes (as
// words.go defines them), with an apostrophe between two of them kept
// inside ("O'Brien", "Mara's"); a hyphen splits words, so "Mara-like"
// holds the word "Mara".
type proseTokenizer struct {
	text string
	pos  int
}

func (t *proseTokenizer) next(tok *proseToken) bool {
	text := t.text
	i := t.pos
	breaks := 0
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				breaks++
			} else if c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError || !unicode.IsSpace(r) {
			break
		}
		if r == '\u2028' || r == '\u2029' || r == '\u0085' {
			breaks++
		}
		i += size
	}
	if i >= len(text) {
		t.pos = len(text)
		return false
	}
	*tok = proseToken{start: i, lineBreaks: breaks, gap: i - t.pos}
	r, size := rune(text[i]), 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRuneInString(text[i:])
	}
	switch {
	case r == utf8.RuneError && size == 1:
		tok.kind, tok.end = proseInvalid, i+1
	case isApostropheRune(r) || !isWordRune(r):
		tok.kind, tok.end = prosePunct, i+size
	default:
		tok.kind = proseWord
		if r < utf8.RuneSelf {
			tok.upper = 'A' <= r && r <= 'Z'
		} else {
			tok.upper = unicode.IsUpper(r) || unicode.IsTitle(r)
		}
		tok.end, tok.stem = proseWordEnd(text, i+size)
		tok.allCaps = tok.upper && tok.end-i > size && !hasLower(text[i+size:tok.end])
	}
	t.pos = tok.end
	return true
}

// hasLower reports whether word holds a lower-case letter.
func hasLower(word string) bool {
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= utf8.RuneSelf {
			return strings.IndexFunc(word[i:], unicode.IsLower) >= 0
		}
		if 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// proseWordEnd finds the end of the word whose first rune ends at i, and the
// start of its clitic ending, if any.
func proseWordEnd(text string, i int) (end, stem int) {
	apos, aposSize := -1, 0
	for i < len(text) {
		c := text[i]
		// Most prose is ASCII letters; they need no decoding.
		if lower := c | 0x20; 'a' <= lower && lower <= 'z' || '0' <= c && c <= '9' {
			i++
			continue
		}
		r, size := rune(c), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
		}
		if isApostropheRune(r) {
			if !startsProseWord(text[i+size:]) {
				break
			}
			apos, aposSize = i, size
			i += size
			continue
		}
		if !isWordRune(r) {
			break
		}
		i += size
	}
	if apos >= 0 && isCliticEnding(text[apos+aposSize:i]) {
		return i, apos
	}
	return i, 0
}

// startsProseWord reports whether s begins with a word rune.
func startsProseWord(s string) bool {
	if s == "" {
		return false
	}
	r, size := rune(s[0]), 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRuneInString(s)
	}
	return size > 0 && !(r == utf8.RuneError && size == 1) && !isApostropheRune(r) && isWordRune(r)
}

// isApostropheRune reports the runes writers and their software type as an
// apostrophe. The modifier letter apostrophe counts as a letter to
// Unicode, but in prose it does the apostrophe's job.
func isApostropheRune(r rune) bool {
	return r == '\'' || r == '’' || r == '‘' || r == 'ʼ'
}

// WithoutClitic is word less a clitic ending after its last apostrophe
// ("Mara" of "Mara's", "Mara'd" or "Mara’ll"), the word itself when it has
// none: the name a word so written names.
func WithoutClitic(word string) string {
	for i := len(word) - 1; i > 0; i-- {
		r, size := utf8.DecodeRuneInString(word[i:])
		if r == utf8.RuneError && size == 1 {
			continue
		}
		if isApostropheRune(r) {
			if isCliticEnding(word[i+size:]) {
				return word[:i]
			}
			return word
		}
	}
	return word
}

// isCliticEnding reports the endings that attach to a name without changing
// whom it names: "Mara's", "Mara'd", "Mara'll".
func isCliticEnding(s string) bool {
	switch len(s) {
	case 1:
		c := s[0] | 0x20
		return c == 's' || c == 'd' || c == 'm'
	case 2:
		a, b := s[0]|0x20, s[1]|0x20
		return a == 'l' && b == 'l' || b == 'e' && (a == 'r' || a == 'v')
	}
	return false
}

// appendTokenKey appends the normalized form of tok: what the trie and
// the word lists are keyed by.
func appendTokenKey(dst []byte, text string, tok *proseToken) []byte {
	switch tok.kind {
	case proseWord:
		return appendWordKey(dst, text[tok.start:tok.end])
	case prosePunct:
		r, _ := utf8.DecodeRuneInString(text[tok.start:tok.end])
		switch {
		case isApostropheRune(r) || r == '`' || r == '′':
			return append(dst, '\'')
		case r == '‐' || r == '‑':
			return append(dst, '-')
		}
		return append(dst, text[tok.start:tok.end]...)
	}
	// Not UTF-8, so no key of a name can equal it.
	return append(dst, 0xff)
}

// appendWordKey appends codex.Normalize(word) without allocating for the
// common case: ASCII letters and typographic apostrophes.
func appendWordKey(dst []byte, word string) []byte {
	start := len(dst)
	for i := 0; i < len(word); i++ {
		c := word[i]
		switch {
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+('a'-'A'))
		case c < utf8.RuneSelf:
			dst = append(dst, c)
		case strings.HasPrefix(word[i:], "’"):
			dst = append(dst, '\'')
			i += len("’") - 1
		default:
			return append(dst[:start], codex.Normalize(word)...)
		}
	}
	return dst
}
