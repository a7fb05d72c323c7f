package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// lookupCount is how many entries quire/lookup finds for name, asked
// about the document uri.
func lookupCount(t *testing.T, c *wireClient, id any, uri protocol.DocumentURI, name string) int {
	m := c.call(id, wire.MethodLookup, map[string]any{"name": name, "uri": uri})
	if m.Error != nil {
		return -1
	}
	var r wire.QueryResult
	require.NoError(t, json.Unmarshal(m.Result, &r))
	return len(r.Results)
}

func TestBookIsFoundAboveTheWorkspaceRoot(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
	}{
		{name: "quire.yaml", files: map[string]string{"quire.yaml": "title: The Salt Ledger\n"}},
		{name: "codex and manuscript", files: map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range bookFiles {
				files[k] = v
			}
			for k, v := range tt.files {
				files[k] = v
			}
			book := writeProject(t, files)
			// eglot without version control: the chapter's folder is the root.
			c := bareClient(t, filepath.Join(book, "manuscript"), nil)
			c.root = book
			chapter := c.uri("manuscript/01-harbor.md")
			c.open(chapter, bookFiles["manuscript/01-harbor.md"])
			require.Eventually(t, func() bool { return lookupCount(t, c, "l", chapter, "Ilse Dorn") == 1 }, wireTimeout, 20*time.Millisecond)
			h := c.hover("h", chapter, 2, 25)
			require.NotNil(t, h)
			assert.Contains(t, h.Contents.Value, "Ilse Dorn")
			assert.Empty(t, c.shown(), "a book was found: nothing to tell")
		})
	}
}

func TestBookIsFoundFromAnOpenedDocument(t *testing.T) {
	book := writeProject(t, bookFiles)
	elsewhere := writeProject(t, map[string]string{"notes.txt": "not a book\n"})
	c := bareClient(t, elsewhere, nil)
	c.root = book
	chapter := c.uri("manuscript/01-harbor.md")
	c.open(chapter, bookFiles["manuscript/01-harbor.md"])
	require.Eventually(t, func() bool { return lookupCount(t, c, "l", chapter, "Ilse Dorn") == 1 }, wireTimeout, 20*time.Millisecond)
	h := c.hover("h", chapter, 2, 25)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Ilse Dorn")
	assert.Empty(t, c.shown(), "the chapter found its book: nothing to tell")
}

func TestNoBookIsToldOnce(t *testing.T) {
	dir := writeProject(t, map[string]string{"notes.md": "# Notes\n", "more.md": "# More\n"})
	c := bareClient(t, dir, nil)
	c.open(textdoc.PathURI(filepath.Join(dir, "notes.md")), "# Notes\n")
	c.open(textdoc.PathURI(filepath.Join(dir, "more.md")), "# More\n")
	c.hover("h", textdoc.PathURI(filepath.Join(dir, "notes.md")), 0, 2)
	msgs := c.shown()
	require.Len(t, msgs, 1, "%v", msgs)
	assert.Equal(t, protocol.MessageTypeWarning, msgs[0].Type)
	assert.Contains(t, msgs[0].Message, "quire found no book in "+dir)
	assert.Contains(t, msgs[0].Message, "quire.yaml")
	assert.Contains(t, msgs[0].Message, "codex/ and manuscript/")
	_, err := os.Stat(filepath.Join(dir, "quire.yaml"))
	assert.True(t, os.IsNotExist(err), "nothing is written in the folder")
	assert.False(t, strings.Contains(msgs[0].Message, "error"))
}
