package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

func TestResponsesLoopChainsRounds(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`},
			providertest.Call{ID: "call_b", Name: "search_codex", Args: `{"query":"Ilse"}`},
		),
		providertest.TextStep("Mara is older."),
	)
	p := responsesProvider(t, s)
	res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	assert.Equal(t, "resp_2", res.ResponseID)
	assert.Equal(t, 2, res.Rounds)
	require.Len(t, res.Messages, 6, "the result keeps the whole exchange")

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	first := reqs[0].Decoded(t)
	assert.NotContains(t, first, "previous_response_id")
	assert.Equal(t, "You are the continuity editor.", first["instructions"])
	in1 := inputOf(t, first)
	require.Len(t, in1, 1)
	assert.Equal(t, "Is Mara older than Ilse?", in1[0]["content"])

	second := reqs[1].Decoded(t)
	assert.Equal(t, "resp_1", second["previous_response_id"])
	assert.Equal(t, "You are the continuity editor.", second["instructions"])
	assert.Equal(t, false, second["parallel_tool_calls"])
	in2 := inputOf(t, second)
	require.Len(t, in2, 2, "only the tool results are sent: %v", in2)
	for i, id := range []string{"call_a", "call_b"} {
		assert.Equal(t, "function_call_output", in2[i]["type"])
		assert.Equal(t, id, in2[i]["call_id"])
		assert.Equal(t, res.Messages[3+i].Content, in2[i]["output"])
	}
}

func TestResponsesLoopSteeringIsChained(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.TextStep("From memory: Mara."),
		providertest.CallsStep(providertest.Call{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`}),
		providertest.TextStep("Mara is older."),
	)
	p := responsesProvider(t, s)
	res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	reqs := s.Requests()
	require.Len(t, reqs, 3)
	second := reqs[1].Decoded(t)
	assert.Equal(t, "resp_1", second["previous_response_id"])
	assert.Equal(t, "required", second["tool_choice"])
	in2 := inputOf(t, second)
	require.Len(t, in2, 1, "only the steering message: %v", in2)
	assert.Equal(t, consultToolsPrompt, in2[0]["content"])
	third := reqs[2].Decoded(t)
	assert.Equal(t, "resp_2", third["previous_response_id"])
	in3 := inputOf(t, third)
	require.Len(t, in3, 1)
	assert.Equal(t, "function_call_output", in3[0]["type"])
}

func TestResponsesLoopWithoutIDResendsTheTurn(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.Step{Reply: &providertest.Reply{Calls: []providertest.Call{{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`}}, ResponseID: "-"}},
		providertest.TextStep("Mara is older."),
	)
	res, err := Run(t.Context(), responsesProvider(t, s), lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "resp_2", res.ResponseID)
	second := s.Requests()[1].Decoded(t)
	assert.NotContains(t, second, "previous_response_id")
	in2 := inputOf(t, second)
	require.Len(t, in2, 3, "user message, function call, its output: %v", in2)
	assert.Equal(t, "function_call", in2[1]["type"])
	assert.Equal(t, "function_call_output", in2[2]["type"])
}
