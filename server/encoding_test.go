package server

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// notepadUnicode is s as Windows Notepad saves it as "Unicode": a
// little-endian byte-order mark, two bytes a code unit, CRLF lines.
func notepadUnicode(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// A codex entry and a chapter saved as UTF-16 are read as text: the
// entry's canon shows in hover, and a mention in the UTF-16 chapter is
// found at the characters the editor shows. Before, both were skipped
// as binary files.
func TestFilesSavedAsUTF16AreRead(t *testing.T) {
	root := writeProject(t, map[string]string{
		"manuscript/01-harbor.md": "# Harbor\n\nIlse Dorn waited.\n",
	})
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, notepadUnicode(text), 0o644))
	}
	write("codex/characters/ilse-dorn.md", "---\r\nname: Ilse Dorn\r\nsummary: Harbormistress of Brînmouth.\r\n---\r\n# Ilse Dorn\r\n")
	write("manuscript/02-storm.md", "# Storm\r\n\r\nÉtienne saw Ilse Dorn.\r\n")
	c := startServer(t, Options{})
	c.initialize(root)
	c.hoverSays("manuscript/01-harbor.md", 2, 2, "Harbormistress of Brînmouth.")

	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(2, 2),
		},
	}, &locs)
	var storm []protocol.Range
	for _, l := range locs {
		if l.URI == c.uri("manuscript/02-storm.md") {
			storm = append(storm, l.Range)
		}
	}
	assert.Equal(t, []protocol.Range{{Start: position(2, 12), End: position(2, 21)}}, storm)
}
