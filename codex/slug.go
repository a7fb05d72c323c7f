package codex

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Slug is the file name, less ".md", quire gives a new entry called
// name: its letters and digits in lower case, each run of anything else
// one dash, at most maxRunes runes. Latin letters lose their accents
// ("Séverine Aubrac": severine-aubrac); other scripts are kept as they
// are written ("Анна Каренина": анна-каренина), so that a codex in
// Russian or Greek gets a file per entry rather than one name for all.
// "" when name holds no letter or digit.
func Slug(name string, maxRunes int) string {
	var b strings.Builder
	runes, dash := 0, false
	for _, r := range norm.NFC.String(strings.ToValidUTF8(name, "")) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			dash = runes > 0
			continue
		}
		part := string(unicode.ToLower(r))
		if unicode.Is(unicode.Latin, r) {
			part = Normalize(part)
		}
		for _, p := range part {
			if runes == maxRunes {
				return b.String()
			}
			if dash {
				if runes+1 == maxRunes {
					return b.String()
				}
				b.WriteByte('-')
				runes++
				dash = false
			}
			b.WriteRune(p)
			runes++
		}
	}
	return b.String()
}
