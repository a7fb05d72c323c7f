package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// Responses API stream events as OpenAI documents them: an "event:" line
// naming the type, then the event as "data:".
// https://platform.openai.com/docs/api-reference/responses-streaming

func sseEvent(data string) string {
	var ev struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		panic(err)
	}
	return "event: " + ev.Type + "\ndata: " + data + "\n\n"
}

func responsesSSE(events ...string) string {
	var b strings.Builder
	for i, e := range events {
		// Every event carries its sequence number.
		e = strings.Replace(e, `{"type":`, fmt.Sprintf(`{"sequence_number":%d,"type":`, i), 1)
		b.WriteString(sseEvent(e))
	}
	return b.String()
}

const responsesStreamUsage = `"usage":{"input_tokens":321,"input_tokens_details":{"cached_tokens":0},"output_tokens":45,"output_tokens_details":{"reasoning_tokens":12},"total_tokens":366}`

// textStream streams text in the given pieces, then completes.
func textStream(pieces ...string) string {
	events := []string{
		`{"type":"response.created","response":{"id":"resp_s1","object":"response","created_at":1,"status":"in_progress","model":"gpt-5.1","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_s1","type":"message","status":"in_progress","role":"assistant","content":[]}}`,
		`{"type":"response.content_part.added","item_id":"msg_s1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`,
	}
	for _, p := range pieces {
		d, _ := json.Marshal(p)
		events = append(events, `{"type":"response.output_text.delta","item_id":"msg_s1","output_index":0,"content_index":0,"delta":`+string(d)+`}`)
	}
	all, _ := json.Marshal(strings.Join(pieces, ""))
	events = append(events,
		`{"type":"response.output_text.done","item_id":"msg_s1","output_index":0,"content_index":0,"text":`+string(all)+`}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_s1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":`+string(all)+`,"annotations":[]}]}}`,
		`{"type":"response.completed","response":{"id":"resp_s1","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[{"id":"msg_s1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":`+string(all)+`,"annotations":[]}]}],`+responsesStreamUsage+`}}`)
	return responsesSSE(events...)
}

func TestResponsesStream(t *testing.T) {
	callStream := responsesSSE(
		`{"type":"response.created","response":{"id":"resp_s2","object":"response","created_at":1,"status":"in_progress","model":"gpt-5.1","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_mara","name":"get_character_context"}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"name\":"}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\"Mara\"}"}`,
		`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"name\":\"Mara\"}"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"name\":\"Mara\"}","call_id":"call_mara","name":"get_character_context"}}`,
		`{"type":"response.completed","response":{"id":"resp_s2","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"name\":\"Mara\"}","call_id":"call_mara","name":"get_character_context"}],`+responsesStreamUsage+`}}`)
	failed := responsesSSE(
		`{"type":"response.created","response":{"id":"resp_s3","object":"response","created_at":1,"status":"in_progress","model":"gpt-5.1","output":[]}}`,
		`{"type":"response.failed","response":{"id":"resp_s3","object":"response","created_at":1,"status":"failed","error":{"code":"insufficient_quota","message":"You exceeded your current quota."},"model":"gpt-5.1","output":[]}}`)
	cut := strings.Split(textStream("Mara ", "is ", "older."), "event: response.output_text.done")[0]
	tests := []struct {
		name     string
		sse      string
		maxBytes int
		want     Message
		pieces   []string
		finish   string
		usage    Usage
		err      string
	}{
		{name: "text", sse: textStream("Mara ", "is ", "older."), want: Message{Role: RoleAssistant, Content: "Mara is older."},
			pieces: []string{"Mara ", "is ", "older."}, finish: "stop", usage: Usage{PromptTokens: 321, CompletionTokens: 45}},
		{name: "function call", sse: callStream, finish: "tool_calls", usage: Usage{PromptTokens: 321, CompletionTokens: 45},
			want: Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_mara", Name: "get_character_context", Arguments: `{"name":"Mara"}`}}}},
		{name: "cut at the answer bound", sse: textStream("Mara ", "is ", "older."), maxBytes: 7,
			want: Message{Role: RoleAssistant, Content: "Mara is"}, pieces: []string{"Mara ", "is"}},
		{name: "failed", sse: failed, err: "out of credit"},
		{name: "ended before the response did", sse: cut, pieces: []string{"Mara ", "is ", "older."}, err: "cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, providertest.Step{SSE: tt.sse})
			p := scriptedProvider(t, s, func(c *Config) { c.API = APIResponses; c.Stream = true })
			var pieces []string
			c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools(),
				MaxAnswerBytes: tt.maxBytes, OnDelta: func(s string) { pieces = append(pieces, s) }})
			body := s.Requests()[0].Decoded(t)
			assert.Equal(t, true, body["stream"], "the Responses API is streamed")
			// Piece bounds move (the key's redaction holds a tail back);
			// the text does not.
			assert.Equal(t, strings.Join(tt.pieces, ""), strings.Join(pieces, ""))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Message)
			assert.Equal(t, tt.finish, c.FinishReason)
			assert.Equal(t, tt.usage, c.Usage)
		})
	}
}

// TestResponsesStreamPeekEqualsSentBody: what --peek shows is what a
// streamed Responses request sends.
func TestResponsesStreamPeekEqualsSentBody(t *testing.T) {
	s := providertest.New(t, providertest.Step{SSE: textStream("ok")})
	p := scriptedProvider(t, s, func(c *Config) { c.API = APIResponses; c.Stream = true })
	req := CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools()}
	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.JSONEq(t, string(s.Requests()[0].Body), string(peek))
}
