package toolloop

import (
	"strings"
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

// TestQwenCallsInTheReasoningRun: Qwen's thinking models, served without
// (or with the wrong) tool parser, write the tool call inside their
// reasoning and send no content: quire read the reply as empty, asked
// again without tools and answered without reading the book. With the
// quirks Qwen's models get by default the call is read out of the
// reasoning and run, and goes back as a structured call.
//
// Where each replay's shape comes from:
//   - vLLM, Hermes in reasoning_content: vLLM's Qwen3 reasoning parser
//     took a <tool_call> written before </think> for reasoning, leaving
//     the tool parser nothing (https://github.com/vllm-project/vllm/pull/35687);
//     the message as vLLM sends it, "content": null and "tool_calls": [],
//     is https://github.com/vllm-project/vllm/issues/19839's; the Hermes
//     body is the one Qwen's chat template asks for
//     (https://qwen.readthedocs.io/en/latest/framework/function_call.html).
//   - vLLM, Qwen3-Coder/Qwen3.5 XML in reasoning_content, plain and
//     streamed: the same bug with --tool-call-parser qwen3_xml, the call
//     as vLLM's tests write it (TOOL_CALL_BODY of
//     tests/reasoning/test_qwen3_reasoning_parser.py, PR 35687).
//   - Ollama: its OpenAI-compatible endpoint puts the thinking in
//     "reasoning", not reasoning_content (Message.Reasoning in
//     https://github.com/ollama/ollama/blob/main/openai/openai.go), with
//     system_fingerprint "fp_ollama".
//   - DashScope: the compatible mode's message with reasoning_content
//     (https://help.aliyun.com/en/model-studio/deep-thinking), the call a
//     bare JSON object (the Hermes object without its tags) at the end of
//     the reasoning, as issue 41 reports Qwen sending it.
func TestQwenCallsInTheReasoningRun(t *testing.T) {
	tests := []struct {
		replay, model string
	}{
		{"qwen3-vllm-reasoning-hermes.json", "Qwen/Qwen3-8B"},
		{"qwen3.5-vllm-reasoning-xml.json", "Qwen/Qwen3.5-35B-A3B"},
		{"qwen3.5-vllm-reasoning-xml.sse", "Qwen/Qwen3.5-35B-A3B"},
		{"qwen3-ollama-reasoning.json", "qwen3:8b"},
		{"qwen-dashscope-reasoning-json.json", "qwen-plus"},
	}
	for _, tt := range tests {
		t.Run(tt.replay, func(t *testing.T) {
			lt := newLoopTools(t)
			s := providertest.New(t, providertest.Replay(t, tt.replay), providertest.TextStep("Mara is older."))
			p := scriptedProvider(t, s, func(c *provider.Config) {
				c.Model = tt.model
				c.Stream = strings.HasSuffix(tt.replay, ".sse")
				c.Quirks = provider.DefaultQuirks(tt.model)
			})
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
			require.NoError(t, err)
			assert.Equal(t, "Mara is older.", res.Answer)
			assert.Equal(t, []string{`get_character_context {"name":"Mara"}`}, lt.Ran(), "the call in the reasoning ran")
			assert.NotContains(t, res.Warnings, WarningNoToolUse)

			require.Len(t, s.Requests(), 2)
			second := s.Requests()[1].Decoded(t)
			assert.NotNil(t, second["tools"], "not the retry without tools of an empty reply")
			sent := sentMessages(t, s.Requests()[1])
			require.Len(t, sent, 4, "system, user, the call, its result")
			calls, _ := sent[2]["tool_calls"].([]any)
			require.Len(t, calls, 1, "the call goes back structured: %v", sent[2])
			fn := calls[0].(map[string]any)["function"].(map[string]any)
			assert.Equal(t, "get_character_context", fn["name"])
			assert.Equal(t, calls[0].(map[string]any)["id"], sent[3]["tool_call_id"])
			if r, ok := sent[2]["reasoning_content"].(string); ok {
				assert.NotContains(t, r, "get_character_context\"", "the call is out of the reasoning sent back")
				assert.NotContains(t, r, "<tool_call>")
			}
		})
	}
}

// TestReasoningCallsNeedTheQuirkAndAnOfferedTool: without the quirk the
// reply stays empty (asked again, without tools); with it, a call of a
// tool the request did not offer, or in the reasoning of a reply that
// has an answer, is the model thinking aloud, not a call.
func TestReasoningCallsNeedTheQuirkAndAnOfferedTool(t *testing.T) {
	reply := func(content, reasoning string) providertest.Step {
		return providertest.Step{Body: providertest.CompletionBody(map[string]any{
			"role": "assistant", "content": content, "reasoning_content": reasoning, "tool_calls": []any{}}, "stop")}
	}
	hermes := func(name string) string {
		return "Let me look.\n<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": {\"name\": \"Mara\"}}\n</tool_call>"
	}
	tests := []struct {
		name   string
		quirks []provider.Quirk
		first  providertest.Step
		// requests is how many the turn took; retried says the second
		// was the empty reply's retry, without tools.
		requests int
		retried  bool
		answer   string
	}{
		{name: "quirk off", first: reply("", hermes("get_character_context")), requests: 2, retried: true, answer: "Mara is older."},
		{name: "a tool not offered", quirks: []provider.Quirk{provider.QuirkReasoningToolCalls},
			first: reply("", hermes("delete_the_book")), requests: 2, retried: true, answer: "Mara is older."},
		{name: "a reply with an answer", quirks: []provider.Quirk{provider.QuirkReasoningToolCalls},
			first: reply("She is.", hermes("get_character_context")), requests: 1, answer: "She is."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt := newLoopTools(t)
			s := providertest.New(t, tt.first, providertest.TextStep("Mara is older."))
			p := scriptedProvider(t, s, func(c *provider.Config) { c.Model = "some-model"; c.Quirks = tt.quirks })
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.answer, res.Answer)
			assert.Empty(t, lt.Ran())
			require.Len(t, s.Requests(), tt.requests)
			if tt.retried {
				assert.NotContains(t, s.Requests()[1].Decoded(t), "tools")
			}
		})
	}
}
