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

// TestDocumentSymbolsScenes: a chapter's outline is the chapter holding
// its scenes, each with its pov, day, status and words as detail; a
// scene's note overrides the chapter's story time.
func TestDocumentSymbolsScenes(t *testing.T) {
	c := startServer(t, Options{})
	// Headings of level 2 and above open scenes; "### A beat" stays
	// inside its scene.
	c.initialize(writeProject(t, maps2(bookFiles, map[string]string{"quire.yaml": "outline:\n  scene_headings: 2\n"})))
	text := "---\ntitle: The Harbor\npov: Mara Vell\nday: 3\nstatus: draft\n---\n" +
		"Mara waits on the quay.\n\n* * *\n\n" +
		"<!-- scene\ntitle: The Vault\npov: Ilse Dorn\nday: 4\nstatus: revised\n-->\n\nIlse counts the ledgers.\n\n### A beat\n\nShe stops.\n\n* * *\n\n" +
		"The tide turns.\n"
	c.open("manuscript/03-x.md", text)
	var syms []protocol.DocumentSymbol
	c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/03-x.md")},
	}, &syms)
	require.Len(t, syms, 1)
	ch := syms[0]
	assert.Equal(t, "The Harbor", ch.Name)
	assert.Equal(t, "Mara Vell · day 3 · draft · 16 words", ch.Detail)
	require.Len(t, ch.Children, 3)
	names := []string{ch.Children[0].Name, ch.Children[1].Name, ch.Children[2].Name}
	assert.Equal(t, []string{"Scene 1", "The Vault", "Scene 3"}, names)
	assert.Equal(t, "Mara Vell · day 3 · 5 words", ch.Children[0].Detail)
	assert.Equal(t, "Ilse Dorn · day 4 · revised · 8 words", ch.Children[1].Detail)
	assert.Equal(t, "Mara Vell · day 4 · 3 words", ch.Children[2].Detail, "the day runs on; the pov is the chapter's again")
	assert.Equal(t, uint32(8), ch.Children[1].SelectionRange.Start.Line, "a scene is selected at its break")
	require.Len(t, ch.Children[1].Children, 1)
	assert.Equal(t, "A beat", ch.Children[1].Children[0].Name)
	for _, sc := range ch.Children {
		assert.True(t, !protocolBefore(sc.SelectionRange.Start, sc.Range.Start) && !protocolBefore(sc.Range.End, sc.SelectionRange.End), "selection inside range: %s", sc.Name)
	}
}

func protocolBefore(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
