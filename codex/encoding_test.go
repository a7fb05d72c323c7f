package codex_test

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

// utf16Bytes is s as Notepad saves "Unicode" (little endian) or "Unicode
// big endian": a byte-order mark, then two bytes a code unit.
func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestDecodeText(t *testing.T) {
	text := "---\r\nname: Séverine Aubrac\r\n---\r\n# Séverine 🔔\r\n"
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"UTF-16 little endian", utf16Bytes(text, false), text},
		{"UTF-16 big endian", utf16Bytes(text, true), text},
		{"UTF-8 kept as it is", []byte(text), text},
		{"UTF-8 with its mark kept as it is", []byte("\xEF\xBB\xBF" + text), "\xEF\xBB\xBF" + text},
		{"an odd last byte", append(utf16Bytes("ab", false), 'c'), "ab\uFFFD"},
		{"a lone surrogate", []byte{0xFF, 0xFE, 0x00, 0xD8, 'x', 0}, "\uFFFDx"},
		{"the mark alone", []byte{0xFF, 0xFE}, ""},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(codex.DecodeText(tt.in)))
		})
	}
}

// FuzzDecodeText: any bytes decode without a panic, in linear size, and a
// file with a UTF-16 mark always comes out as valid UTF-8.
func FuzzDecodeText(f *testing.F) {
	f.Add(utf16Bytes("# Séverine 🔔\r\n", false))
	f.Add(utf16Bytes("x", true))
	f.Add([]byte("plain"))
	f.Add([]byte{0xFF, 0xFE, 0x00, 0xD8})
	f.Fuzz(func(t *testing.T, data []byte) {
		out := codex.DecodeText(data)
		if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
			if !utf8.Valid(out) {
				t.Fatalf("invalid UTF-8 from %q", data)
			}
			if len(out) > 2*len(data) {
				t.Fatalf("%d bytes from %d", len(out), len(data))
			}
		} else if string(out) != string(data) {
			t.Fatalf("changed a file with no UTF-16 mark")
		}
	})
}
