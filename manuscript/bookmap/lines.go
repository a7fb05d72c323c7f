package bookmap

import (
	"sort"
	"unicode/utf8"
)

// lineIndex finds the line and column of byte offsets in one text. A
// chapter has a first mention of each entry it names, and thousands of
// them at scale: scanning the text from the top for each, as
// codex.LineColumn does, would be quadratic.
type lineIndex struct {
	text   string
	starts []int
}

func newLineIndex(text string) lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return lineIndex{text: text, starts: starts}
}

// at is the line and column (both from 1, the column in characters) of
// the byte offset off, as codex.LineColumn gives them.
func (l lineIndex) at(off int) (line, column int) {
	off = max(0, min(off, len(l.text)))
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return i + 1, utf8.RuneCountInString(l.text[l.starts[i]:off]) + 1
}
