package codex_test

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

func TestLoneCRToLF(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\rb\r", "a\nb\n"},
		{"a\r\nb\r\n", "a\r\nb\r\n"},
		{"a\r\r\nb", "a\n\r\nb"},
		{"\r", "\n"},
		{"plain\n", "plain\n"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, codex.LoneCRToLF(tt.in), "%q", tt.in)
		assert.Equal(t, tt.want, string(codex.LoneCRToLF([]byte(tt.in))), "%q as bytes", tt.in)
	}
}

// A codex entry saved with classic Mac line ends (a lone CR) keeps its
// front matter: it was read as one unclosed line, and the entry lost
// its name, aliases and summary without a word.
func TestAnEntryWithLoneCRLineEndsReads(t *testing.T) {
	src := "---\rname: Mara Vell\raliases: [Mara]\rsummary: A smuggler.\r---\r# Mara Vell\r\r## Appearance\rTall.\r"
	e, problems := codex.Parse("codex/characters/mara.md", []byte(src), codex.TypeCharacter)
	require.NotNil(t, e)
	assert.Empty(t, problems)
	assert.Equal(t, "Mara Vell", e.Name)
	assert.Equal(t, []string{"Mara"}, e.Aliases)
	assert.Equal(t, "A smuggler.", e.Summary)
}

// A codex file whose name holds a control character is read, and the
// writer is asked to rename it, the name printed escaped.
func TestAFileNameWithAControlCharacterIsAProblem(t *testing.T) {
	for _, name := range []string{"codex/characters/ma\nra.md", "codex/characters/\x1b[31mred.md", "codex/characters/\u202egnp.md"} {
		e, problems := codex.Parse(name, []byte("---\nname: Mara\n---\n"), codex.TypeCharacter)
		require.NotNil(t, e, "%q is still read", name)
		require.Len(t, problems, 1, "%q", name)
		assert.Equal(t, codex.CodeFileName, problems[0].Code)
		assert.NotContains(t, problems[0].Message, name[len("codex/characters/"):], "the name is never printed raw")
	}
	_, problems := codex.Parse("codex/characters/Séverine Aubrac.md", []byte("---\nname: S\n---\n"), codex.TypeCharacter)
	assert.Empty(t, problems, "accents and spaces are no problem")
}

func TestPrintableName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"codex/a\nb.md", `codex/a\nb.md`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"a\u202eb", `a\u202eb`},
		{"a\u2028b", `a\u2028b`},
		{"\x7f\u0085", `\x7f\u0085`},
		{"Séverine 🔔 C:\\Book", "Séverine 🔔 C:\\Book"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, codex.PrintableName(tt.in))
	}
}

// BenchmarkLoneCRToLF: a warm start passes every chapter through it; a
// text with no CR, and a CRLF one, each 4 MB, are returned as they are.
func BenchmarkLoneCRToLF(b *testing.B) {
	line := strings.Repeat("word ", 15)
	for _, tt := range []struct{ name, text string }{
		{"LF", strings.Repeat(line+"\n", 50_000)},
		{"CRLF", strings.Repeat(line+"\r\n", 50_000)},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.text)))
			for b.Loop() {
				codex.LoneCRToLF(tt.text)
			}
		})
	}
}
