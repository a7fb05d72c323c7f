package server

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
)

// The start is over for the caller (Options.Started: quire serve lets
// the collector run again) only once the requests that came during it
// are answered, or once they have held it back startedWaitMax: a warm start's
// collector, let loose as the book answered, took the CPU of the
// writer's first hover as it was computed.
func TestStartedWaitsForTheRequestsInFlight(t *testing.T) {
	blocked := make(chan struct{})
	release := make(chan struct{})
	var started atomic.Bool
	c := startServer(t, Options{
		Started: func() { started.Store(true) },
		extraRequests: map[string]requestHandler{
			"test/block": func(ctx context.Context, _ json.RawMessage) (any, error) {
				close(blocked)
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil, nil
			},
		},
	})
	root := writeProject(t, bookFiles)
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{RootURI: textdoc.PathURI(root)}, &res)

	// A request is in flight before the book starts to open, and stays
	// in flight.
	answered := make(chan error, 1)
	go func() { answered <- c.callErr("test/block", nil, nil) }()
	<-blocked
	sent := time.Now()
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-harbor.md", 2, 1) != nil },
		10*time.Second, 10*time.Millisecond, "the book answers")

	// The book's start ended after initialized was sent, so with the
	// request in flight the caller hears of it startedWaitMax later at
	// the soonest.
	assert.Never(t, started.Load, startedWaitMax-time.Since(sent)-10*time.Millisecond, 5*time.Millisecond,
		"the start is over while a request that came during it is in flight")
	// And then without the request's answer: one request never holds it
	// back for good.
	require.Eventually(t, started.Load, 10*time.Second, 5*time.Millisecond, "the start is over")
	close(release)
	require.NoError(t, <-answered)
}
