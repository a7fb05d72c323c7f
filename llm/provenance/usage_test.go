package provenance

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestProvenanceRecordsTokenUsage: every reply's token usage is
// recorded, whichever API answered and streamed or not. Chat Completions
// count prompt_tokens and completion_tokens, in the last chunk of a
// stream asked with stream_options.include_usage
// (https://platform.openai.com/docs/api-reference/chat-streaming); the
// Responses API counts input_tokens and output_tokens, in the response
// the response.completed event carries when streamed
// (https://platform.openai.com/docs/api-reference/responses/object,
// https://platform.openai.com/docs/api-reference/responses-streaming).
func TestProvenanceRecordsTokenUsage(t *testing.T) {
	responsesBody := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"search_codex","arguments":"{}","status":"completed"}],"usage":{"input_tokens":321,"output_tokens":45,"total_tokens":366}}`
	responsesStream := "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"status\":\"in_progress\",\"model\":\"gpt-5.1\",\"output\":[],\"usage\":null}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":1,\"response\":" + responsesBody + "}\n\n"
	chatStream := providertest.ChatSSE(
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Green."},"finish_reason":null}]}`,
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":321,"completion_tokens":45,"total_tokens":366}}`)
	chatBody := evalBody(`{"role":"assistant","content":"Green."}`)
	tests := []struct {
		name   string
		api    string
		stream bool
		step   providertest.Step
		tools  []string
	}{
		{name: "chat", api: provider.APIChat, step: providertest.Step{Body: chatBody}},
		{name: "chat streamed", api: provider.APIChat, stream: true, step: providertest.Step{SSE: chatStream}},
		{name: "responses", api: provider.APIResponses, step: providertest.Step{Body: responsesBody}, tools: []string{"search_codex"}},
		{name: "responses streamed", api: provider.APIResponses, stream: true, step: providertest.Step{SSE: responsesStream}, tools: []string{"search_codex"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plog, err := Open(t.TempDir())
			require.NoError(t, err)
			s := providertest.New(t, tt.step)
			p := scriptedProvider(t, s, func(c *provider.Config) {
				c.API, c.Stream = tt.api, tt.stream
				c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "", nil)}
			})
			_, err = p.Complete(context.Background(), provider.CompletionRequest{Messages: providerTestMessages()})
			require.NoError(t, err)
			if tt.stream && tt.api == provider.APIChat {
				body := s.Requests()[0].Decoded(t)
				assert.Equal(t, map[string]any{"include_usage": true}, body["stream_options"], "a stream is asked for its usage")
			}
			raw, err := os.ReadFile(plog.Path())
			require.NoError(t, err)
			var r Record
			require.NoError(t, json.Unmarshal(raw, &r))
			assert.Equal(t, int64(321), r.PromptTokens)
			assert.Equal(t, int64(45), r.CompletionTokens)
			assert.Equal(t, tt.tools, r.Tools)
		})
	}
}

func evalBody(message string) string {
	var m map[string]any
	if err := json.Unmarshal([]byte(message), &m); err != nil {
		panic(err)
	}
	b, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": m}},
		"usage":   map[string]any{"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366}})
	return string(b)
}
