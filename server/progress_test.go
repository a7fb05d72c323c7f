package server

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
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
		RootURI:      textdoc.PathURI(root),
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

func TestABookThatCannotOpenShowsAMessage(t *testing.T) {
	c := startServer(t, Options{})
	gone := filepath.Join(t.TempDir(), "gone")
	c.initialize(gone)
	require.Eventually(t, func() bool {
		for _, raw := range c.sent(protocol.MethodWindowShowMessage) {
			var p protocol.ShowMessageParams
			if json.Unmarshal(raw, &p) == nil && p.Type == protocol.MessageTypeError {
				return assert.Contains(t, p.Message, "gone")
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond)
	// The server keeps serving.
	var st wire.StatusResult
	c.call(wire.MethodStatus, nil, &st)
	require.Len(t, st.Books, 1)
	assert.Equal(t, stateError, st.Books[0].State)
}
