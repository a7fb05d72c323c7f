package textdoc

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// editPieces are what edits insert and texts are made of: the breaks
// that join or split (\r, \n, \r\n), multi-byte runes and plain words.
var editPieces = []string{"", "a", "word ", "\n", "\r", "\r\n", "\n\n", "é", "😀", "中文", "\xff", "long line of prose "}

// checkEdit asserts that editing ix's index around [start, end) gives the
// index of the new text built from scratch.
func checkEdit(t *testing.T, text string, start, end int, ins string) {
	t.Helper()
	ix := NewLines(text)
	// Offsets come from positions, as in apply: on rune boundaries and
	// never inside a \r\n.
	start, _ = ix.Offset(ix.Position(start))
	end, _ = ix.Offset(ix.Position(end))
	if end < start {
		start, end = end, start
	}
	got := ix.Edit(start, end, ins)
	want := NewLines(text[:start] + ins + text[end:])
	require.Equal(t, want.text, got.text)
	require.Equal(t, want.starts, got.starts, "starts after %q[%d:%d] = %q", text, start, end, ins)
	require.Equal(t, want.ascii, got.ascii, "ascii after %q[%d:%d] = %q", text, start, end, ins)
}

func TestLineIndexEditMatchesAFreshIndex(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		start, end int
		ins        string
	}{
		{"type a letter", "ab\ncd\nef", 4, 4, "x"},
		{"new line at the end", "ab\ncd", 5, 5, "\n"},
		{"\\n after a lone \\r joins it", "a\rb", 2, 2, "\n"},
		{"\\r before a \\n joins it", "ab\ncd", 2, 2, "\r"},
		{"deleting between \\r and \\n joins them", "a\rX\nb", 2, 3, ""},
		{"split a \\r\\n apart is not possible, insert before it", "ab\r\ncd", 2, 2, "z\r"},
		{"delete every break", "a\nb\r\nc\rd\n", 0, 10, "z"},
		{"empty text", "", 0, 0, "\r\n😀"},
		{"to empty", "a\nb", 0, 3, ""},
		{"non-ASCII line becomes ASCII", "ab\nç\nd", 3, 5, "c"},
		{"ASCII line gains an emoji", "ab\ncd\nef", 4, 4, "😀"},
		{"edit on a blank line", "ab\n\n\ncd", 4, 4, "\r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkEdit(t, tt.text, tt.start, tt.end, tt.ins)
		})
	}
}

func TestLineIndexEditRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	for range 20000 {
		var text string
		for range r.IntN(12) {
			text += editPieces[r.IntN(len(editPieces))]
		}
		var ins string
		for range r.IntN(3) {
			ins += editPieces[r.IntN(len(editPieces))]
		}
		start, end := r.IntN(len(text)+1), r.IntN(len(text)+1)
		checkEdit(t, text, start, end, ins)
	}
}

func FuzzLineIndexEdit(f *testing.F) {
	for i, s := range fuzzTexts {
		f.Add(s, i, i*3, editPieces[i%len(editPieces)])
	}
	f.Fuzz(func(t *testing.T, text string, start, end int, ins string) {
		if start < 0 || end < 0 {
			return
		}
		checkEdit(t, text, start%(len(text)+1), end%(len(text)+1), ins)
	})
}

// TestApplyKeepsTheIndexInStep types into a text change by change and
// compares the document's index with one built from its final text.
func TestApplyKeepsTheIndexInStep(t *testing.T) {
	ix := NewLines("# One\r\n\r\nMara went out.\rShe came back.\n")
	for i, ch := range []string{"x", "\n", "\r", "😀", "\r\n", "y"} {
		at := protocol.Position{Line: uint32(i % ix.LineCount()), Character: 2}
		next, err := ix.Apply([]protocol.TextDocumentContentChangeEvent{{Range: protocol.Range{Start: at, End: at}, Text: ch}})
		require.NoError(t, err)
		ix = next
		fresh := NewLines(ix.text)
		require.Equal(t, fresh.starts, ix.starts)
		require.Equal(t, fresh.ascii, ix.ascii)
	}
}
