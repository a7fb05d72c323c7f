package server

import (
	"testing"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// TestSeveralWorkspaceFolders opens two books in one session: each
// document answers from its own codex.
func TestSeveralWorkspaceFolders(t *testing.T) {
	first := writeProject(t, bookFiles)
	second := writeProject(t, map[string]string{
		"codex/characters/mara-quist.md": "---\nname: Mara Quist\naliases: [Mara]\n---\n# Mara Quist\n",
		"manuscript/01-a.md":             "# A\n\nMara sang.\n",
	})
	c := startServer(t, Options{})
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{
			{URI: string(textdoc.PathURI(first)), Name: "first"},
			{URI: string(textdoc.PathURI(second)), Name: "second"},
		},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})

	c.root = first
	h := c.hoverAt("manuscript/01-harbor.md", 2, 1)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Mara Vell**")

	c.root = second
	h = c.hoverAt("manuscript/01-a.md", 2, 1)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Mara Quist**")

	var syms []protocol.SymbolInformation
	c.call(protocol.MethodWorkspaceSymbol, protocol.WorkspaceSymbolParams{Query: "mara"}, &syms)
	names := map[string]bool{}
	for _, s := range syms {
		names[s.Name] = true
	}
	assert.True(t, names["Mara Vell"] && names["Mara Quist"], "workspace symbols span both books: %v", names)
}
