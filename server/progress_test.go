package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// sent lists the params of what the server sent the client with this
// method.
func (c *testClient) sent(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, n := range c.notes {
		if n.Method() == method {
			out = append(out, n.Params())
		}
	}
	return out
}

func TestLoadReportsWorkDoneProgress(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, bookFiles)
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:      pathURI(root),
		Capabilities: protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})

	var kinds []string
	require.Eventually(t, func() bool {
		kinds = nil
		for _, raw := range c.sent(protocol.MethodProgress) {
			var p progressParams
			if json.Unmarshal(raw, &p) == nil {
				kinds = append(kinds, p.Value.Kind)
			}
		}
		return len(kinds) > 0 && kinds[len(kinds)-1] == "end"
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, "begin", kinds[0])
	// Nothing follows the end, though the watcher reads files again.
	time.Sleep(200 * time.Millisecond)
	assert.Equal(t, len(kinds), len(c.sent(protocol.MethodProgress)))
	assert.Len(t, c.sent(protocol.MethodWorkDoneProgressCreate), 1, "the token is created before use")
}

func TestNoProgressWithoutClientSupport(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/02-storm.md", 2, 6), "loaded")
	assert.Empty(t, c.sent(protocol.MethodProgress))
	assert.Empty(t, c.sent(protocol.MethodWorkDoneProgressCreate))
}

func TestBrokenConfigShowsAMessage(t *testing.T) {
	files := map[string]string{"quire.yaml": "manuscript: {not: globs}\n", "manuscript/01-a.md": "# A\n"}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	require.Eventually(t, func() bool {
		for _, raw := range c.sent(protocol.MethodWindowShowMessage) {
			var p protocol.ShowMessageParams
			if json.Unmarshal(raw, &p) == nil && p.Type == protocol.MessageTypeError {
				return assert.Contains(t, p.Message, "quire.yaml")
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond)
	// The server keeps serving: a hover answers, with nothing.
	assert.Nil(t, c.hoverAt("manuscript/01-a.md", 0, 2))
}
