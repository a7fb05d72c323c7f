package server

import (
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

func TestExplicateFindsSupportingPassages(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")

	var got wire.ExplicateResult
	c.call(wire.MethodExplicate, map[string]any{"quote": "She keeps a ledger of Ilse Dorn's debts.", "uri": c.uri("codex/characters/mara-vell.md")}, &got)
	require.NotNil(t, got.Source)
	assert.Equal(t, "Mara Vell", got.Source.Name)
	require.NotNil(t, got.Source.Location)
	assert.Equal(t, c.uri("codex/characters/mara-vell.md"), got.Source.Location.URI)
	assert.Equal(t, uint32(7), got.Source.Location.Range.Start.Line)

	require.NotEmpty(t, got.Passages)
	var harbor *wire.ExplicatePassage
	for i := range got.Passages {
		if got.Passages[i].Path == "manuscript/01-harbor.md" {
			harbor = &got.Passages[i]
		}
	}
	require.NotNil(t, harbor, "the paragraph naming Ilse Dorn supports it: %+v", got.Passages)
	require.NotNil(t, harbor.Location)
	para := "Mara's boat slid out. Ilse Dorn watched 😀 Mara go."
	assert.Equal(t, protocol.Location{URI: c.uri("manuscript/01-harbor.md"), Range: protocol.Range{
		Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2, Character: uint32(len(utf16.Encode([]rune(para))))},
	}}, *harbor.Location)

	// The command answers the same, and a second call reuses the index.
	var again wire.ExplicateResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{
		"command": "quire.explicate", "arguments": []any{map[string]any{"quote": "She keeps a ledger of Ilse Dorn's debts."}},
	}, &again)
	assert.Equal(t, len(got.Passages), len(again.Passages))

	err := c.callErr(wire.MethodExplicate, map[string]any{"quote": ""}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quote is required")
}
