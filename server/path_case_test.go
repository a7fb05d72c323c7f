package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// TestFolderCaseIsOneFolder: where the file system does not tell case
// apart (Windows), Manuscript\ is the book's manuscript\ folder and
// 01-Harbor.md its 01-harbor.md: a chapter opened under either spelling
// is that chapter, and one document.
func TestFolderCaseIsOneFolder(t *testing.T) {
	root := writeProject(t, bookFiles)
	if _, err := os.Stat(filepath.Join(root, "MANUSCRIPT", "01-HARBOR.MD")); err != nil {
		t.Skip("skipped: this file system tells Manuscript from manuscript, so they are two folders here")
	}
	c := startServer(t, Options{})
	c.initialize(root)
	for _, spelling := range []string{"manuscript/01-harbor.md", "Manuscript/01-harbor.md", "MANUSCRIPT/01-Harbor.md"} {
		t.Run(spelling, func(t *testing.T) {
			uri := c.uri(spelling)
			c.open(spelling, bookFiles["manuscript/01-harbor.md"])
			var sel manuscript.SelectionMeta
			c.call(wire.MethodCaptureSelection, wire.CaptureParams{URI: uri, Range: protocol.Range{
				Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 3},
			}}, &sel)
			assert.Equal(t, "manuscript/01-harbor.md", sel.Path, "the chapter as the book names it")
			assert.Equal(t, "Harbor", sel.Title)
			h := c.hoverAt(spelling, 2, 1)
			require.NotNil(t, h)
			assert.Contains(t, h.Contents.Value, "**Mara Vell**")
		})
	}
	assert.Equal(t, textdoc.DocKey(c.uri("manuscript/01-harbor.md")), textdoc.DocKey(c.uri("MANUSCRIPT/01-Harbor.md")), "one document")
}
