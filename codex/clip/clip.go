// Package clip shortens text for display and for bounds, always on a
// character boundary: one helper per way of shortening, for every
// package of quire.
package clip

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis marks where text was cut.
const Ellipsis = "…"

// Bytes is the longest prefix of s of at most n bytes that splits no
// character: for a bound counted in bytes (a preview, a log field).
func Bytes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// BytesMarked is Bytes with an ellipsis after a cut: at most n bytes of
// s, then "…" when s was longer.
func BytesMarked(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Bytes(s, n) + Ellipsis
}

// Runes shortens s to at most n characters, the last an ellipsis when s
// was longer, for a label of a given width.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + Ellipsis
}

// Words shortens s to at most n bytes before an ellipsis, at the last
// space when one falls in the second half (else at a character
// boundary), without the punctuation the cut leaves dangling.
func Words(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = len(Bytes(s, n))
	}
	return strings.TrimRight(s[:cut], " ,;:") + Ellipsis
}
