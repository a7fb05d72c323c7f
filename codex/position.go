package codex

import "unicode/utf8"

// LineColumn converts a byte offset in src to a 1-based line and a 1-based
// column counted in characters, for messages a person reads. Offsets past
// the end clamp to the end.
func LineColumn(src string, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off]) + 1
}
