package provider

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	secretProse = "Mara Vell walked the quay at dusk"
	secretKey   = "sk-live-0123456789"
)

func TestRedactRequestBodyHidesProseAndKeys(t *testing.T) {
	body := `{"model":"m","messages":[{"role":"user","content":"` + secretProse + `"}],` +
		`"input":"` + secretProse + `","prompt":"` + secretProse + `","instructions":"` + secretProse + `",` +
		`"nested":{"deeper":[{"Prompt":"` + secretProse + `"}],"api_key":"` + secretKey + `","apiKey":"` + secretKey + `"},` +
		`"headers":{"Authorization":"Bearer ` + secretKey + `"},"temperature":0.2}`
	out := RedactRequestBody([]byte(body))
	assert.NotContains(t, string(out), secretProse)
	assert.NotContains(t, string(out), secretKey)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m), "still JSON: %s", out)
	assert.Equal(t, "m", m["model"])
	assert.Equal(t, 0.2, m["temperature"])
	assert.Regexp(t, `^\[redacted \d+ bytes\]$`, m["messages"])
	assert.Equal(t, "[redacted]", m["headers"].(map[string]any)["Authorization"])

	notJSON := RedactRequestBody([]byte("Authorization: " + secretKey + " " + secretProse))
	assert.NotContains(t, string(notJSON), secretProse)
	assert.NotContains(t, string(notJSON), secretKey)
	assert.Empty(t, RedactRequestBody(nil))
}

func TestRedactingHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactingHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	body := []byte(`{"messages":[{"content":"` + secretProse + `"}]}`)
	log.With("authorization", "Bearer "+secretKey).WithGroup("req").Debug("provider request",
		"body", json.RawMessage(body), "raw", body, "prompt", secretProse, "api_key", secretKey,
		slog.Group("g", "apiKey", secretKey, "content", secretProse), "host", "example.com")
	out := buf.String()
	assert.NotContains(t, out, secretProse)
	assert.NotContains(t, out, secretKey)
	assert.Contains(t, out, "example.com")
	assert.Contains(t, out, "redacted")
}
