package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// TestAskNeverHandsOnAnEchoedKey: a provider that answers 200 with the
// Authorization header it was sent, streamed three characters a piece
// (OpenAI's stream shape,
// https://platform.openai.com/docs/api-reference/chat-streaming), gets the
// key taken out of the quire/ask result, its progress, and the answer
// document quire.ask writes in the cache.
func TestAskNeverHandsOnAnEchoedKey(t *testing.T) {
	const key = "quireEchoKey2718281828"
	t.Setenv("ECHO_TEST_KEY", key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		runes := []rune("Your key is " + r.Header.Get("Authorization") + ", and Mara’s eyes are green.")
		for i := 0; i < len(runes); i += 3 {
			text, _ := json.Marshal(string(runes[i:min(i+3, len(runes))]))
			fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", text)
		}
		fmt.Fprint(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)

	t.Setenv("OPENAI_API_KEY", "")
	c := startWire(t, Options{})
	c.root = writeProject(t, bookFiles)
	m := c.call("init", protocol.MethodInitialize, map[string]any{
		"rootUri":          textdoc.PathURI(c.root),
		"workspaceFolders": []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(c.root)), Name: "book"}},
		"capabilities": protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true,
			ShowDocument: &protocol.ShowDocumentClientCapabilities{Support: true}}},
		"initializationOptions": map[string]any{"provider": map[string]any{
			"baseUrl": srv.URL + "/v1", "model": "m", "tools": false, "apiKeyEnv": "ECHO_TEST_KEY"}},
	})
	require.Nil(t, m.Error, "initialize: %s", m)
	c.notify(protocol.MethodInitialized, map[string]any{})

	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"message": "Eyes?", "workDoneToken": "tok"}))
	assert.Equal(t, "Your key is Bearer [redacted], and Mara’s eyes are green.", r.Answer)

	r = decodeAsk(t, c.call(2, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.ask",
		"arguments": []any{map[string]any{"message": "Eyes?"}}}))
	assert.Contains(t, r.Answer, "[redacted]")
	docs := c.shownDocuments()
	require.Len(t, docs, 1, "the answer document was written")
	assert.Contains(t, docs[0], "Mara’s eyes are green.")

	var notes []string
	for _, method := range []string{protocol.MethodProgress, wire.MethodAskProgress, "window/showMessage"} {
		for _, n := range c.heldNotes(method) {
			notes = append(notes, string(n))
		}
	}
	require.NotEmpty(t, notes)
	for _, text := range append(append(notes, docs...), r.Answer) {
		assert.NotContains(t, text, key)
		assert.NotContains(t, text, key[:len(key)-1])
	}
}
