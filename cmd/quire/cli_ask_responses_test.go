package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskStreamsTheResponsesAPI: --stream streams the Responses API too,
// its answer printed from the response.output_text.delta events
// (https://platform.openai.com/docs/api-reference/responses-streaming).
func TestAskStreamsTheResponsesAPI(t *testing.T) {
	book, cache := sampleProject(t)
	var sent map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewDecoder(r.Body).Decode(&sent)
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(typ, data string) { fmt.Fprintf(w, "event: %s\ndata: {\"type\":%q,%s}\n\n", typ, typ, data) }
		ev("response.output_item.added", `"sequence_number":0,"output_index":0,"item":{"id":"m1","type":"message","status":"in_progress","role":"assistant","content":[]}`)
		for i, piece := range []string{"Green ", "in the codex, ", "brown in chapter 5."} {
			ev("response.output_text.delta", fmt.Sprintf(`"sequence_number":%d,"item_id":"m1","output_index":0,"content_index":0,"delta":%q`, i+1, piece))
		}
		ev("response.completed", `"sequence_number":4,"response":{"id":"resp_s","object":"response","created_at":1,"status":"completed","model":"fake","output":[{"id":"m1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Green in the codex, brown in chapter 5.","annotations":[]}]}],"usage":{"input_tokens":9,"output_tokens":9,"total_tokens":18}}`)
	}))
	t.Cleanup(srv.Close)
	out, _, err := run(t, "ask", "--project", book, cache, "--base-url", srv.URL+"/v1", "--model", "fake",
		"--api", "responses", "--stream", "--persona", "continuity-editor", "Eyes?")
	require.NoError(t, err)
	assert.Equal(t, true, sent["stream"])
	assert.Equal(t, "Continuity Editor:\n\nGreen in the codex, brown in chapter 5.\n", out)
}
