package codex_test

import (
	"testing"
	"unicode/utf16"

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
