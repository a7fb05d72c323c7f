package textdoc

import (
	"fmt"
	"slices"

	"go.lsp.dev/protocol"
)

// A keystroke changes a few bytes of a chapter that may be megabytes
// long. Indexing the whole new text again for every keystroke made typing
// in an 11 MB chapter cost milliseconds before any feature ran; instead
// the lines around the edit are indexed again and the others are reused,
// their starts shifted. What remains in proportion to the chapter is
// copying it, and the line starts, once: both are single memory moves.

// Edit is the index of ix's text with text[start:end] replaced by ins.
// start <= end lie on rune boundaries of the text and never between the
// \r and \n of a break (offset guarantees both).
func (ix *Lines) Edit(start, end int, ins string) *Lines {
	text := ix.text[:start] + ins + ix.text[end:]
	delta := len(ins) - (end - start)
	// From the start of the line holding the byte before the edit: an
	// inserted \n may join a \r there into one break.
	first := ix.LineOf(max(start-1, 0))
	last := ix.LineOf(end)
	from := ix.starts[first]
	n := len(ix.starts)
	next := &Lines{text: text}
	next.starts = make([]int, 0, n+4)
	next.ascii = make([]bool, 0, n+4)
	next.starts = append(next.starts, ix.starts[:first+1]...)
	next.ascii = append(next.ascii, ix.ascii[:first]...)
	if last+1 >= n {
		// The edit reaches the last line: index to the end.
		next.starts, next.ascii = scanLines(text, from, len(text), true, next.starts, next.ascii)
		return next
	}
	// The break that ends the edit's last line lies after the edit, so
	// the line after it starts where it did, shifted; the bytes on both
	// sides of that start are unchanged.
	to := ix.starts[last+1] + delta
	next.starts, next.ascii = scanLines(text, from, to, false, next.starts, next.ascii)
	for _, s := range ix.starts[last+2:] {
		next.starts = append(next.starts, s+delta)
	}
	next.ascii = append(next.ascii, ix.ascii[last+1:]...)
	return next
}

// LineOf is the line holding the byte offset off, which is within
// [0, len(text)].
func (ix *Lines) LineOf(off int) int {
	line, found := slices.BinarySearch(ix.starts, off)
	if !found {
		line--
	}
	return line
}

// ApplyChanges applies didChange content changes in order, each against the
// text as changed so far (LSP's rule). A change with the wholeDocument range
// replaces the text. RangeLength is ignored: it is deprecated, and clients
// disagree on its unit, while the range is exact.
//
// On error, which wraps errInvalidRange and names the change and its range,
// the original text is returned unchanged and no change is applied: a
// half-applied batch would leave a text that matches neither version.
func ApplyChanges(text string, changes []protocol.TextDocumentContentChangeEvent) (string, error) {
	ix, err := NewLines(text).Apply(changes)
	if err != nil {
		return text, err
	}
	return ix.text, nil
}

// Apply is applyChanges on an index: the changed text comes back with
// its index, updated around each change rather than built again. On
// error ix stands, unchanged.
func (ix *Lines) Apply(changes []protocol.TextDocumentContentChangeEvent) (*Lines, error) {
	cur := ix
	for i, ch := range changes {
		if ch.Range == WholeDocument {
			cur = NewLines(ch.Text)
			continue
		}
		start, end, err := cur.RangeOffsets(ch.Range)
		if err != nil {
			return ix, fmt.Errorf("content change %d of %d: %w", i+1, len(changes), err)
		}
		cur = cur.Edit(start, end, ch.Text)
	}
	return cur, nil
}
