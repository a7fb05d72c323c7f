package textdoc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

func pos(line, char uint32) protocol.Position {
	return protocol.Position{Line: line, Character: char}
}

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: pos(l1, c1), End: pos(l2, c2)}
}

// refOffset is a deliberately naive reference for lineIndex.offset: it walks
// the whole text rune by rune. exact reports that p names a character
// boundary that exists (not past the line end, not inside a surrogate pair),
// i.e. that position(offset(p)) must give p back. ok is false for a line
// past the end (other than the end-of-text position lineCount:0).
func refOffset(text string, p protocol.Position) (off int, exact, ok bool) {
	line := uint32(0)
	for off < len(text) && line < p.Line {
		switch text[off] {
		case '\r':
			if off+1 < len(text) && text[off+1] == '\n' {
				off++
			}
			line++
		case '\n':
			line++
		}
		off++
	}
	if line < p.Line {
		// lineCount:0 is accepted as an alias of the end of the text;
		// position gives the canonical form back, so it is not exact.
		return len(text), false, line+1 == p.Line && p.Character == 0
	}
	col := uint32(0)
	for off < len(text) && text[off] != '\n' && text[off] != '\r' {
		r, size := utf8.DecodeRuneInString(text[off:])
		w := uint32(1)
		if size == 4 && r != utf8.RuneError {
			w = 2
		}
		if col+w > p.Character {
			break
		}
		col += w
		off += size
	}
	return off, col == p.Character, true
}

// runeBoundaries is every offset a position may map to: rune starts as a
// forward UTF-8 walk sees them (an invalid byte is its own rune), plus
// len(text).
func runeBoundaries(text string) map[int]bool {
	b := map[int]bool{len(text): true}
	for off := 0; off < len(text); {
		b[off] = true
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	return b
}

func TestLineIndexOffset(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		pos     protocol.Position
		want    int
		wantErr bool
	}{
		{"empty text", "", pos(0, 0), 0, false},
		{"empty text past line end", "", pos(0, 5), 0, false},
		{"empty text end-of-text line", "", pos(1, 0), 0, false},
		{"empty text past last line", "", pos(1, 1), 0, true},
		{"ascii start", "hello\nworld", pos(0, 0), 0, false},
		{"ascii middle", "hello\nworld", pos(0, 3), 3, false},
		{"ascii line end", "hello\nworld", pos(0, 5), 5, false},
		{"ascii past line end clamps before LF", "hello\nworld", pos(0, 99), 5, false},
		{"ascii second line", "hello\nworld", pos(1, 2), 8, false},
		{"ascii last line end", "hello\nworld", pos(1, 5), 11, false},
		{"end-of-text line without final newline", "hello\nworld", pos(2, 0), 11, false},
		{"past last line", "hello\nworld", pos(3, 0), 11, true},
		{"end-of-text line with a character", "hello\nworld", pos(2, 1), 11, true},
		{"huge line", "hello", pos(1<<32-1, 1<<32-1), 5, true},
		{"trailing newline: empty last line", "hello\n", pos(1, 0), 6, false},
		{"trailing newline: past its end", "hello\n", pos(1, 4), 6, false},
		{"trailing newline: end-of-text line", "hello\n", pos(2, 0), 6, false},
		{"crlf first line end", "ab\r\ncd", pos(0, 2), 2, false},
		{"crlf past line end clamps before CR", "ab\r\ncd", pos(0, 9), 2, false},
		{"crlf second line", "ab\r\ncd", pos(1, 1), 5, false},
		{"crlf empty lines", "\r\n\r\nx", pos(2, 1), 5, false},
		{"lone cr ends a line", "ab\rcd", pos(1, 0), 3, false},
		{"lone cr past line end", "ab\rcd", pos(0, 7), 2, false},
		{"lf cr is two breaks", "a\n\rb", pos(2, 0), 3, false},
		{"cr cr is two breaks", "a\r\rb", pos(2, 1), 4, false},
		{"trailing cr", "a\r", pos(1, 0), 2, false},
		{"emoji before", "a😀b", pos(0, 1), 1, false},
		{"emoji after", "a😀b", pos(0, 3), 5, false},
		{"emoji middle of surrogate pair snaps back", "a😀b", pos(0, 2), 1, false},
		{"emoji end", "a😀b", pos(0, 4), 6, false},
		{"emoji past end", "a😀b", pos(0, 40), 6, false},
		{"two emoji", "😀😀", pos(0, 2), 4, false},
		{"two emoji second middle", "😀😀", pos(0, 3), 4, false},
		{"cjk one unit three bytes", "中文字", pos(0, 2), 6, false},
		{"cjk end", "中文字", pos(0, 3), 9, false},
		{"combining mark is its own unit", "e\u0301x", pos(0, 1), 1, false},
		{"after combining mark", "e\u0301x", pos(0, 2), 3, false},
		{"curly quotes and dash", "“Mara”—", pos(0, 6), 10, false},
		{"non-ascii second line, ascii first", "abc\nü😀z", pos(1, 3), 10, false},
		{"invalid byte counts as one unit", "a\xffb", pos(0, 2), 2, false},
		{"truncated sequence: each byte one unit", "\xe2\x82x", pos(0, 2), 2, false},
		{"encoded U+FFFD is one unit", "\uFFFDx", pos(0, 1), 3, false},
		{"invalid byte then crlf", "\xff\r\nz", pos(1, 0), 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := NewLines(tt.text)
			got, err := ix.Offset(tt.pos)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
			ref, _, ok := refOffset(tt.text, tt.pos)
			assert.Equal(t, tt.want, ref, "reference disagrees with the table")
			assert.Equal(t, !tt.wantErr, ok, "reference disagrees about validity")
		})
	}
}

func TestLineIndexPosition(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int
		want protocol.Position
	}{
		{"empty", "", 0, pos(0, 0)},
		{"negative clamps", "abc", -3, pos(0, 0)},
		{"past end clamps", "abc", 99, pos(0, 3)},
		{"ascii", "ab\ncd", 4, pos(1, 1)},
		{"before LF", "ab\ncd", 2, pos(0, 2)},
		{"after LF", "ab\ncd", 3, pos(1, 0)},
		{"between CR and LF snaps to the CR", "ab\r\ncd", 3, pos(0, 2)},
		{"after CRLF", "ab\r\ncd", 4, pos(1, 0)},
		{"after lone CR", "ab\rcd", 3, pos(1, 0)},
		{"trailing newline", "ab\n", 3, pos(1, 0)},
		{"after emoji", "a😀b", 5, pos(0, 3)},
		{"inside emoji snaps to its start", "a😀b", 3, pos(0, 1)},
		{"inside cjk snaps to its start", "中文", 4, pos(0, 1)},
		{"after cjk", "中文", 6, pos(0, 2)},
		{"combining", "e\u0301x", 3, pos(0, 2)},
		{"invalid bytes", "\xff\xfe\n\xc3", 4, pos(1, 1)},
		{"end of text", "x\n😀", 6, pos(1, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, NewLines(tt.text).Position(tt.off))
		})
	}
}

func TestLineIndexRoundTrip(t *testing.T) {
	texts := []string{
		"",
		"\n",
		"\r\n",
		"\r",
		"plain ascii line\nand another\n",
		"windows\r\nline\r\nends",
		"old mac\rline\rends\r",
		"mixed\n\r\r\n\n\rend",
		"😀 grinning, 中文, é and e\u0301 — “quoted”\n🎉🎉\nlast",
		"bad \xff bytes \xe2\x82 here\n\xf0\x9f\n",
	}
	for _, text := range texts {
		t.Run(fmt.Sprintf("%q", text), func(t *testing.T) {
			ix := NewLines(text)
			boundaries := runeBoundaries(text)
			// Every position that names an existing boundary survives
			// offset then position; every other one is normalised, and
			// normalising twice changes nothing.
			for line := uint32(0); line <= uint32(ix.LineCount())+1; line++ {
				for char := uint32(0); char < 40; char++ {
					p := pos(line, char)
					off, err := ix.Offset(p)
					ref, exact, ok := refOffset(text, p)
					require.Equal(t, ref, off, "offset(%v)", p)
					require.Equal(t, ok, err == nil, "offset(%v) error %v", p, err)
					require.True(t, boundaries[off], "offset(%v) = %d is inside a rune", p, off)
					q := ix.Position(off)
					if exact {
						require.Equal(t, p, q, "position(offset(%v))", p)
					}
					off2, err := ix.Offset(q)
					require.NoError(t, err)
					require.Equal(t, off, off2, "offset(position(offset(%v)))", p)
				}
			}
			// Every boundary offset survives position then offset, except
			// the one between \r and \n, which no position names.
			for off := 0; off <= len(text); off++ {
				back, err := ix.Offset(ix.Position(off))
				require.NoError(t, err)
				require.True(t, boundaries[back])
				require.LessOrEqual(t, back, off)
				crlf := off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n'
				if boundaries[off] && !crlf {
					require.Equal(t, off, back, "offset %d", off)
				}
			}
		})
	}
}

// The eight-byte fast paths only engage on long runs, which the short
// table texts barely have; real prose checks them against the reference.
func TestLineIndexProse(t *testing.T) {
	text := chapter()[:6000] + "\r\n" + strings.Repeat("ascii only, no breaks ", 20) + "\r" + chapter()[:500]
	ix := NewLines(text)
	boundaries := runeBoundaries(text)
	for line := uint32(0); line <= uint32(ix.LineCount()); line++ {
		for char := uint32(0); char < 700; char += 3 {
			p := pos(line, char)
			got, err := ix.Offset(p)
			ref, exact, ok := refOffset(text, p)
			require.Equal(t, ref, got, "offset(%v)", p)
			require.Equal(t, ok, err == nil)
			if exact {
				require.Equal(t, p, ix.Position(got))
			}
		}
	}
	for off := 0; off <= len(text); off++ {
		back, err := ix.Offset(ix.Position(off))
		require.NoError(t, err)
		if boundaries[off] && !(off > 0 && text[off-1] == '\r' && off < len(text) && text[off] == '\n') {
			require.Equal(t, off, back)
		}
	}
}

func TestLineIndexRangeOf(t *testing.T) {
	text := "Mara 😀 walked\r\nto the 港.\n"
	ix := NewLines(text)
	start := strings.Index(text, "walked")
	end := strings.Index(text, "港") + len("港")
	assert.Equal(t, rng(0, 8, 1, 8), ix.RangeOf(start, end))
	assert.Equal(t, rng(2, 0, 2, 0), ix.RangeOf(len(text), len(text)))
}

func TestLineIndexLineCount(t *testing.T) {
	for text, want := range map[string]int{
		"": 1, "a": 1, "a\n": 2, "a\r\n": 2, "a\r": 2, "\n\n": 3, "\r\n\r": 3, "a\n\rb": 3,
	} {
		assert.Equal(t, want, NewLines(text).LineCount(), "%q", text)
	}
}

func change(r protocol.Range, text string) protocol.TextDocumentContentChangeEvent {
	return protocol.TextDocumentContentChangeEvent{Range: r, Text: text}
}

func TestApplyChanges(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		changes []protocol.TextDocumentContentChangeEvent
		want    string
	}{
		{"no changes", "abc", nil, "abc"},
		{"insert", "Mara walked.", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 4, 0, 4), " Vell")}, "Mara Vell walked."},
		{"insert at 0:0 is an insertion, not a replacement", "walked.", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 0, 0), "Mara ")}, "Mara walked."},
		{"first keystroke in an empty document", "", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 0, 0), "M")}, "M"},
		{"delete", "Mara Vell walked.", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 4, 0, 9), "")}, "Mara walked."},
		{"replace across lines", "one\ntwo\nthree\n", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 1, 2, 2), "X")}, "oXree\n"},
		{"replace across crlf lines", "one\r\ntwo\r\nthree", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 3, 1, 3), "")}, "one\r\nthree"},
		{"join lines by deleting a crlf", "ab\r\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 2, 1, 0), "")}, "abcd"},
		{"insert emoji then edit after it", "ab", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 1, 0, 1), "😀"),
			change(rng(0, 3, 0, 4), "B"), // "a😀b": 'b' is at units 3-4
		}, "a😀B"},
		{"edit after cjk", "港口 harbor", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 3, 0, 9), "port")}, "港口 port"},
		{"several changes, each against the previous result", "hello world", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 0, 5), "goodbye"),
			change(rng(0, 8, 0, 13), "moon"),
			change(rng(0, 12, 0, 12), "\nnext line"),
			change(rng(1, 0, 1, 4), "last"),
		}, "goodbye moon\nlast line"},
		{"typing a newline then on the new line", "ab", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 1, 0, 1), "\n"),
			change(rng(1, 0, 1, 0), "X"),
		}, "a\nXb"},
		{"character past line end clamps (spec)", "ab\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 10, 0, 12), "!")}, "ab!\ncd"},
		{"append at end-of-text line", "ab", []protocol.TextDocumentContentChangeEvent{
			change(rng(1, 0, 1, 0), "\n")}, "ab\n"},
		{"delete to end-of-text line", "ab\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 2, 2, 0), "")}, "ab"},
		{"range into a surrogate pair snaps to the character start", "a😀b", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 2, 0, 2), "x")}, "ax😀b"},
		{"whole document replacement", "old text\nhere", []protocol.TextDocumentContentChangeEvent{
			change(WholeDocument, "new")}, "new"},
		{"whole document then incremental", "old", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 0, 3), "zzz"),
			change(WholeDocument, "new\ntext"),
			change(rng(1, 0, 1, 0), "more "),
		}, "new\nmore text"},
		{"rangeLength is ignored", "abcdef", []protocol.TextDocumentContentChangeEvent{
			{Range: rng(0, 1, 0, 3), RangeLength: 99, Text: "X"}}, "aXdef"},
		{"invalid utf-8 does not panic", "\xff\xfe\n\xc3", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 1, 1, 1), "ok")}, "\xffok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyChanges(tt.text, tt.changes)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestApplyChangesInvalid(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		changes []protocol.TextDocumentContentChangeEvent
		wantMsg string
	}{
		{"inverted on one line", "abcdef", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 4, 0, 2), "x")}, "content change 1 of 1: invalid range 0:4-0:2: end before start"},
		{"inverted across lines", "ab\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(1, 0, 0, 1), "x")}, "invalid range 1:0-0:1: end before start"},
		{"start past last line", "ab\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(5, 0, 5, 0), "x")}, "invalid range 5:0-5:0: start line 5 is past the end of the text (2 lines)"},
		{"end past last line", "ab\ncd", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 7, 3), "x")}, "invalid range 0:0-7:3: end line 7 is past the end of the text (2 lines)"},
		{"end-of-text line with a character", "ab", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 1, 1), "")}, "invalid range 0:0-1:1"},
		{"later change invalid against the changed text", "a\nb\nc", []protocol.TextDocumentContentChangeEvent{
			change(rng(0, 0, 2, 1), "x"), // now one line
			change(rng(2, 0, 2, 0), "y"),
		}, "content change 2 of 2: invalid range 2:0-2:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyChanges(tt.text, tt.changes)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalidRange))
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Equal(t, tt.text, got, "the original text comes back untouched")
		})
	}
}

func TestDecodeDidChangeParams(t *testing.T) {
	raw := `{
		"textDocument": {"uri": "file:///book/manuscript/01-harbor.md", "version": 7},
		"contentChanges": [
			{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "A"},
			{"text": "whole\ndocument"},
			{"range": null, "text": "again whole"},
			{"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 4}}, "rangeLength": 2, "text": ""}
		]
	}`
	params, err := DecodeDidChangeParams([]byte(raw))
	require.NoError(t, err)
	assert.Equal(t, protocol.DocumentURI("file:///book/manuscript/01-harbor.md"), params.TextDocument.URI)
	assert.Equal(t, int32(7), params.TextDocument.Version)
	require.Len(t, params.ContentChanges, 4)
	assert.Equal(t, change(rng(0, 0, 0, 0), "A"), params.ContentChanges[0], "a zero range stays an insertion at 0:0")
	assert.Equal(t, change(WholeDocument, "whole\ndocument"), params.ContentChanges[1])
	assert.Equal(t, change(WholeDocument, "again whole"), params.ContentChanges[2])
	assert.Equal(t, protocol.TextDocumentContentChangeEvent{Range: rng(1, 2, 1, 4), RangeLength: 2}, params.ContentChanges[3])

	got, err := ApplyChanges("ignored", params.ContentChanges[:2])
	require.NoError(t, err)
	assert.Equal(t, "whole\ndocument", got)

	for name, bad := range map[string]string{
		"not json":       `{"textDocument":`,
		"missing text":   `{"textDocument": {"uri": "file:///a", "version": 1}, "contentChanges": [{"range": null}]}`,
		"range mistyped": `{"textDocument": {"uri": "file:///a", "version": 1}, "contentChanges": [{"range": 3, "text": ""}]}`,
	} {
		_, err := DecodeDidChangeParams([]byte(bad))
		assert.Error(t, err, name)
	}
}

// chapter is about 5,000 words (~30 KB) of prose with the non-ASCII a
// novel has: curly quotes, dashes, accents, CJK names, the odd emoji, and
// one paragraph per line as Markdown editors keep it.
func chapter() string {
	sentences := []string{
		"Mara Vell walked down to the harbor before the bells rang.",
		"“You’re late,” said Ilse Dorn — she did not look up from the nets.",
		"The café on the quay served coffee that tasted of tar and salt.",
		"Somewhere a gull cried; the tide was turning, slow and grey.",
		"Old 港口 charts hung over the counter, their ink gone brown.",
		"She laughed 😀 and the sound surprised both of them.",
		"Nobody in Port Sévigné remembered the last winter the bay froze.",
	}
	var b strings.Builder
	words := 0
	for i := 0; words < 5000; i++ {
		s := sentences[i%len(sentences)]
		b.WriteString(s)
		words += len(strings.Fields(s))
		if i%5 == 4 {
			b.WriteString("\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func BenchmarkLineIndex(b *testing.B) {
	text := chapter()
	lines := NewLines(text).LineCount()
	lookups := make([]protocol.Position, 1000)
	for i := range lookups {
		lookups[i] = pos(uint32(i*7919%lines), uint32(i*31%400))
	}
	b.Logf("chapter: %d bytes, %d lines", len(text), lines)

	b.Run("build", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			NewLines(text)
		}
	})
	b.Run("1000-offsets", func(b *testing.B) {
		ix := NewLines(text)
		for b.Loop() {
			for _, p := range lookups {
				_, _ = ix.Offset(p)
			}
		}
	})
	b.Run("build+1000-offsets", func(b *testing.B) {
		for b.Loop() {
			ix := NewLines(text)
			for _, p := range lookups {
				_, _ = ix.Offset(p)
			}
		}
	})
	b.Run("1000-positions", func(b *testing.B) {
		ix := NewLines(text)
		for b.Loop() {
			for i := range 1000 {
				ix.Position(i * 7919 % len(text))
			}
		}
	})
	b.Run("apply-keystroke", func(b *testing.B) {
		edit := []protocol.TextDocumentContentChangeEvent{change(rng(uint32(lines/2), 10, uint32(lines/2), 10), "x")}
		for b.Loop() {
			_, _ = ApplyChanges(text, edit)
		}
	})
}
