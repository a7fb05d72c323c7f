package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

func TestCompletionInLinks(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	text := "# Notes\n\nSee [[ma and [[Ilse Dorn]] and [[harbor w\n"
	c.open("codex/characters/notes.md", text)
	complete := func(line, ch uint32) protocol.CompletionList {
		var list protocol.CompletionList
		c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("codex/characters/notes.md")},
				Position:     protocol.Position{Line: line, Character: ch},
			},
		}, &list)
		return list
	}
	list := complete(2, 8) // after "[[ma"
	require.NotEmpty(t, list.Items)
	labels := map[string]protocol.CompletionItem{}
	for _, it := range list.Items {
		labels[it.Label] = it
	}
	require.Contains(t, labels, "Mara Vell")
	require.Contains(t, labels, "Mara")
	assert.NotContains(t, labels, "Ilse Dorn", "filtered by prefix")
	assert.Equal(t, "Mara Vell]]", labels["Mara"].TextEdit.NewText, "an alias inserts the canonical name")
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 2, Character: 6}, End: protocol.Position{Line: 2, Character: 8}}, labels["Mara"].TextEdit.Range)

	list = complete(2, 41) // after "[[harbor w"
	require.Len(t, list.Items, 1)
	assert.Equal(t, "the Harbor Witch", list.Items[0].Label)

	list = complete(2, 26) // inside the closed [[Ilse Dorn]]… after it
	assert.Empty(t, list.Items, "no completion outside an open [[")
}

func TestDocumentSymbols(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	c.open("manuscript/03-x.md", "# Chapter Three\n\n## Dawn\n\nText.\n\n## Dusk\n\nMore.\n")
	var raw json.RawMessage
	c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/03-x.md")},
	}, &raw)
	var syms []protocol.DocumentSymbol
	require.NoError(t, json.Unmarshal(raw, &syms))
	require.Len(t, syms, 1)
	assert.Equal(t, "Chapter Three", syms[0].Name)
	require.Len(t, syms[0].Children, 2)
	assert.Equal(t, "Dawn", syms[0].Children[0].Name)
	assert.Equal(t, "Dusk", syms[0].Children[1].Name)
	assert.Equal(t, uint32(2), syms[0].Children[0].SelectionRange.Start.Line)
}

func TestWorkspaceSymbols(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	var syms []protocol.SymbolInformation
	c.call(protocol.MethodWorkspaceSymbol, protocol.WorkspaceSymbolParams{Query: "ilse"}, &syms)
	require.NotEmpty(t, syms)
	assert.Equal(t, "Ilse Dorn", syms[0].Name)
	assert.Equal(t, c.uri("codex/characters/ilse-dorn.md"), syms[0].Location.URI)
	assert.Equal(t, protocol.SymbolKindClass, syms[0].Kind)

	c.call(protocol.MethodWorkspaceSymbol, protocol.WorkspaceSymbolParams{Query: "smuggler"}, &syms)
	require.NotEmpty(t, syms, "full text too")
	assert.Equal(t, "Mara Vell", syms[0].Name)
}
