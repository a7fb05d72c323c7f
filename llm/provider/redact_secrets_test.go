package provider

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// hostileKey is a key no pattern would catch by its shape: only its value
// gives it away.
const hostileKey = "qk9Zt7LmW2xR4vB8nP6cH3"

// TestProviderErrorNeverCarriesTheKey: a provider that echoes the key in
// its error (whole, masked, in a Bearer header it quotes, or in the
// stream's error event) never gets it through the client's error text.
func TestProviderErrorNeverCarriesTheKey(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		stream bool
		step   providertest.Step
	}{
		{name: "401 echoing the key", key: hostileKey,
			step: providertest.ErrorStep(http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided: "+hostileKey+". You can find your API key at https://example.test/keys.", nil)},
		{name: "401 echoing it masked", key: "sk-proj-abcdefgh12345678ijklmnop",
			step: providertest.ErrorStep(http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided: sk-proj-****************mnop.", nil)},
		{name: "401 echoing a piece of it", key: hostileKey,
			step: providertest.ErrorStep(http.StatusUnauthorized, "", "key qk9Zt7LmW2x... is not valid", nil)},
		{name: "400 quoting the header", key: hostileKey,
			step: providertest.ErrorStep(http.StatusBadRequest, "", "bad header Authorization: Bearer "+hostileKey, nil)},
		{name: "403 with the key as the code", key: hostileKey,
			step: providertest.ErrorStep(http.StatusForbidden, hostileKey, "forbidden", nil)},
		{name: "error event in the stream", key: hostileKey, stream: true,
			step: providertest.Step{Body: "data: {\"error\":{\"message\":\"bad key " + hostileKey + "\"}}\n\n", Header: map[string]string{"Content-Type": "text/event-stream"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.step)
			p := scriptedProvider(t, s, func(c *Config) { c.APIKey = tt.key; c.Stream = tt.stream })
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
			require.Error(t, err)
			text := err.Error()
			assert.NotContains(t, text, tt.key)
			assert.NotContains(t, text, tt.key[:keyPieceLen])
			assert.NotContains(t, text, "****")
			var pe *Error
			if errors.As(err, &pe) {
				assert.NotContains(t, pe.Message+pe.Code, tt.key[:keyPieceLen])
			}
			assert.Contains(t, text, redactedSecret, "the writer sees that something was taken out")
		})
	}
}

func TestProviderErrorTextIsBounded(t *testing.T) {
	s := providertest.New(t, providertest.ErrorStep(http.StatusBadRequest, "", strings.Repeat("no ", 100_000), nil))
	_, err := scriptedProvider(t, s).Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 2*maxErrorTextRunes)
}

func TestRedactSecrets(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nothing to hide here", "nothing to hide here"},
		{"key sk-abcdef123456 refused.", "key [redacted] refused."},
		{"Authorization: Bearer xyz", "Authorization: Bearer [redacted]"},
		{"digest sha256:" + strings.Repeat("ab12", 16), "digest sha256:" + strings.Repeat("ab12", 16)},
		{"token Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg", "token [redacted]"},
		{"read manuscript/01-the-long-night-of-the-harbor-2024.md", "read manuscript/01-the-long-night-of-the-harbor-2024.md"},
		{"the key " + hostileKey + "!", "the key [redacted]!"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, RedactSecrets(tt.in, hostileKey), tt.in)
	}
}

// TestRedactingHandlerBoundsAndRedactsStrings: a model's 10,000-character
// tool name and a provider's key-bearing error make short log lines.
func TestRedactingHandlerBoundsAndRedactsStrings(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactingHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.Debug("tool call", "tool", strings.Repeat("x", 10_000), "err", fmt.Errorf("provider said: bad key sk-live-1234567890abcdef"))
	line := buf.String()
	assert.Less(t, len(line), 1000)
	assert.Contains(t, line, "…")
	assert.NotContains(t, line, "sk-live")
}
