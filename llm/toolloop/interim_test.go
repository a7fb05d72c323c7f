package toolloop

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestInterimTextIsNotTheAnswer: what the model says in a reply that also
// calls tools, and a Responses API message of phase "commentary", is
// interim text: kept apart in Result.Interim and told to OnInterim, never
// glued to the answer, streamed or not.
//
// Chat Completions: content next to tool_calls
// (https://platform.openai.com/docs/api-reference/chat/object). Responses
// API: message items with "phase":"commentary" before the
// "phase":"final_answer" one
// (https://platform.openai.com/docs/guides/reasoning, phase on output
// messages of gpt-5 models).
func TestInterimTextIsNotTheAnswer(t *testing.T) {
	pre := "PRE_TOOL"
	commentaryBody := `{"id":"resp_2","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[` +
		`{"type":"message","id":"msg_c","role":"assistant","status":"completed","phase":"commentary","content":[{"type":"output_text","text":"CHECKED_THE_CODEX","annotations":[]}]},` +
		`{"type":"message","id":"msg_f","role":"assistant","status":"completed","phase":"final_answer","content":[{"type":"output_text","text":"POST_TOOL","annotations":[]}]}],` +
		`"usage":{"input_tokens":20,"output_tokens":6,"total_tokens":26}}`
	tests := []struct {
		name      string
		stream    bool
		responses bool
		steps     []providertest.Step
		interim   []string
	}{
		{name: "chat", interim: []string{pre}, steps: []providertest.Step{
			{Reply: &providertest.Reply{Content: &pre, Calls: []providertest.Call{{ID: "c1", Name: "search_codex", Args: `{"query":"bell"}`}}}},
			providertest.TextStep("POST_TOOL")}},
		{name: "chat streamed", stream: true, interim: []string{pre}, steps: []providertest.Step{
			{Reply: &providertest.Reply{Content: &pre, Calls: []providertest.Call{{ID: "c1", Name: "search_codex", Args: `{"query":"bell"}`}}}},
			providertest.TextStep("POST_TOOL")}},
		{name: "responses commentary", responses: true, interim: []string{pre, "CHECKED_THE_CODEX"}, steps: []providertest.Step{
			{Reply: &providertest.Reply{Content: &pre, Calls: []providertest.Call{{ID: "c1", Name: "search_codex", Args: `{"query":"bell"}`}}}},
			{Body: commentaryBody}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt := newLoopTools(t)
			s := providertest.New(t, tt.steps...)
			p := scriptedProvider(t, s, func(c *provider.Config) { c.Stream = tt.stream })
			if tt.responses {
				p = responsesProvider(t, s)
			}
			var told []string
			streamed := map[int]string{}
			res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{
				OnInterim: func(_ int, text string) { told = append(told, text) },
				OnDelta:   func(round int, text string) { streamed[round] += text },
			})
			require.NoError(t, err)
			assert.Equal(t, "POST_TOOL", res.Answer)
			assert.Equal(t, tt.interim, res.Interim)
			assert.Equal(t, tt.interim, told)
			if tt.stream {
				assert.Equal(t, map[int]string{1: pre, 2: "POST_TOOL"}, streamed, "each round's text streams in its round")
			}
			for _, i := range res.Interim {
				assert.False(t, strings.Contains(res.Answer, i))
			}
		})
	}
}
