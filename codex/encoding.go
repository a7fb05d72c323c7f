package codex

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeText turns a book file's bytes into the UTF-8 text quire reads.
// A file that starts with a UTF-16 byte-order mark (Windows Notepad's
// "Unicode" and "Unicode big endian") is decoded, its mark dropped; any
// other file is returned as it is. Positions in the decoded text count
// the same characters an editor shows for the file, so ranges quire
// sends back land on the same words. An odd last byte, or a lone
// surrogate, becomes U+FFFD rather than an error: the rest of the text
// still reads.
func DecodeText(data []byte) []byte {
	var be bool
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		be = true
	default:
		return data
	}
	body := data[2:]
	units := make([]uint16, len(body)/2)
	for i := range units {
		a, b := uint16(body[2*i]), uint16(body[2*i+1])
		if be {
			units[i] = a<<8 | b
		} else {
			units[i] = b<<8 | a
		}
	}
	out := make([]byte, 0, len(body)+len(body)/2)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	if len(body)%2 == 1 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// LoneCRToLF is text with every CR that no LF follows (the line end of
// classic Mac OS, and of some exports) made an LF. Editors and LSP take
// a lone CR for a line break; quire's readers look for LF. The text
// keeps its length, so every byte offset still lands where it did;
// text with no lone CR is returned as it is, unallocated.
func LoneCRToLF[T ~string | ~[]byte](text T) T {
	// Every chapter of a warm start comes through here: the CRs are
	// found with the library's vectorised search, not byte by byte, and
	// a CRLF file (a Windows writer's) costs one search per line.
	first := -1
	for from := 0; ; {
		i := indexCR(text[from:])
		if i < 0 {
			break
		}
		i += from
		if i+1 == len(text) || text[i+1] != '\n' {
			first = i
			break
		}
		from = i + 2
	}
	if first < 0 {
		return text
	}
	out := []byte(text)
	for i := first; i < len(out); i++ {
		if out[i] == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return T(out)
}

// indexCR is the offset of the first CR in text, or -1.
func indexCR[T ~string | ~[]byte](text T) int {
	switch t := any(text).(type) {
	case string:
		return strings.IndexByte(t, '\r')
	case []byte:
		return bytes.IndexByte(t, '\r')
	}
	for i := 0; i < len(text); i++ {
		if text[i] == '\r' {
			return i
		}
	}
	return -1
}
