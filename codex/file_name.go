package codex

import (
	"strconv"
	"strings"
	"unicode"
)

// FileNameProblem is the warning for a book file whose name holds a
// control character (a line break, a tab, an escape code): the file is
// read, but terminals, logs and other programs show such a name wrongly
// or act on it, so the writer is asked to rename it.
func FileNameProblem(rel string) (Problem, bool) {
	if !strings.ContainsFunc(rel, unsafeInName) {
		return Problem{}, false
	}
	return Problem{Path: rel, Code: CodeFileName, Severity: SeverityWarning,
		Message: "the file name " + PrintableName(rel) + " holds a control character (a line break, tab or escape code), which other programs show wrongly; rename the file"}, true
}

// PrintableName is a file name (or any text that came from a book) made
// safe to print on one line of a terminal or a log: control characters,
// Unicode line and paragraph separators and the marks that reorder text
// (bidi overrides) are written as Go escapes (\n, \x1b, \u202e).
// Anything else, accents and other scripts included, is kept, and so are
// backslashes: Windows paths are printed too.
func PrintableName(s string) string {
	if !strings.ContainsFunc(s, unsafeInName) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case unsafeInName(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeInName is a character that changes how the text around it is
// shown: C0 and C1 controls, DEL, U+2028/U+2029, and the bidirectional
// embeddings, overrides and isolates.
func unsafeInName(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
		return true
	}
	return false
}
