package dialoguebench

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Curly is text with its straight quotation marks made typographic, as
// a word processor's smart quotes make them while one types: a double
// mark opens (“) at the start of the text, after white space, an opening
// bracket, another opening mark or a dash that words follow, and closes
// (”) anywhere else (after a dash that broke speech off, "I--");
// a single mark does the same (‘ ’), except that one inside a word, at a
// word's end or before an elided word ('em, 'tis, '92) is an apostrophe
// (’). A double mark with white space on both sides, which a text that
// lost its apostrophes has (PDNC's "title of  A Study in Scarlet. "),
// closes when its paragraph has an open one before it. Shift maps
// offsets into text to offsets into the copy.
func Curly(text string) (string, Shift) {
	var b strings.Builder
	b.Grow(len(text) + len(text)/20)
	var sh Shift
	inside := false // an odd number of double marks so far in the paragraph
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			// A blank line next ends the paragraph.
			if j := strings.IndexByte(text[i+1:], '\n'); j >= 0 && strings.TrimSpace(text[i+1:i+1+j]) == "" {
				inside = false
			}
		}
		if c != '"' && c != '\'' {
			b.WriteByte(c)
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+1:])
		opens := i == 0 || unicode.IsSpace(before) || strings.ContainsRune("([{<—–-‘“", before)
		if strings.ContainsRune("—–-", before) {
			// After a dash, a mark opens speech that follows it
			// (--"Yes.") and closes speech the dash broke off ("I--").
			opens = unicode.IsLetter(after) || unicode.IsDigit(after) || strings.ContainsRune("'‘\"“_", after)
		}
		if c == '"' {
			if opens && i+1 < len(text) && unicode.IsSpace(after) {
				opens = !inside
			}
			inside = !inside
		}
		switch {
		case c == '"' && opens:
			b.WriteString("“")
		case c == '"':
			b.WriteString("”")
		case opens && !elision(text[i+1:]):
			b.WriteString("‘")
		default:
			b.WriteString("’")
		}
		sh.at = append(sh.at, i)
	}
	return b.String(), sh
}

// elision reports whether rest, the text after a single mark that could
// open a quotation, is a word that elides its start ("em", "tis") or a
// year ("92").
func elision(rest string) bool {
	end := 0
	for end < len(rest) && (rest[end] >= 'a' && rest[end] <= 'z' || rest[end] >= 'A' && rest[end] <= 'Z' || rest[end] >= '0' && rest[end] <= '9') {
		end++
	}
	if end == 0 {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(rest[end:]); unicode.IsLetter(r) {
		return false
	}
	w := strings.ToLower(rest[:end])
	if w[0] >= '0' && w[0] <= '9' {
		return len(w) == 2
	}
	// The words English prints with a leading apostrophe.
	switch w {
	case "em", "tis", "twas", "twere", "twill", "twould", "cause", "til", "bout", "n", "ere", "im", "er", "ow", "e":
		return true
	}
	return false
}

// Shift maps offsets into a text to offsets into its curly copy: each
// straight mark (one byte) became a curly one (three).
type Shift struct {
	at []int // the offsets of the marks replaced, ascending
}

// Map is the offset in the copy of offset i of the original.
func (s Shift) Map(i int) int {
	n := sort.SearchInts(s.at, i) // marks before i
	return i + 2*n
}
