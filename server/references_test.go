package server

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

func position(line, ch uint32) protocol.Position { return protocol.Position{Line: line, Character: ch} }

func TestReferences(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(2, 25),
		},
		Context: protocol.ReferenceContext{IncludeDeclaration: true},
	}, &locs)
	got := map[protocol.DocumentURI][]protocol.Range{}
	for _, l := range locs {
		got[l.URI] = append(got[l.URI], l.Range)
	}
	assert.Equal(t, []protocol.Range{{Start: position(2, 22), End: position(2, 31)}}, got[c.uri("manuscript/01-harbor.md")])
	ilse := got[c.uri("codex/characters/ilse-dorn.md")]
	require.Len(t, ilse, 2, "the declaration and the title heading")
	assert.Equal(t, protocol.Range{Start: position(1, 6), End: position(1, 15)}, ilse[0], "the declaration first")
	mara := got[c.uri("codex/characters/mara-vell.md")]
	require.Len(t, mara, 1, "the [[link]] in another entry")
	assert.Equal(t, uint32(7), mara[0].Start.Line)
}

func TestRename(t *testing.T) {
	c := startServer(t, Options{})
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["codex/characters/mara-vell.md"] = "---\nname: \"Mara Vell\"\naliases: [Mara]\n---\n# Mara Vell\n\nMara Vell keeps a ledger.\n"
	c.initializeCaps(writeProject(t, files), prepareCaps, nil) // a client that shows the whole name

	var prep struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}
	raw := c.callRaw(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(2, 1),
		},
	})
	require.NotNil(t, raw)
	require.NoError(t, json.Unmarshal(raw, &prep))
	assert.Equal(t, "Mara Vell", prep.Placeholder)
	assert.Equal(t, protocol.Range{Start: position(2, 0), End: position(2, 4)}, prep.Range)

	assert.Nil(t, c.callRaw(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(4, 1),
		},
	}), "nothing to rename on a plain word")

	var edit protocol.WorkspaceEdit
	c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(2, 1),
		},
		NewName: "Mara Kell",
	}, &edit)
	entry := edit.Changes[c.uri("codex/characters/mara-vell.md")]
	sort.Slice(entry, func(i, j int) bool { return entry[i].Range.Start.Line < entry[j].Range.Start.Line })
	require.Len(t, entry, 3, "name: value, heading, and the name in the body; the alias stays")
	assert.Equal(t, `"Mara Kell"`, entry[0].NewText, "the quoting is kept")
	assert.Equal(t, uint32(1), entry[0].Range.Start.Line)
	assert.Equal(t, "Mara Kell", entry[1].NewText)
	prose := edit.Changes[c.uri("manuscript/01-harbor.md")]
	assert.Empty(t, prose, "chapter 1 says Mara (an alias) only: untouched")

	err := c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     position(2, 1),
		},
		NewName: "two\nlines",
	}, nil)
	require.Error(t, err)
}
