package server

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	m := c.call(1, methodAsk, map[string]any{"message": "Hello?"})
	require.NotNil(t, m.Error, "%s", m)
	assert.Contains(t, m.Error.Message, "refused quire's API key")
	assert.NotContains(t, m.Error.Message, key)
	assert.NotContains(t, m.Error.Message, key[:8])
}
