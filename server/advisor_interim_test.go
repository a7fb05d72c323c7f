package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/server/wire"
)

// TestAskKeepsInterimTextApart: text a reply carries next to its tool
// calls (https://platform.openai.com/docs/api-reference/chat/object) is
// streamed as its own round's deltas and returned as interim, never as
// part of the answer, in the result or the last progress report.
func TestAskKeepsInterimTextApart(t *testing.T) {
	call := chatBody(t, map[string]any{"role": "assistant", "content": "PRE_TOOL", "tool_calls": []any{map[string]any{
		"id": "c1", "type": "function", "function": map[string]any{"name": "get_character_context", "arguments": `{"name":"Mara"}`}}}}, "tool_calls")
	f := newFakeLLM(t, fakeStep{body: call}, answerStep(t, "POST_TOOL"))
	c := advisorClient(t, advisorBook(t, f), nil)
	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "Eyes?", "workDoneToken": "tok"}))
	assert.Equal(t, "POST_TOOL", r.Answer)
	assert.Equal(t, []string{"PRE_TOOL"}, r.Interim)

	byRound := map[int]string{}
	for _, raw := range c.heldNotes(wire.MethodAskProgress) {
		var n struct {
			Delta string `json:"delta"`
			Round int    `json:"round"`
		}
		require.NoError(t, json.Unmarshal(raw, &n))
		if n.Delta != "" { // not a tool row
			byRound[n.Round] += n.Delta
		}
	}
	assert.Equal(t, map[int]string{1: "PRE_TOOL", 2: "POST_TOOL"}, byRound)
	var last string
	for _, v := range c.progressOf(`"tok"`) {
		if v.Kind == "report" {
			last = v.Message
		}
	}
	assert.Equal(t, "POST_TOOL", last, "the answer reported last, alone")
}
