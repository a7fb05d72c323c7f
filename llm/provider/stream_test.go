package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

func streaming(c *Config) { c.Stream = true }

func TestStreamedCompletionEqualsPlain(t *testing.T) {
	text := func(s string) *string { return &s }
	tests := []struct {
		name   string
		step   providertest.Step
		quirks []Quirk
	}{
		{name: "answer", step: providertest.TextStep("The lamp burned low, and Teo counted every hull twice.")},
		{name: "non-ASCII answer", step: providertest.TextStep("“Sorry, Teo.” Séverine’s eyes — green — never moved. 🌊")},
		{name: "empty answer", step: providertest.TextStep("")},
		{name: "two tool calls", step: providertest.CallsStep(
			providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Séverine Aubrac"}`},
			providertest.Call{ID: "c2", Name: "search_codex", Args: `{"query":"bell"}`})},
		{name: "text before a call", step: providertest.Step{Reply: &providertest.Reply{Content: text("Let me look."),
			Calls: []providertest.Call{{ID: "c1", Name: "list_codex_entries", Args: `{"entryType":"character"}`}}}}},
		{name: "arguments as an object, repaired by a quirk", quirks: []Quirk{QuirkArgumentsObject},
			step: providertest.Step{Body: providertest.CompletionBody(json.RawMessage(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_codex","arguments":{"query":"bell"}}}]}`), "tool_calls")}},
		{name: "content as parts", step: providertest.Step{Body: providertest.CompletionBody(json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"in "},{"type":"text","text":"parts"}]}`), "stop")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain := providertest.New(t, tt.step)
			streamed := providertest.New(t, tt.step)
			req := CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools(), Quirks: tt.quirks}
			want, err := scriptedProvider(t, plain).Complete(t.Context(), req)
			require.NoError(t, err)

			var pieces []string
			req.OnDelta = func(s string) { pieces = append(pieces, s) }
			got, err := scriptedProvider(t, streamed, streaming).Complete(t.Context(), req)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			// Text parts are answer text, streamed like a string.
			assert.Equal(t, want.Message.Content, strings.Join(pieces, ""))
			if len(want.Message.Content) > 20 {
				assert.Greater(t, len(pieces), 1, "a long answer arrives in pieces")
			}
			body := streamed.Requests()[0].Decoded(t)
			assert.Equal(t, true, body["stream"])
			assert.Equal(t, map[string]any{"include_usage": true}, body["stream_options"])
			assert.NotContains(t, plain.Requests()[0].Decoded(t), "stream")
		})
	}
}

func TestStreamPeekEqualsSentBody(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := scriptedProvider(t, s, streaming, func(c *Config) {
		c.Defaults = map[string]any{"temperature": 0.3}
	})
	// stream_options is the client's own, as stream is.
	req := CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools(),
		Overrides: map[string]any{"stream_options": map[string]any{"include_usage": false}}}
	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, string(s.Requests()[0].Body), string(peek))
}

func TestStreamErrorEventIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Half\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"error\":{\"message\":\"model overloaded\",\"type\":\"server_error\"}}\n\n")
	}))
	t.Cleanup(srv.Close)
	p, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "k", Retries: -1, Stream: true})
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "model overloaded")
}

func TestStreamErrorStatusIsReadable(t *testing.T) {
	s := providertest.New(t, providertest.ErrorStep(http.StatusUnauthorized, "invalid_api_key", "bad key", nil))
	_, err := scriptedProvider(t, s, streaming).Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "provider returned 401 invalid_api_key: bad key")
}

func TestChunkAssembler(t *testing.T) {
	chunk := func(delta string) string {
		return `{"id":"c","model":"m","created":5,"choices":[{"index":0,"delta":` + delta + `}]}`
	}
	tests := []struct {
		name   string
		chunks []string
		want   string
		deltas string
	}{
		{name: "name and arguments in pieces",
			chunks: []string{
				chunk(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"search_","arguments":"{\"qu"}}]}`),
				chunk(`{"tool_calls":[{"index":0,"function":{"name":"codex","arguments":"ery\":\"x\"}"}}]}`),
			},
			want: `{"choices":[{"finish_reason":"","index":0,"message":{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"query\":\"x\"}","name":"search_codex"},"id":"a","type":"function"}]}}],"created":5,"id":"c","model":"m","object":"chat.completion"}`},
		{name: "calls without an index are one call each",
			chunks: []string{
				chunk(`{"tool_calls":[{"id":"a","function":{"name":"one","arguments":"{}"}}]}`),
				chunk(`{"tool_calls":[{"id":"b","function":{"name":"two","arguments":"{}"}}]}`),
			},
			want: `{"choices":[{"finish_reason":"","index":0,"message":{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"one"},"id":"a","type":"function"},{"function":{"arguments":"{}","name":"two"},"id":"b","type":"function"}]}}],"created":5,"id":"c","model":"m","object":"chat.completion"}`},
		{name: "other choices and junk are ignored",
			chunks: []string{
				`not json`,
				`{"id":"c","model":"m","created":5,"choices":[{"index":1,"delta":{"content":"other"}}]}`,
				chunk(`{"content":"kept"}`),
			},
			deltas: "kept",
			want:   `{"choices":[{"finish_reason":"","index":0,"message":{"content":"kept","role":"assistant"}}],"created":5,"id":"c","model":"m","object":"chat.completion"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a chunkAssembler
			var deltas string
			for _, c := range tt.chunks {
				deltas += a.add([]byte(c))
			}
			assert.JSONEq(t, tt.want, string(a.body()))
			assert.Equal(t, tt.deltas, deltas)
		})
	}
}
