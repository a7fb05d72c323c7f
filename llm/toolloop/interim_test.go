package toolloop

import (
	"encoding/json"
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

// TestStreamedCommentaryIsToldBeforeTheAnswer: streamed, a commentary
// message is told as interim when it is whole, before the final answer's
// text streams, and not told twice.
// https://platform.openai.com/docs/api-reference/responses-streaming
func TestStreamedCommentaryIsToldBeforeTheAnswer(t *testing.T) {
	ev := func(data string) string {
		var e struct {
			Type string `json:"type"`
		}
		require.NoError(t, json.Unmarshal([]byte(data), &e))
		return "event: " + e.Type + "\ndata: " + data + "\n\n"
	}
	final := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[` +
		`{"type":"message","id":"msg_c","role":"assistant","status":"completed","phase":"commentary","content":[{"type":"output_text","text":"Checking the codex.","annotations":[]}]},` +
		`{"type":"message","id":"msg_f","role":"assistant","status":"completed","phase":"final_answer","content":[{"type":"output_text","text":"Mara is older.","annotations":[]}]}],` +
		`"usage":{"input_tokens":20,"output_tokens":6,"total_tokens":26}}`
	sse := ev(`{"type":"response.output_item.added","sequence_number":0,"output_index":0,"item":{"id":"msg_c","type":"message","status":"in_progress","role":"assistant","phase":"commentary","content":[]}}`) +
		ev(`{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_c","output_index":0,"content_index":0,"delta":"Checking "}`) +
		ev(`{"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_c","output_index":0,"content_index":0,"delta":"the codex."}`) +
		ev(`{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"id":"msg_c","type":"message","status":"completed","role":"assistant","phase":"commentary","content":[{"type":"output_text","text":"Checking the codex.","annotations":[]}]}}`) +
		ev(`{"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"id":"msg_f","type":"message","status":"in_progress","role":"assistant","phase":"final_answer","content":[]}}`) +
		ev(`{"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_f","output_index":1,"content_index":0,"delta":"Mara is older."}`) +
		ev(`{"type":"response.completed","sequence_number":6,"response":`+final+`}`)
	s := providertest.New(t, providertest.Step{SSE: sse})
	p := responsesProvider(t, s, func(c *provider.Config) { c.Stream = true })
	var events []string
	res, err := Run(t.Context(), p, nil, loopMessages(), Options{
		OnInterim: func(_ int, text string) { events = append(events, "interim: "+text) },
		OnDelta: func(_ int, text string) {
			if n := len(events); n > 0 && strings.HasPrefix(events[n-1], "answer: ") {
				events[n-1] += text
				return
			}
			events = append(events, "answer: "+text)
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	assert.Equal(t, []string{"Checking the codex."}, res.Interim)
	assert.Equal(t, []string{"interim: Checking the codex.", "answer: Mara is older."}, events)
}
