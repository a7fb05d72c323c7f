package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/server/wire"
)

// hostileClient is a wire client whose provider comes from the editor's
// settings (trusted), with its key in keyEnv.
func hostileClient(t *testing.T, f *fakeLLM, keyEnv string) *wireClient {
	provider := map[string]any{"baseUrl": f.baseURL(), "model": "client-model", "tools": true}
	if keyEnv != "" {
		provider["apiKeyEnv"] = keyEnv
	}
	return advisorClient(t, writeProject(t, bookFiles), map[string]any{"provider": provider})
}

// TestAskErrorNeverCarriesTheKey: a 401 that echoes the key reaches the
// writer as a refusal of the key, never as the key.
func TestAskErrorNeverCarriesTheKey(t *testing.T) {
	const key = "qk9Zt7LmW2xR4vB8nP6cH3"
	t.Setenv("QUIRE_HOSTILE_KEY", key)
	f := newFakeLLM(t, fakeStep{status: http.StatusUnauthorized,
		body: `{"error":{"message":"Incorrect API key provided: ` + key + `; Bearer ` + key + `","type":"invalid_request_error","code":"invalid_api_key"}}`})
	c := hostileClient(t, f, "QUIRE_HOSTILE_KEY")
	m := c.call(1, wire.MethodAsk, map[string]any{"message": "Hello?"})
	require.NotNil(t, m.Error, "%s", m)
	assert.Contains(t, m.Error.Message, "refused quire's API key")
	assert.NotContains(t, m.Error.Message, key)
	assert.NotContains(t, m.Error.Message, key[:8])
}

// TestAskCutOffIsAnErrorWithThePartialAnswer: a stream that stops before
// the model finished fails the ask, saying so, with what arrived.
func TestAskCutOffIsAnErrorWithThePartialAnswer(t *testing.T) {
	partial := "Mara's eyes are green in the codex, and in chapter five they are"
	f := newFakeLLM(t, fakeStep{cut: true, body: chatBody(t, map[string]any{"role": "assistant", "content": partial}, "")})
	c := hostileClient(t, f, "")
	m := c.call(1, wire.MethodAsk, map[string]any{"message": "Eyes?", "workDoneToken": 9})
	require.NotNil(t, m.Error, "a cut answer is not an answer: %s", m)
	assert.Contains(t, m.Error.Message, "The model's answer was cut off")
	assert.Contains(t, m.Error.Message, "(partial)")
	assert.Contains(t, m.Error.Message, partial)
	var data struct {
		Partial string `json:"partial"`
	}
	require.NotNil(t, m.Error.Data)
	require.NoError(t, json.Unmarshal(m.Error.Data, &data))
	assert.Equal(t, partial, data.Partial)
	values := c.progressOf("9")
	require.NotEmpty(t, values)
	assert.Equal(t, "cut off", values[len(values)-1].Message)
}

// TestAskStreamNotificationsAreBounded: a long answer streamed a few words
// a chunk makes a bounded number of notifications, which still carry the
// whole answer.
func TestAskStreamNotificationsAreBounded(t *testing.T) {
	answer := strings.TrimSpace(strings.Repeat("salt and tar ", 40_000)) // ~500 KB, ~40,000 chunks
	f := newFakeLLM(t, answerStep(t, answer))
	c := hostileClient(t, f, "")
	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"message": "Eyes?", "workDoneToken": 5}))
	assert.True(t, strings.HasPrefix(r.Answer, answer[:1000]))
	var text strings.Builder
	deltas := c.heldNotes(wire.MethodAskProgress)
	for _, raw := range deltas {
		var n struct {
			Delta string `json:"delta"`
		}
		require.NoError(t, json.Unmarshal(raw, &n))
		text.WriteString(n.Delta)
	}
	progress := c.progressOf("5")
	assert.Less(t, len(deltas), 200, "pieces are coalesced")
	assert.Less(t, len(progress), 200, "reports are rate limited")
	assert.True(t, strings.HasPrefix(r.Answer, text.String()), "the pieces join into the answer")
	assert.Greater(t, text.Len(), 200_000)
}
