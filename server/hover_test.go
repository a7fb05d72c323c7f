package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

var bookFiles = map[string]string{
	"codex/characters/mara-vell.md": `---
name: Mara Vell
aliases: [Mara, the Harbor Witch]
summary: Smuggler who runs the night tides.
---
# Mara Vell

She keeps a ledger of [[Ilse Dorn]]'s debts.
`,
	"codex/characters/ilse-dorn.md": `---
name: Ilse Dorn
summary: Harbormistress of Brinmouth.
---
# Ilse Dorn
`,
	"manuscript/01-harbor.md": "# Harbor\n\nMara's boat slid out. Ilse Dorn watched 😀 Mara go.\n\nNobody else.\n",
	"manuscript/02-storm.md":  "# Storm\n\nThe Harbor Witch came back.\n",
}

func TestHover(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))

	tests := []struct {
		name      string
		rel       string
		line, ch  uint32
		wantName  string
		wantRange *protocol.Range
	}{
		{name: "possessive name", rel: "manuscript/01-harbor.md", line: 2, ch: 1, wantName: "Mara Vell",
			wantRange: &protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 4}}},
		{name: "full name", rel: "manuscript/01-harbor.md", line: 2, ch: 25, wantName: "Ilse Dorn"},
		{name: "after an emoji, in UTF-16", rel: "manuscript/01-harbor.md", line: 2, ch: 44, wantName: "Mara Vell",
			wantRange: &protocol.Range{Start: protocol.Position{Line: 2, Character: 43}, End: protocol.Position{Line: 2, Character: 47}}},
		{name: "alias", rel: "manuscript/02-storm.md", line: 2, ch: 6, wantName: "Mara Vell"},
		{name: "link in a codex file", rel: "codex/characters/mara-vell.md", line: 7, ch: 25, wantName: "Ilse Dorn"},
		{name: "plain word", rel: "manuscript/01-harbor.md", line: 4, ch: 2},
		{name: "heading", rel: "manuscript/01-harbor.md", line: 0, ch: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := c.hoverAt(tt.rel, tt.line, tt.ch)
			if tt.wantName == "" {
				assert.Nil(t, h, "nothing on plain words")
				return
			}
			require.NotNil(t, h)
			assert.Contains(t, h.Contents.Value, "**"+tt.wantName+"**")
			if tt.wantRange != nil {
				require.NotNil(t, h.Range)
				assert.Equal(t, *tt.wantRange, *h.Range)
			}
		})
	}

	// Chapter counts join the card once the book has been scanned, a
	// moment after it opens.
	var h *protocol.Hover
	require.Eventually(t, func() bool {
		h = c.hoverAt("manuscript/02-storm.md", 2, 6)
		return h != nil && !strings.Contains(h.Contents.Value, "Counting")
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, protocol.Markdown, h.Contents.Kind)
	assert.Contains(t, h.Contents.Value, "Smuggler who runs the night tides.")
	assert.Contains(t, h.Contents.Value, "the Harbor Witch")
	assert.Contains(t, h.Contents.Value, "1. Harbor (2)", "the chapters it appears in")
	assert.Contains(t, h.Contents.Value, "codex/characters/mara-vell.md")
}

func TestHoverFollowsTheEditorText(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	c.open("manuscript/02-storm.md", "# Storm\n\nThen Ilse Dorn spoke.\n")
	h := c.hoverAt("manuscript/02-storm.md", 2, 6)
	require.NotNil(t, h, "the open document's text, not the disk's")
	assert.Contains(t, h.Contents.Value, "**Ilse Dorn**")

	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument": map[string]any{"uri": c.uri("manuscript/02-storm.md"), "version": 2},
		"contentChanges": []map[string]any{{
			"range": protocol.Range{Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 14}},
			"text":  "Mara",
		}},
	})
	h = c.hoverAt("manuscript/02-storm.md", 2, 6)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Mara Vell**", "an incremental change is applied")

	c.notifyServer(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/02-storm.md")},
	})
	h = c.hoverAt("manuscript/02-storm.md", 2, 6)
	require.NotNil(t, h, "closed: the disk's text again")
	assert.Contains(t, h.Contents.Value, "**Mara Vell**")
}

func TestDefinition(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     protocol.Position{Line: 2, Character: 25},
		},
	}, &locs)
	require.Len(t, locs, 1)
	assert.Equal(t, c.uri("codex/characters/ilse-dorn.md"), locs[0].URI)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4, Character: 11}}, locs[0].Range)

	c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     protocol.Position{Line: 4, Character: 2},
		},
	}, &locs)
	assert.Empty(t, locs)
}

func TestHoverSeesFilesChangedOnDisk(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, bookFiles)
	c.initialize(root)
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1))

	// A new entry on disk: its name becomes hoverable in prose.
	writeFileAt(t, root, "codex/characters/nobody.md", "---\nname: Nobody\n---\n# Nobody\n")
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/01-harbor.md", 4, 2)
		return h != nil && strings.Contains(h.Contents.Value, "**Nobody**")
	}, 10*time.Second, 20*time.Millisecond, "a codex entry created on disk")

	// A chapter rewritten on disk (not open in the editor).
	writeFileAt(t, root, "manuscript/02-storm.md", "# Storm\n\nIlse Dorn came back.\n")
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/02-storm.md", 2, 1)
		return h != nil && strings.Contains(h.Contents.Value, "**Ilse Dorn**")
	}, 10*time.Second, 20*time.Millisecond, "a chapter changed on disk")
}

func writeFileAt(t *testing.T, root, rel, text string) {
	t.Helper()
	require.NoError(t, writeFileErr(root, rel, text))
}

func writeFileErr(root, rel, text string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}
