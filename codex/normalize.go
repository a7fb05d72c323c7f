package codex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldExtra covers letters that carry no combining mark under NFKD but
// that a writer still expects to match their plain spelling.
var foldExtra = map[rune]string{
	'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'æ': "ae", 'œ': "oe",
	'ß': "ss", 'ı': "i", 'ħ': "h", 'ŧ': "t", 'ŋ': "n",
}

// Normalize folds a name for matching: case- and diacritic-insensitive,
// typographic apostrophes made plain, runs of space collapsed. "Ysolde
// Márquez" and "ysolde  marquez" normalize alike.
func Normalize(s string) string {
	if isPlainASCII(s) {
		return normalizeASCII(s)
	}
	return normalizeUnicode(s)
}

// normalizeUnicode is the general path; normalizeASCII must agree with it
// on every ASCII string.
func normalizeUnicode(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range norm.NFKD.String(strings.ToValidUTF8(s, "\uFFFD")) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		r = unicode.ToLower(r)
		if isApostrophe(r) {
			r = '\''
		}
		if repl, ok := foldExtra[r]; ok {
			b.WriteString(repl)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Fold removes diacritics and maps letters such as ø and ß to their plain
// spellings, keeping case and everything else: "Séverine" → "Severine".
// The index stores folded text and folds queries alike, so search ignores
// diacritics the way lookup does.
func Fold(s string) string {
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFKD.String(strings.ToValidUTF8(s, "\uFFFD")) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if repl, ok := foldExtra[unicode.ToLower(r)]; ok {
			if unicode.IsUpper(r) {
				repl = strings.ToUpper(repl[:1]) + repl[1:]
			}
			b.WriteString(repl)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func normalizeASCII(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		if ('A' <= c && c <= 'Z') || c == '`' || (sp && (c != ' ' || prevSpace)) {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '`':
			// The slow path folds a backtick typed as an apostrophe; a name
			// must normalize alike whichever path it takes.
			c = '\''
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '′', '`':
		return true
	}
	return false
}

// StripPossessive removes a possessive ending from a normalized name:
// "mara's" → "mara", "thomas'" → "thomas". It returns the name unchanged
// and false when there is none.
func StripPossessive(n string) (string, bool) {
	switch {
	case strings.HasSuffix(n, "'s") && len(n) > 2:
		return n[:len(n)-2], true
	case strings.HasSuffix(n, "s'") && len(n) > 2:
		return n[:len(n)-1], true
	}
	return n, false
}
