package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

func TestQuirksInLoop(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.Step{Body: providertest.RawMessageBody(`{"role":"assistant","content":"<tool_call>{\"name\":\"get_character_context\",\"arguments\":{\"name\":\"Mara\"}}</tool_call>"}`)},
		providertest.TextStep("Mara is older."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{Quirks: []provider.Quirk{provider.QuirkContentToolCallTags}})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	assert.Equal(t, []string{`get_character_context {"name":"Mara"}`}, lt.Ran())

	// The call goes back to the server as a structured call, answered by
	// its tool message.
	sent := sentMessages(t, s.Requests()[1])
	require.Len(t, sent, 4)
	call := sent[2]["tool_calls"].([]any)[0].(map[string]any)
	assert.Equal(t, call["id"], sent[3]["tool_call_id"])
	assert.NotContains(t, sent[2], "content")
}
