package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// Replies shaped as each provider documents its wire format, played
// through the real client and the loop: what the loop keeps and what it
// sends back must be what that provider expects.

// TestThinkingModelsGetTheirReasoningBack: DeepSeek's and Kimi's thinking
// models answer a tool round with reasoning_content next to the tool
// calls, and refuse the next request (400) unless that assistant message
// carries it back. The reasoning is never answer text.
//
// DeepSeek: https://api-docs.deepseek.com/guides/thinking_mode (tool calls:
// "the reasoning_content must be fully passed back to the API").
// Kimi: https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model
// (keep reasoning_content in the context during multi-step tool calls).
func TestThinkingModelsGetTheirReasoningBack(t *testing.T) {
	const reasoning = "The writer asks about Mara; I should read her entry first."
	plainCall := providertest.Step{Body: providertest.CompletionBody(map[string]any{
		"role": "assistant", "content": "", "reasoning_content": reasoning,
		"tool_calls": []any{map[string]any{"id": "call_00_mara", "type": "function", "index": 0,
			"function": map[string]any{"name": "get_character_context", "arguments": `{"name":"Mara"}`}}},
	}, "tool_calls")}
	// DeepSeek streams the reasoning first, in pieces, then the call.
	streamedCall := providertest.Step{SSE: providertest.ChatSSE(
		`{"id":"a1","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"The writer asks about Mara; "},"finish_reason":null}]}`,
		`{"id":"a1","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"I should read her entry first."},"finish_reason":null}]}`,
		`{"id":"a1","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":"call_00_mara","type":"function","function":{"name":"get_character_context","arguments":""}}]},"finish_reason":null}]}`,
		`{"id":"a1","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"name\":\"Mara\"}"}}]},"finish_reason":null}]}`,
		`{"id":"a1","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"content":""},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}`,
	)}
	streamedAnswer := providertest.Step{SSE: providertest.ChatSSE(
		`{"id":"a2","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"Her entry says green."},"finish_reason":null}]}`,
		`{"id":"a2","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"content":"Mara's eyes are green."},"finish_reason":"stop"}]}`,
	)}
	tests := []struct {
		name   string
		stream bool
		steps  []providertest.Step
	}{
		{name: "plain", steps: []providertest.Step{plainCall, {Body: providertest.CompletionBody(map[string]any{
			"role": "assistant", "content": "Mara's eyes are green.", "reasoning_content": "Her entry says green."}, "stop")}}},
		{name: "streamed", stream: true, steps: []providertest.Step{streamedCall, streamedAnswer}},
		// Kimi names its calls functions.<name>:<n>.
		{name: "kimi", steps: []providertest.Step{{Body: providertest.CompletionBody(map[string]any{
			"role": "assistant", "content": "", "reasoning_content": reasoning,
			"tool_calls": []any{map[string]any{"id": "functions.get_character_context:0", "type": "function", "index": 0,
				"function": map[string]any{"name": "get_character_context", "arguments": `{"name":"Mara"}`}}},
		}, "tool_calls")}, {Body: providertest.CompletionBody(map[string]any{
			"role": "assistant", "content": "Mara's eyes are green.", "reasoning_content": "Her entry says green."}, "stop")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt := newLoopTools(t)
			s := providertest.New(t, tt.steps...)
			p := scriptedProvider(t, s, func(c *provider.Config) { c.Stream = tt.stream })
			var streamed string
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{OnDelta: func(_ int, text string) { streamed += text }})
			require.NoError(t, err)
			assert.Equal(t, "Mara's eyes are green.", res.Answer)
			assert.NotContains(t, streamed, "Her entry says", "reasoning is not answer text")

			require.Len(t, s.Requests(), 2)
			sent := sentMessages(t, s.Requests()[1])
			var assistant map[string]any
			for _, m := range sent {
				if m["role"] == "assistant" && m["tool_calls"] != nil {
					assistant = m
				}
			}
			require.NotNil(t, assistant, "the tool round's assistant message goes back")
			assert.Equal(t, reasoning, assistant["reasoning_content"], "with its reasoning_content")
		})
	}
}

// TestAnthropicStreamedToolCallsGatherByIndex: Anthropic's
// OpenAI-compatible endpoint streams a tool call at "index":1 (after the
// text block at 0): the first delta has its id and name and empty
// arguments, the later ones only argument pieces at the same index.
// https://docs.claude.com/en/api/openai-sdk (streaming tool calls keep
// Anthropic's content block index).
func TestAnthropicStreamedToolCallsGatherByIndex(t *testing.T) {
	tests := []struct {
		name    string
		indices [2]int
	}{
		{name: "starting at 1", indices: [2]int{1, 2}},
		{name: "sparse", indices: [2]int{3, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunk := func(delta string) string {
				return `{"id":"msg_01","object":"chat.completion.chunk","created":1,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}`
			}
			i, j := tt.indices[0], tt.indices[1]
			idx := func(n int) string { return string(rune('0' + n)) }
			call := providertest.Step{SSE: providertest.ChatSSE(
				chunk(`{"role":"assistant","content":""}`),
				chunk(`{"tool_calls":[{"index":`+idx(i)+`,"id":"toolu_01A","type":"function","function":{"name":"get_character_context","arguments":""}}]}`),
				chunk(`{"tool_calls":[{"index":`+idx(i)+`,"function":{"arguments":"{\"name\":"}}]}`),
				chunk(`{"tool_calls":[{"index":`+idx(i)+`,"function":{"arguments":" \"Mara\"}"}}]}`),
				chunk(`{"tool_calls":[{"index":`+idx(j)+`,"id":"toolu_01B","type":"function","function":{"name":"search_codex","arguments":""}}]}`),
				chunk(`{"tool_calls":[{"index":`+idx(j)+`,"function":{"arguments":"{\"query\":\"bell\"}"}}]}`),
				`{"id":"msg_01","object":"chat.completion.chunk","created":1,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
			)}
			lt := newLoopTools(t)
			s := providertest.New(t, call, providertest.TextStep("Green."))
			p := scriptedProvider(t, s, func(c *provider.Config) { c.Stream = true })
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
			require.NoError(t, err)
			assert.Equal(t, "Green.", res.Answer)
			assert.Equal(t, []string{`get_character_context {"name": "Mara"}`, `search_codex {"query":"bell"}`}, lt.Ran())
			require.Len(t, s.Requests(), 2)
			var calls []any
			for _, m := range sentMessages(t, s.Requests()[1]) {
				if c, ok := m["tool_calls"].([]any); ok {
					calls = c
				}
			}
			require.Len(t, calls, 2, "one assistant message with both calls, named")
			for n, name := range []string{"get_character_context", "search_codex"} {
				assert.Equal(t, name, calls[n].(map[string]any)["function"].(map[string]any)["name"])
			}
		})
	}
}

// TestMagistralTextPartsAreTheAnswer: Magistral answers with content as
// an array of a thinking part ({"type":"thinking","thinking":[...]}) and
// text parts; streamed, the parts come in deltas, the answer's first
// characters often in the same delta as the end of the thinking.
// https://docs.mistral.ai/capabilities/reasoning/ (content chunks of
// type "thinking" and "text").
func TestMagistralTextPartsAreTheAnswer(t *testing.T) {
	chunk := func(content string, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		return `{"id":"m1","object":"chat.completion.chunk","created":1,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"role":"assistant","content":` + content + `},"finish_reason":` + f + `}]}`
	}
	tests := []struct {
		name   string
		stream bool
		step   providertest.Step
	}{
		{name: "plain", step: providertest.Step{Body: providertest.RawMessageBody(
			`{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"17 times 23 is 391."}]},{"type":"text","text":"391"}]}`)}},
		{name: "streamed", stream: true, step: providertest.Step{SSE: providertest.ChatSSE(
			chunk(`[{"type":"thinking","thinking":[{"type":"text","text":"17 times 23"}]}]`, ""),
			chunk(`[{"type":"thinking","thinking":[{"type":"text","text":" is 391."}]},{"type":"text","text":"3"}]`, ""),
			chunk(`"91"`, ""),
			chunk(`""`, "stop"),
		)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.step)
			p := scriptedProvider(t, s, func(c *provider.Config) { c.Stream = tt.stream })
			var streamed string
			res, err := Run(t.Context(), p, nil, loopMessages(), Options{OnDelta: func(_ int, text string) { streamed += text }})
			require.NoError(t, err)
			assert.Equal(t, "391", res.Answer)
			if tt.stream {
				assert.Equal(t, "391", streamed, "the text parts stream; the thinking does not")
			}
		})
	}
}
