package snapshot

import "unicode/utf8"

// maxPieceBytes bounds one piece: a chapter with no blank line (a pasted
// file, a machine's output) is cut into pieces of at most this size, on
// a character boundary, so no record is unbounded.
const maxPieceBytes = 64 << 10

// Split cuts text into its paragraphs: each piece runs to the end of the
// blank lines after a paragraph, so the pieces joined are text exactly
// (line endings, trailing spaces and all). Linear in len(text).
func Split(text string) []string {
	var out []string
	start := 0
	inBlank := false
	for i := 0; i < len(text); {
		end := i
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if end < len(text) {
			end++ // the newline
		}
		blank := isBlank(text[i:end])
		if inBlank && !blank {
			out = appendPiece(out, text[start:i])
			start = i
		}
		inBlank = blank
		i = end
	}
	if start < len(text) {
		out = appendPiece(out, text[start:])
	}
	return out
}

// appendPiece appends p, in cuts of at most maxPieceBytes.
func appendPiece(out []string, p string) []string {
	for len(p) > maxPieceBytes {
		cut := maxPieceBytes
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		out = append(out, p[:cut])
		p = p[cut:]
	}
	return append(out, p)
}

func isBlank(line string) bool {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}
