package server

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// oddChapter is a chapter named as a URL would escape it; Windows allows
// no "?" in a file name, so there it goes without one.
var oddChapter = func() string {
	if runtime.GOOS == "windows" {
		return "manuscript/07-ch%20#.md"
	}
	return "manuscript/07-ch%20#?.md"
}()

// A chapter quire finds but cannot read (here UTF-16 with no byte-order
// mark, read before as prose full of NULs and handed to the advisor) is
// named when the book opens and carries its problem as a diagnostic on
// the file; a chapter whose name a URL would escape is an ordinary
// chapter (it vanished before, with only a log line). Saved again as
// UTF-8, the chapter joins and its diagnostic clears.
func TestUnreadableChaptersAreSaidAndOddNamesRead(t *testing.T) {
	root := writeProject(t, map[string]string{
		"codex/characters/ilse-dorn.md": "---\nname: Ilse Dorn\nsummary: Harbormistress of Brînmouth.\n---\n# Ilse Dorn\n",
		"manuscript/01-harbor.md":       "# Harbor\n\nA quiet night.\n",
		oddChapter:                      "# Seven\n\nIlse Dorn waited.\n",
	})
	var wide []byte
	for _, u := range utf16.Encode([]rune("# Wide\n\nIlse Dorn sailed.\n")) {
		wide = append(wide, byte(u), byte(u>>8))
	}
	widePath := filepath.Join(root, "manuscript", "08-wide.md")
	require.NoError(t, os.WriteFile(widePath, wide, 0o644))

	c := startServer(t, Options{})
	c.initialize(root)
	require.Eventually(t, func() bool {
		for _, m := range c.messages() {
			if strings.Contains(m, "1 chapter cannot be read") && strings.Contains(m, "manuscript/08-wide.md") {
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond, "messages: %q", c.messages())
	diags := c.waitDiagnostics(c.uri("manuscript/08-wide.md"), "the binary chapter's problem", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	assert.Equal(t, "binary", diags[0].Code)
	assert.Equal(t, protocol.DiagnosticSeverityError, diags[0].Severity)
	assert.Contains(t, diags[0].Message, "save it again as UTF-8")

	// The chapter with the odd name is read: its mention is found.
	c.hoverSays(oddChapter, 2, 2, "Harbormistress of Brînmouth.")

	require.NoError(t, os.WriteFile(widePath, []byte("# Wide\n\nIlse Dorn sailed.\n"), 0o644))
	c.waitDiagnostics(c.uri("manuscript/08-wide.md"), "no problem once saved as UTF-8", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
}
