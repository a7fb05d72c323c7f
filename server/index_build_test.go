package server

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// On a cold start the canon answers before the search index is built
// (issue 17): with the index held back, hover, definition and references
// answer over the protocol; a search waits for the index and answers
// once it is built; the loading progress ends only then. Options.Started
// is called before the index is built, Options.Settled after.
func TestCanonAnswersBeforeTheSearchIndex(t *testing.T) {
	hold := make(chan struct{})
	var started, settled atomic.Bool
	srv := New(Options{CacheDir: t.TempDir(), holdIndex: hold,
		Started: func() { started.Store(true) },
		Settled: func() {
			assert.True(t, started.Load(), "settled after started")
			settled.Store(true)
		}})
	c := startServerWith(t, srv)
	root := writeProject(t, bookFiles)
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:      textdoc.PathURI(root),
		Capabilities: protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})

	// Hover shows the canon, and the chapter counts once the chapters are
	// scanned, all while the index is held back.
	var h *protocol.Hover
	require.Eventually(t, func() bool {
		h = c.hoverAt("manuscript/02-storm.md", 2, 6)
		return h != nil && !strings.Contains(h.Contents.Value, "Counting")
	}, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, h.Contents.Value, "**Mara Vell**")
	assert.Contains(t, h.Contents.Value, "Smuggler who runs the night tides.")

	locs := c.definitionAt("manuscript/01-harbor.md", 2, 25)
	require.Len(t, locs, 1)
	assert.Equal(t, c.uri("codex/characters/ilse-dorn.md"), locs[0].URI)

	var refs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     protocol.Position{Line: 2, Character: 1},
		},
	}, &refs)
	assert.NotEmpty(t, refs)

	// All of it answered from the catalog: the index is still held.
	p, _, ok := srv.projectFor(root + "/manuscript/01-harbor.md")
	require.True(t, ok)
	assert.True(t, p.store.IndexBuilding(), "the index was held back throughout")
	require.Eventually(t, func() bool {
		return strings.Contains(lastProgress(t, c).Message, "search index")
	}, 10*time.Second, 10*time.Millisecond, "the writer is told the search index is being built: %s", c.sent(protocol.MethodProgress))
	assert.Equal(t, "report", lastProgress(t, c).Kind, "loading is not over while search is not ready")
	require.Eventually(t, started.Load, 10*time.Second, 10*time.Millisecond, "the start is over")
	assert.False(t, settled.Load(), "the start's background work is not over while the index is held")

	// A search asked now waits for the index, and answers once it is built.
	type answer struct {
		found wire.QueryResult
		err   error
	}
	searched := make(chan answer, 1)
	go func() {
		var a answer
		a.err = c.callErr(wire.MethodSearch, map[string]any{"query": "night tides"}, &a.found)
		searched <- a
	}()
	close(hold)
	a := <-searched
	require.NoError(t, a.err)
	require.NotEmpty(t, a.found.Results, "the body's words are found: the index answered")
	assert.Equal(t, "Mara Vell", a.found.Results[0].Name)
	assert.False(t, p.store.IndexBuilding())

	require.Eventually(t, func() bool { return lastProgress(t, c).Kind == "end" }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, "2 codex entries, 2 chapters", lastProgress(t, c).Message)
	require.Eventually(t, settled.Load, 10*time.Second, 10*time.Millisecond, "settled once the index is built")
}

// lastProgress is the last $/progress value the server sent.
func lastProgress(t *testing.T, c *testClient) progressValue {
	t.Helper()
	sent := c.sent(protocol.MethodProgress)
	require.NotEmpty(t, sent)
	var p progressParams
	require.NoError(t, json.Unmarshal(sent[len(sent)-1], &p))
	return p.Value
}
