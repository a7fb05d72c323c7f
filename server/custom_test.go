package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

func TestCustomRequestsAndCommands(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))

	// Every operation answers alike as a custom request and as a command.
	for _, tt := range []struct {
		method, command string
		args            map[string]any
		check           func(t *testing.T, raw json.RawMessage)
	}{
		{wire.MethodLookup, "quire.lookup", map[string]any{"name": "the harbor witch"}, func(t *testing.T, raw json.RawMessage) {
			var r wire.QueryResult
			require.NoError(t, json.Unmarshal(raw, &r))
			require.NotEmpty(t, r.Results)
			assert.Equal(t, "Mara Vell", r.Results[0].Name)
		}},
		{wire.MethodSearch, "quire.search", map[string]any{"query": "harbormistress"}, func(t *testing.T, raw json.RawMessage) {
			var r wire.QueryResult
			require.NoError(t, json.Unmarshal(raw, &r))
			require.NotEmpty(t, r.Results)
			assert.Equal(t, "Ilse Dorn", r.Results[0].Name)
		}},
		{wire.MethodList, "quire.list", map[string]any{"entryType": "characters"}, func(t *testing.T, raw json.RawMessage) {
			var r wire.ListResult
			require.NoError(t, json.Unmarshal(raw, &r))
			assert.Equal(t, 2, r.Count)
		}},
		{wire.MethodManuscriptContext, "quire.manuscriptContext", map[string]any{"refs": []string{"1", "storm"}}, func(t *testing.T, raw json.RawMessage) {
			var r manuscript.Context
			require.NoError(t, json.Unmarshal(raw, &r))
			require.Len(t, r.Units, 2)
			assert.Equal(t, "manuscript/02-storm.md", r.Units[1].Path)
		}},
	} {
		t.Run(tt.method, func(t *testing.T) {
			tt.check(t, c.callRaw(tt.method, tt.args))
			tt.check(t, c.callRaw(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": tt.command, "arguments": []any{tt.args}}))
		})
	}

	err := c.callErr(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.nope"}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quire.lookup")
	err = c.callErr(wire.MethodManuscriptContext, map[string]any{"ref": "../../etc/passwd.md"}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "path refused")
}

func TestCaptureSelectionThenReadIt(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	c.open("manuscript/01-harbor.md", "# Harbor\n\nMara's boat 😀 slid out.\r\nIlse Dorn watched.\n")
	var meta manuscript.SelectionMeta
	c.call(wire.MethodCaptureSelection, wire.CaptureParams{
		URI:   c.uri("manuscript/01-harbor.md"),
		Range: protocol.Range{Start: position(2, 0), End: position(3, 9)},
	}, &meta)
	assert.Equal(t, "manuscript/01-harbor.md", meta.Path)
	assert.Equal(t, "Harbor", meta.Title)
	assert.Equal(t, 6, meta.Words)
	assert.Equal(t, codex.HashText("Mara's boat 😀 slid out.\nIlse Dorn"), meta.Hash, "CRLF hashes as LF")

	raw := c.callRaw(wire.MethodManuscriptContext, map[string]any{"ref": "selection"})
	var ctx manuscript.Context
	require.NoError(t, json.Unmarshal(raw, &ctx))
	require.Len(t, ctx.Units, 1)
	assert.Equal(t, "Mara's boat 😀 slid out.\r\nIlse Dorn", ctx.Units[0].Text)

	raw = c.callRaw(wire.MethodManuscriptContext, map[string]any{"ref": "current", "uri": c.uri("manuscript/02-storm.md")})
	require.NoError(t, json.Unmarshal(raw, &ctx))
	assert.Equal(t, "manuscript/02-storm.md", ctx.Units[0].Path)
}
