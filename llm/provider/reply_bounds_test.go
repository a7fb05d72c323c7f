package provider

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// hugeReply is a provider that answers with a chat completion (or an
// error, by status) whose tool call arguments run to size bytes, written
// a piece at a time; written counts the bytes the client took.
type hugeReply struct {
	srv     *httptest.Server
	written atomic.Int64
}

func newHugeReply(t *testing.T, status int, size int64, stream bool) *hugeReply {
	h := &hugeReply{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		write := func(s string) bool {
			n, err := io.WriteString(w, s)
			h.written.Add(int64(n))
			return err == nil
		}
		if stream {
			// The call's arguments in 64 KB pieces, as a stream sends
			// them (https://platform.openai.com/docs/api-reference/chat-streaming).
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(status)
			if !write(`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"search_codex","arguments":""}}]},"finish_reason":null}]}` + "\n\n") {
				return
			}
			piece := `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + strings.Repeat("a", 64<<10) + `"}}]},"finish_reason":null}]}` + "\n\n"
			for sent := int64(0); sent < size; sent += int64(len(piece)) {
				if !write(piece) {
					return
				}
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if !write(`{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_codex","arguments":"{\"query\":\"`) {
			return
		}
		piece := strings.Repeat("a", 64<<10)
		for sent := int64(0); sent < size; sent += int64(len(piece)) {
			if !write(piece) {
				return
			}
		}
		write(`\"}"}}]}}]}`)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// TestHugeReplyIsRefusedWhileRead: a reply body past MaxReplyBytes (a
// 100 MB tool call, a hostile provider's 200 MB answer) is an error as
// soon as the cap is passed, and the rest is never read, so memory stays
// bounded whatever the provider sends.
func TestHugeReplyIsRefusedWhileRead(t *testing.T) {
	const size = 100 << 20
	tests := []struct {
		name   string
		status int
		stream bool
	}{
		{name: "a 100 MB tool call", status: http.StatusOK},
		{name: "a 100 MB error body", status: http.StatusBadRequest},
		{name: "a 100 MB streamed tool call", status: http.StatusOK, stream: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHugeReply(t, tt.status, size, tt.stream)
			p, err := New(Config{BaseURL: h.srv.URL + "/v1", Model: "m", APIKey: "sk-test", Tools: true, Retries: -1, Stream: tt.stream})
			require.NoError(t, err)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools()})
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			var big *ReplyTooLargeError
			require.ErrorAs(t, err, &big)
			assert.Contains(t, err.Error(), "MB")
			h.srv.CloseClientConnections()
			assert.Less(t, h.written.Load(), int64(size/2), "the body was not read to its end")
			if !tt.stream {
				// What was read is allocated about once: io.ReadAll's
				// growth had allocated 40 MB to read 8.
				allocated := after.TotalAlloc - before.TotalAlloc
				t.Logf("allocated %d MB", allocated>>20)
				assert.Less(t, allocated, uint64(2*MaxReplyBytes), "allocated while reading")
			}
		})
	}
}

// TestOutOfCreditIsNotRetried: OpenAI answers 429 with code
// insufficient_quota when the account has no credit; waiting cannot help,
// so the client does not retry, and the error says what to do.
// https://platform.openai.com/docs/guides/error-codes (429 - You exceeded
// your current quota).
func TestOutOfCreditIsNotRetried(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{name: "code", body: `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`},
		{name: "type only", body: `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t,
				providertest.Step{Status: http.StatusTooManyRequests, Body: tt.body, Header: map[string]string{"Retry-After": "0"}},
				providertest.TextStep("must not be asked for"))
			p := scriptedProvider(t, s, func(c *Config) { c.Retries = 2 })
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()})
			require.Error(t, err)
			assert.Len(t, s.Requests(), 1, "not retried")
			assert.Contains(t, err.Error(), "out of credit")
			var pe *Error
			require.ErrorAs(t, err, &pe)
			assert.True(t, pe.OutOfCredit())
		})
	}
}
