package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestResponsesWithoutStoreResendsTheTurn: with store false (a
// zero-data-retention account) the provider keeps no response, so a tool
// round cannot continue by previous_response_id: the loop resends the
// turn's items, the reasoning items included, asked for with their
// encrypted content.
// https://platform.openai.com/docs/guides/reasoning (encrypted reasoning
// items: store false, include ["reasoning.encrypted_content"], pass the
// reasoning items back as input);
// https://platform.openai.com/docs/guides/your-data (zero data retention).
func TestResponsesWithoutStoreResendsTheTurn(t *testing.T) {
	const reasoning = `{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Look Mara up."}],"encrypted_content":"gAAAAABo-opaque-blob=="}`
	call := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","store":false,"model":"o4-mini","output":[` + reasoning +
		`,{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"name\":\"Mara\"}","call_id":"call_mara","name":"get_character_context"}],"usage":{"input_tokens":50,"output_tokens":20,"total_tokens":70}}`
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "streamed"}[stream], func(t *testing.T) {
			lt := newLoopTools(t)
			first := providertest.Step{Body: call}
			if stream {
				first = providertest.Step{SSE: "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":0,\"response\":" + call + "}\n\n"}
			}
			s := providertest.New(t, first, providertest.TextStep("Mara is older."))
			p := responsesProvider(t, s, func(c *provider.Config) {
				c.Defaults = map[string]any{"store": false}
				c.Stream = stream
			})
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{PreviousResponseID: "resp_from_an_earlier_turn"})
			require.NoError(t, err)
			assert.Equal(t, "Mara is older.", res.Answer)

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			for _, r := range reqs {
				body := r.Decoded(t)
				assert.NotContains(t, body, "previous_response_id", "a response that is not stored cannot be continued")
				assert.Equal(t, false, body["store"])
				assert.Contains(t, body["include"], "reasoning.encrypted_content")
			}
			in := inputOf(t, reqs[1].Decoded(t))
			types := inputTypes(in)
			require.Equal(t, []string{"message", "reasoning", "function_call", "function_call_output"}, types, "%v", in)
			assert.Equal(t, "Is Mara older than Ilse?", in[0]["content"])
			assert.Equal(t, "rs_1", in[1]["id"])
			assert.Equal(t, "gAAAAABo-opaque-blob==", in[1]["encrypted_content"])
			assert.Equal(t, "call_mara", in[2]["call_id"])
			assert.Equal(t, "call_mara", in[3]["call_id"])
		})
	}
}

// TestResponsesSaidNotStoredResendsTheTurn: a provider whose responses
// say "store": false (DeepSeek's Responses API, which keeps nothing,
// whatever the request asked) cannot be continued by
// previous_response_id: once a response says so, the rest of the turn
// is sent whole, as when the writer sets store false, and the turn
// gives no response id to continue the conversation from.
//
// DeepSeek's Responses API is stateless: store, previous_response_id and
// retrieval are not supported there
// (https://docs.rs/openai-interface/0.12.0/openai_interface/responses/index.html,
// after DeepSeek's Responses API guide). The replays follow the
// Responses API's response object
// (https://platform.openai.com/docs/api-reference/responses/object),
// with the model, ids, reasoning text and store DeepSeek gives.
func TestResponsesSaidNotStoredResendsTheTurn(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "streamed"}[stream], func(t *testing.T) {
			play := providertest.Replay
			if stream {
				play = providertest.ReplayStream
			}
			lt := newLoopTools(t)
			s := providertest.New(t, play(t, "deepseek-responses-call.json"), play(t, "deepseek-responses-answer.json"))
			p := responsesProvider(t, s, func(c *provider.Config) {
				c.Model = "deepseek-v4-flash"
				c.Stream = stream
			})
			require.True(t, p.StoresResponses(), "nothing in the settings says store false")
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
			require.NoError(t, err)
			assert.Equal(t, "Mara is older.", res.Answer)
			assert.Equal(t, []string{`get_character_context {"name": "Mara"}`}, lt.Ran())
			assert.Empty(t, res.ResponseID, "a response that was not stored is nothing to continue from")

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			second := reqs[1].Decoded(t)
			assert.NotContains(t, second, "previous_response_id", "the first response said it was not stored")
			in := inputOf(t, second)
			types := inputTypes(in)
			require.Equal(t, []string{"message", "reasoning", "function_call", "function_call_output"}, types, "the turn whole: %v", in)
			assert.Equal(t, "Is Mara older than Ilse?", in[0]["content"])
			assert.Equal(t, "rs_0196f3c2a87e7d41b9c05e2d6f18a4b3_0", in[1]["id"], "the reasoning goes back as it came")
			assert.Equal(t, "call_00_Yk3pQ7wT2vN9sL4xR8mB6dHj", in[2]["call_id"])
			assert.Equal(t, "call_00_Yk3pQ7wT2vN9sL4xR8mB6dHj", in[3]["call_id"])
		})
	}
}

// inputTypes are the types of a Responses request's input items, an
// easy input message (which names none) as "message".
func inputTypes(in []map[string]any) []string {
	var types []string
	for _, it := range in {
		typ, _ := it["type"].(string)
		if typ == "" && it["role"] != nil {
			typ = "message"
		}
		types = append(types, typ)
	}
	return types
}
