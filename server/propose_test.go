package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

func TestProposeFromASelection(t *testing.T) {
	f := newFakeLLM(t,
		callStep(t, [2]string{"propose_codex_update", `{"entryType":"character","name":"Mara Vell","changeSummary":"allies","targetSection":"Allies","proposedMarkdown":"The dockhands."}`}),
		answerStep(t, "I proposed her allies."))
	c := advisorClient(t, advisorBook(t, f), nil)
	uri := c.uri("manuscript/01-harbor.md")

	m := c.call(1, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.propose",
		"arguments": []any{map[string]any{"uri": uri, "range": span(2, 0, 21)}}})
	require.Nil(t, m.Error, "%s", m)
	var res wire.ProposeResult
	require.NoError(t, json.Unmarshal(m.Result, &res))
	assert.Equal(t, "continuity-editor", res.Persona)
	assert.Equal(t, "I proposed her allies.", res.Answer)
	require.Len(t, res.Details, 1)
	d := res.Details[0]
	assert.Equal(t, res.Proposals[0], d.ID)
	assert.Equal(t, "pending", d.Status)
	assert.Contains(t, d.Diff, "+The dockhands.")
	sent, err := json.Marshal(f.requests()[0]["messages"])
	require.NoError(t, err)
	assert.Contains(t, string(sent), "Propose a codex update")

	m = c.call(2, wire.MethodPropose, map[string]any{"uri": uri})
	require.NotNil(t, m.Error)
	assert.True(t, strings.Contains(m.Error.Message, "uri and range"), m.Error.Message)
}
