package textdoc

import (
	"errors"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

var fuzzTexts = []string{
	"",
	"hello\nworld",
	"a\r\nb\rc\n",
	"a😀b\n中文\r\ne\u0301",
	"bad \xff\xe2\x82 bytes\n\xf0\x9f",
	"\r\r\n\n\r",
	"a longer line of plain prose — with a dash\r\nand “quotes” after sixteen bytes 😀 ok\rend",
}

func FuzzLineIndex(f *testing.F) {
	for i, s := range fuzzTexts {
		f.Add(s, uint32(i), uint16(i*3), i*5-1)
	}
	f.Fuzz(func(t *testing.T, text string, line uint32, char uint16, off int) {
		ix := NewLines(text)
		boundaries := runeBoundaries(text)

		// Keep most lines near the text so positions mostly exist.
		if n := uint32(ix.LineCount()); line > n+1 {
			line %= n + 2
		}
		p := pos(line, uint32(char))
		got, err := ix.Offset(p)
		ref, exact, ok := refOffset(text, p)
		if got < 0 || got > len(text) || !boundaries[got] {
			t.Fatalf("offset(%v) = %d: not a rune boundary in [0,%d]", p, got, len(text))
		}
		if got != ref || (err == nil) != ok {
			t.Fatalf("offset(%v) = %d, %v; reference %d, ok=%v", p, got, err, ref, ok)
		}
		q := ix.Position(got)
		if exact && q != p {
			t.Fatalf("position(offset(%v)) = %v", p, q)
		}
		if back, err := ix.Offset(q); err != nil || back != got {
			t.Fatalf("offset(position(%d)) = %d, %v", got, back, err)
		}

		// Any offset, in range or not, maps to a position that maps back
		// to a boundary at or before it.
		if off < -1 || off > len(text)+1 {
			off = off%(len(text)+3) - 1
		}
		q = ix.Position(off)
		back, err := ix.Offset(q)
		if err != nil || !boundaries[back] || back > max(0, min(off, len(text))) {
			t.Fatalf("offset(position(%d)) = %d, %v via %v", off, back, err, q)
		}
	})
}

func FuzzApplyChanges(f *testing.F) {
	for i, s := range fuzzTexts {
		f.Add(s, "x", "😀\n", uint16(0), uint16(i), uint16(1), uint16(2), uint16(i), uint16(0), uint16(i), uint16(1), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, text, ins1, ins2 string, l1, c1, l2, c2, l3, c3, l4, c4 uint16, whole bool) {
		changes := []protocol.TextDocumentContentChangeEvent{
			{Range: rng(uint32(l1), uint32(c1), uint32(l2), uint32(c2)), Text: ins1},
			{Range: rng(uint32(l3), uint32(c3), uint32(l4), uint32(c4)), Text: ins2},
		}
		if whole {
			changes[0].Range = WholeDocument
		}

		// The expected result, from the naive reference. Lines are folded
		// into a little past the current text so that most ranges are
		// valid, which is where the interesting work happens.
		want, valid := text, true
		for i := range changes {
			r := &changes[i].Range
			if *r == WholeDocument {
				want = changes[i].Text
				continue
			}
			n := uint32(NewLines(want).LineCount())
			for _, l := range []*uint32{&r.Start.Line, &r.End.Line} {
				*l %= n + 2
			}
			start, _, ok1 := refOffset(want, r.Start)
			end, _, ok2 := refOffset(want, r.End)
			inverted := r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Character < r.Start.Character)
			if !ok1 || !ok2 || inverted {
				valid = false
				break
			}
			want = want[:start] + changes[i].Text + want[end:]
		}

		got, err := ApplyChanges(text, changes)
		if !valid {
			if err == nil || !errors.Is(err, ErrInvalidRange) || got != text {
				t.Fatalf("invalid batch: got %q, %v; want the original text and an invalid-range error", got, err)
			}
			return
		}
		if err != nil || got != want {
			t.Fatalf("applyChanges = %q, %v; want %q", got, err, want)
		}
		if utf8.ValidString(text) && utf8.ValidString(ins1) && utf8.ValidString(ins2) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 in, invalid out: %q", got)
		}
	})
}
