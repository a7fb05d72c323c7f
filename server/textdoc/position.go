package textdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Positions on the wire count UTF-16 code units within a line (LSP's
// default encoding, and the only one quire offers); the domain packages
// count bytes. This file is the one place that converts between the two.
//
// Rules, in one place so every feature agrees:
//
//   - \n, \r\n and \r each end a line, as LSP says; \r\n is one break, so
//     no position addresses the byte between \r and \n.
//   - A character past the end of its line means the end of that line
//     (before its break). The LSP spec asks for this, and clients do send
//     it, e.g. after a line was shortened.
//   - A character in the middle of a surrogate pair means the start of that
//     character: an offset never lands inside a UTF-8 sequence, so slicing
//     the text with it can never produce broken UTF-8.
//   - The position {line: lineCount, character: 0}, one line past the last,
//     means the end of the text. Clients use it for "end of document" when
//     the text has no final newline (gopls accepts it for the same reason).
//   - Any other line past the last is reported as an error, together with
//     the offset clamped to len(text): a feature answering a query may use
//     the clamped offset, a text edit must not (the client and server
//     disagree about the document, and guessing would corrupt it).
//   - Invalid UTF-8 does not panic: each invalid byte counts as one UTF-16
//     unit, which is what a client that decoded the bytes as U+FFFD sees.

// Lines maps between byte offsets and LSP positions of one text. It is
// built once per document version and never changes, so any number of
// requests may share it without locks.
type Lines struct {
	text string
	// starts holds the byte offset where each line begins; starts[0] is 0
	// and there is always at least one line, even in an empty text.
	starts []int
	// ascii records lines made only of ASCII bytes. Prose is mostly ASCII,
	// and on such a line a UTF-16 column is a byte count, so lookups skip
	// decoding.
	ascii []bool
}

func NewLines(text string) *Lines {
	// One line per ~40 bytes is typical prose; guessing avoids regrowing
	// the slices several times on a chapter.
	guess := len(text)/40 + 1
	ix := &Lines{text: text, starts: make([]int, 1, guess), ascii: make([]bool, 0, guess)}
	ix.starts, ix.ascii = scanLines(text, 0, len(text), true, ix.starts, ix.ascii)
	return ix
}

// scanLines indexes text[from:to], where from is the start of a line and
// to is the start of a line or the end of the text. It appends the start
// of every line that begins after from, up to and including to, and the
// ASCII flag of every line that begins in [from, to), and of the line
// that begins at to too when last says that one is the text's last.
func scanLines(text string, from, to int, last bool, starts []int, ascii []bool) ([]int, []bool) {
	isASCII := true
	for i := from; i < to; i++ {
		// Most eight-byte words of prose hold no line break, so they are
		// skipped whole; this makes indexing a chapter a few microseconds.
		if i+8 <= to {
			if w := load64(text, i); !hasByte(w, '\n') && !hasByte(w, '\r') {
				if w&highBits != 0 {
					isASCII = false
				}
				i += 7
				continue
			}
		}
		c := text[i]
		switch {
		case c >= utf8.RuneSelf:
			isASCII = false
		case c == '\n':
			ascii = append(ascii, isASCII)
			starts = append(starts, i+1)
			isASCII = true
		case c == '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			ascii = append(ascii, isASCII)
			starts = append(starts, i+1)
			isASCII = true
		}
	}
	if last {
		ascii = append(ascii, isASCII)
	}
	return starts, ascii
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// load64 reads eight bytes of s little-endian; the compiler turns this
// pattern into one load.
func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// hasByte reports whether any byte of w is b (the classic has-zero-byte
// trick applied to w XOR b repeated).
func hasByte(w uint64, b byte) bool {
	x := w ^ (lowBits * uint64(b))
	return (x-lowBits)&^x&highBits != 0
}

// LineCount is never zero: an empty text has one empty line.
func (ix *Lines) LineCount() int { return len(ix.starts) }

// LineStart is the byte offset where line i (from 0) starts.
func (ix *Lines) LineStart(i int) int { return ix.starts[i] }

// LineEnd is the byte offset where line i's content ends, before its break.
func (ix *Lines) LineEnd(i int) int {
	if i+1 >= len(ix.starts) {
		return len(ix.text)
	}
	end := ix.starts[i+1] - 1 // the last byte of the break
	if ix.text[end] == '\n' && end > ix.starts[i] && ix.text[end-1] == '\r' {
		end--
	}
	return end
}

// utf16Len is the number of UTF-16 units of the UTF-8 sequence of size
// bytes that starts a string. Only the four-byte sequences encode runes
// above U+FFFF, which take a surrogate pair; an invalid byte decodes with
// size 1 and so counts as one unit.
func utf16Len(size int) int {
	if size == 4 {
		return 2
	}
	return 1
}

// Offset returns the byte Offset of p, following the rules at the top of
// this file. The Offset is always within [0, len(text)] and on a rune
// boundary, even when err is non-nil; err reports a line past the end.
func (ix *Lines) Offset(p protocol.Position) (int, error) {
	n := len(ix.starts)
	if uint64(p.Line) >= uint64(n) {
		if uint64(p.Line) == uint64(n) && p.Character == 0 {
			return len(ix.text), nil
		}
		return len(ix.text), fmt.Errorf("line %d is past the end of the text (%d lines)", p.Line, n)
	}
	line := int(p.Line)
	start, end := ix.starts[line], ix.LineEnd(line)
	want := uint64(p.Character)
	if ix.ascii[line] {
		if want >= uint64(end-start) {
			return end, nil
		}
		return start + int(want), nil
	}
	var col uint64
	off := start
	for off < end {
		// Runs of ASCII, the bulk of a line even when it holds a dash or
		// a quote, advance eight units at a time.
		if off+8 <= end && want-col >= 8 && load64(ix.text, off)&highBits == 0 {
			off += 8
			col += 8
			continue
		}
		if ix.text[off] < utf8.RuneSelf {
			if col >= want {
				break
			}
			col++
			off++
			continue
		}
		_, size := utf8.DecodeRuneInString(ix.text[off:end])
		// Stopping when the next character would overshoot handles both
		// "exactly here" and "inside a surrogate pair" (snap to its start).
		next := col + uint64(utf16Len(size))
		if next > want {
			break
		}
		col = next
		off += size
	}
	return off, nil
}

// Position returns the LSP Position of a byte offset. The offset is clamped
// to [0, len(text)]; one inside a UTF-8 sequence, or between the \r and \n
// of a break, snaps back to the start of that character or break.
func (ix *Lines) Position(off int) protocol.Position {
	off = max(0, min(off, len(ix.text)))
	line, found := slices.BinarySearch(ix.starts, off)
	if !found {
		line--
	}
	start, end := ix.starts[line], ix.LineEnd(line)
	off = min(off, end)
	if ix.ascii[line] {
		return protocol.Position{Line: uint32(line), Character: uint32(off - start)}
	}
	col := 0
	for o := start; o < off; {
		if o+8 <= off && load64(ix.text, o)&highBits == 0 {
			o += 8
			col += 8
			continue
		}
		if ix.text[o] < utf8.RuneSelf {
			o++
			col++
			continue
		}
		_, size := utf8.DecodeRuneInString(ix.text[o:end])
		if o+size > off {
			break
		}
		col += utf16Len(size)
		o += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// RangeOf converts a byte span to an LSP range. Each end is converted on its
// own, so callers pass start <= end.
func (ix *Lines) RangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: ix.Position(start), End: ix.Position(end)}
}

// ErrInvalidRange marks a change whose range does not fit the document the
// server holds. It means client and server disagree about the text, so the
// caller keeps its text and asks for a full resync rather than guessing.
var ErrInvalidRange = errors.New("invalid range")

type RangeError struct {
	rng    protocol.Range
	reason string
}

func (e *RangeError) Error() string {
	r := e.rng
	return fmt.Sprintf("invalid range %d:%d-%d:%d: %s",
		r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, e.reason)
}

func (e *RangeError) Unwrap() error { return ErrInvalidRange }

// RangeOffsets converts a range for editing: unlike a query, an edit must
// not guess, so a line past the end or an inverted range is an error.
func (ix *Lines) RangeOffsets(r protocol.Range) (start, end int, err error) {
	if r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Character < r.Start.Character) {
		return 0, 0, &RangeError{r, "end before start"}
	}
	start, err = ix.Offset(r.Start)
	if err != nil {
		return 0, 0, &RangeError{r, "start " + err.Error()}
	}
	end, err = ix.Offset(r.End)
	if err != nil {
		return 0, 0, &RangeError{r, "end " + err.Error()}
	}
	// Clamping is monotonic, so ordered positions give ordered offsets;
	// checked anyway because slicing with inverted bounds would panic.
	if end < start {
		return 0, 0, &RangeError{r, "end before start"}
	}
	return start, end, nil
}

// WholeDocument is the range that marks a change as replacing the whole
// text.
//
// In protocol v0.12.0 TextDocumentContentChangeEvent.Range is a value, not
// a pointer, and its JSON tag lacks omitempty, so after decoding a change
// that had no "range" (LSP's whole-document form) looks exactly like an
// insertion at 0:0 with RangeLength 0. Guessing from that shape is wrong
// either way: treating it as a replacement turns a keystroke at the top of
// a chapter into a chapter made of that keystroke, and treating it as an
// insertion duplicates the chapter. So the presence of "range" is read from
// the JSON itself (decodeDidChangeParams) and recorded as this sentinel, a
// range no client sends because no document has 2^32-1 lines. A zero range
// is always what it says: an insertion (or replacement) at 0:0.
var WholeDocument = protocol.Range{
	End: protocol.Position{Line: math.MaxUint32, Character: math.MaxUint32},
}

// DecodeDidChangeParams decodes textDocument/didChange params, keeping what
// the library's own decoding loses: a change without "range" (or with
// "range": null) replaces the whole document and gets the wholeDocument
// range. Handlers must decode didChange with this, not with json.Unmarshal
// into protocol.DidChangeTextDocumentParams. A change without "text" is
// malformed and refused, since reading it as "" would empty the document.
func DecodeDidChangeParams(data []byte) (protocol.DidChangeTextDocumentParams, error) {
	var wire struct {
		TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		ContentChanges []struct {
			Range       *protocol.Range `json:"range"`
			RangeLength uint32          `json:"rangeLength"`
			Text        *string         `json:"text"`
		} `json:"contentChanges"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return protocol.DidChangeTextDocumentParams{}, fmt.Errorf("didChange params: %w", err)
	}
	params := protocol.DidChangeTextDocumentParams{
		TextDocument:   wire.TextDocument,
		ContentChanges: make([]protocol.TextDocumentContentChangeEvent, len(wire.ContentChanges)),
	}
	for i, ch := range wire.ContentChanges {
		if ch.Text == nil {
			return protocol.DidChangeTextDocumentParams{}, fmt.Errorf("didChange params: content change %d has no text", i)
		}
		ev := protocol.TextDocumentContentChangeEvent{Range: WholeDocument, Text: *ch.Text}
		if ch.Range != nil {
			ev.Range, ev.RangeLength = *ch.Range, ch.RangeLength
		}
		params.ContentChanges[i] = ev
	}
	return params, nil
}

// LineRange is the range of the 1-based line n's text; the start of the
// file when n is 0 or past the end.
func (ix *Lines) LineRange(n int) protocol.Range {
	if i := n - 1; i >= 0 && i < ix.LineCount() {
		return ix.RangeOf(ix.starts[i], ix.LineEnd(i))
	}
	return protocol.Range{}
}
