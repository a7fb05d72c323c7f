package provenance

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/clienttest"
)

// gatedStream is a provider that sends the first piece of an answer and
// holds the rest until release is closed, so a test can see whether the
// first piece reached the caller while the reply was still open.
func gatedStream(t *testing.T, release <-chan struct{}) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) {
			f := "null"
			if finish != "" {
				f = fmt.Sprintf("%q", finish)
			}
			fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":%s}]}\n\n", delta, f)
			w.(http.Flusher).Flush()
		}
		chunk("First ", "")
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
			return
		}
		chunk("and last.", "stop")
		fmt.Fprint(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func providerTestMessages() []provider.Message {
	return []provider.Message{
		{Role: provider.RoleSystem, Content: "You are an editor."},
		{Role: provider.RoleUser, Content: "Who is Mara?"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "get_character_context", Arguments: `{"name":"Mara"}`}}},
		{Role: provider.RoleTool, ToolCallID: "call_1", Content: `{"ok":true}`},
	}
}

// secretProse is prose that must never reach a log (as in the provider's
// redaction tests).
const secretProse = "Mara Vell walked the quay at dusk"

// scriptedProvider is the real client pointed at the fake provider.
var scriptedProvider = clienttest.Scripted
