package server

import (
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// A failed ask from a client without window capabilities is told as a
// message a writer can act on, and the command answers null: no
// JSON-RPC code, no Go error chain.
func TestAskCommandFailureSpeaksToTheWriter(t *testing.T) {
	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())

	tests := []struct {
		name    string
		baseURL func(f *fakeLLM) string
		steps   func(t *testing.T) []fakeStep
		want    string
	}{
		{name: "model server not running", baseURL: func(*fakeLLM) string { return closed },
			want: "quire could not reach the model at " + closed + "; is the server running?"},
		{name: "model server error", baseURL: (*fakeLLM).baseURL,
			steps: func(t *testing.T) []fakeStep {
				return []fakeStep{{status: 500, body: `{"error":{"message":"out of memory"}}`}}
			},
			want: "had a problem of its own; try again in a moment (it said: out of memory)."},
		// https://platform.openai.com/docs/guides/error-codes: 429 "You
		// exceeded your current quota", code insufficient_quota.
		{name: "account out of credit", baseURL: (*fakeLLM).baseURL,
			steps: func(t *testing.T) []fakeStep {
				return []fakeStep{{status: 429, body: `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`}}
			},
			want: "is out of credit. Add credit or check the account's plan and billing"},
		// https://platform.openai.com/docs/api-reference/chat/object:
		// finish_reason "length" when max_tokens was reached.
		{name: "output-token limit reached while thinking", baseURL: (*fakeLLM).baseURL,
			steps: func(t *testing.T) []fakeStep {
				return []fakeStep{{body: chatBody(t, map[string]any{"role": "assistant", "content": "", "reasoning_content": "Hmm."}, "length")}}
			},
			want: "reached its output-token limit before it wrote an answer (a thinking model can spend all of it on its reasoning); raise provider.options.max_tokens in quire.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []fakeStep
			if tt.steps != nil {
				steps = tt.steps(t)
			}
			f := newFakeLLM(t, steps...)
			root := writeProject(t, map[string]string{
				"quire.yaml":              "provider:\n  base_url: " + tt.baseURL(f) + "\n  model: m\n  retries: 0\n",
				"codex/characters/a.md":   "---\nname: Ann\n---\n",
				"manuscript/01-harbor.md": "# Harbor\n\nAnn.\n",
			})
			c := bareClient(t, root, nil)
			m := c.runCommand(1, "quire.ask", map[string]any{"message": "Hello?"})
			require.Nil(t, m.Error, "the failure is told, not answered with a code: %s", m)
			assert.Equal(t, "null", string(m.Result))
			msgs := c.shown()
			require.Len(t, msgs, 2, "%v", msgs)
			assert.Equal(t, "Asking the Developmental Editor…", msgs[0].Message)
			assert.Equal(t, protocol.MessageTypeError, msgs[1].Type)
			assert.Contains(t, msgs[1].Message, tt.want)
			for _, bad := range []string{"dial tcp", "connect:", "-326", "quire.ask:", "provider returned"} {
				assert.NotContains(t, msgs[1].Message, bad)
			}
			assert.False(t, strings.Contains(msgs[1].Message, "\n"), "one line")
		})
	}
}
