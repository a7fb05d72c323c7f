package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyEcho is a provider that answers 200 with the Authorization header it
// was sent (as echo makes it: whole, or cut), whole, or streamed in pieces
// of piece characters, in the shape of OpenAI's chat completions and
// their stream (https://platform.openai.com/docs/api-reference/chat-streaming).
func keyEcho(t *testing.T, piece int, echo func(header string) string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.Unmarshal(data, &req)
		answer := "Your key is " + echo(r.Header.Get("Authorization")) + ", and Mara’s eyes are green."
		if !req.Stream {
			body, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}}})
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		runes := []rune(answer)
		for i := 0; i < len(runes); i += piece {
			text, _ := json.Marshal(string(runes[i:min(i+piece, len(runes))]))
			fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", text)
		}
		fmt.Fprint(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// askEchoing runs quire ask (extra args added) against a provider that
// answers with echo of the Authorization header it was sent, streamed
// piece characters at a time (0: one piece), the key in ECHO_TEST_KEY.
func askEchoing(t *testing.T, book, cache string, piece int, echo func(string) string, extra ...string) (stdout, stderr string) {
	t.Helper()
	srv := keyEcho(t, max(piece, 1), echo)
	args := append([]string{"ask", "--project", book, cache, "--base-url", srv.URL + "/v1", "--model", "m",
		"--api-key-env", "ECHO_TEST_KEY", "--tools", "off", "Eyes?"}, extra...)
	stdout, stderr, err := run(t, args...)
	require.NoError(t, err)
	return stdout, stderr
}

// TestAskNeverPrintsAnEchoedKey: a provider that puts the key it was sent
// in a successful answer gets it taken out of what quire ask prints,
// plain, streamed in pieces that split the key anywhere, and as JSON.
func TestAskNeverPrintsAnEchoedKey(t *testing.T) {
	book, cache := sampleProject(t)
	// Shaped like no credential pattern: only its being the key in use
	// can take it out.
	const key = "quireEchoKey2718281828"
	t.Setenv("ECHO_TEST_KEY", key)
	tests := []struct {
		name  string
		args  []string
		piece int
	}{
		{name: "plain"},
		{name: "--json", args: []string{"--json"}},
		{name: "--stream, 1 character a piece", args: []string{"--stream"}, piece: 1},
		{name: "--stream, 3 characters a piece", args: []string{"--stream"}, piece: 3},
		{name: "--stream, 7 characters a piece", args: []string{"--stream"}, piece: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr := askEchoing(t, book, cache, tt.piece, func(h string) string { return h }, tt.args...)
			assert.Contains(t, stdout, "Mara’s eyes are green.")
			assert.Contains(t, stdout, "Your key is Bearer [redacted]")
			for _, text := range []string{stdout, stderr} {
				assert.NotContains(t, text, key)
				assert.NotContains(t, text, key[:len(key)-1], "nor the most of it")
			}
			if tt.piece > 0 {
				assert.Equal(t, 1, strings.Count(stdout, "Mara’s eyes are green."), "the answer printed once")
			}
		})
	}
}

// TestAskNeverPrintsAPieceOfAnEchoedKey: a provider that echoes most of
// the key, without "Bearer" and without the key's sk- prefix (32 of its
// 35 characters), gets that piece taken out of what quire ask prints,
// plain, streamed and as JSON, as the whole key would be.
func TestAskNeverPrintsAPieceOfAnEchoedKey(t *testing.T) {
	book, cache := sampleProject(t)
	// Shaped as DeepSeek's keys are (sk- and 32 lower-case hexadecimal
	// digits): no lookalike rule takes out a piece of it.
	const key = "sk-4f0c2b9e8d7a61534e2f0a9b8c7d6e5f"
	t.Setenv("ECHO_TEST_KEY", key)
	tests := []struct {
		name  string
		args  []string
		piece int
	}{
		{name: "plain"},
		{name: "--json", args: []string{"--json"}},
		{name: "--stream, 1 character a piece", args: []string{"--stream"}, piece: 1},
		{name: "--stream, 5 characters a piece", args: []string{"--stream"}, piece: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr := askEchoing(t, book, cache, tt.piece, func(h string) string { return strings.TrimPrefix(h, "Bearer sk-") }, tt.args...)
			assert.Contains(t, stdout, "Your key is [redacted], and Mara’s eyes are green.")
			for _, text := range []string{stdout, stderr} {
				assert.NotContains(t, text, key[3:])
				assert.NotContains(t, text, key[3:3+12], "nor a run of 12 of its characters")
			}
		})
	}
}
