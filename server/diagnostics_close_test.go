package server

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// Diagnostics computed inside the debounce wait for its end before they
// are sent; a chapter closed meanwhile keeps the clearing its close
// sent, not the publication that was waiting.
func TestDiagnosticsWaitingForTheDebounceAreDroppedOnClose(t *testing.T) {
	const rel = "manuscript/02-storm.md"
	var armed atomic.Bool
	computed, closed := make(chan struct{}, 1), make(chan struct{})
	c := startServer(t, Options{diagnosed: func(time.Duration) {
		if !armed.CompareAndSwap(true, false) {
			return
		}
		computed <- struct{}{}
		// Held until the close has been answered, so that the
		// publication is still waiting when it comes.
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
		}
	}})
	c.initialize(writeProject(t, bookFiles))
	c.open(rel, bookFiles[rel])
	c.waitVersion(rel, 1)
	uri := c.uri(rel)

	armed.Store(true)
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{
			"range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}},
			"text":  "A letter from [[Nobody Known Here]].\n",
		}},
	})
	select {
	case <-computed:
	case <-time.After(10 * time.Second):
		t.Fatal("the change's diagnostics were never computed")
	}
	c.notifyServer(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	require.Eventually(t, func() bool {
		p, ok := c.latestDiagnostics(uri)
		return ok && p.Version == 0 && len(p.Diagnostics) == 0
	}, 10*time.Second, 5*time.Millisecond, "the close clears the chapter's diagnostics")
	close(closed)

	// Past the debounce: nothing came after the clearing.
	time.Sleep(3 * diagnosticDelay)
	p, ok := c.latestDiagnostics(uri)
	require.True(t, ok)
	assert.Empty(t, p.Diagnostics, "diagnostics of version %d came after the close", p.Version)
}
