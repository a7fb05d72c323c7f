package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// gate is a request handler for tests: it tells when it has started and
// then blocks until released, or until cancelled when it honours
// cancellation.
type gate struct {
	started chan json.RawMessage
	release chan struct{}
}

func newGate() *gate {
	return &gate{started: make(chan json.RawMessage, 16), release: make(chan struct{})}
}

// block waits for release or cancellation, and answers even when
// cancelled: the server, not the handler, turns that into
// RequestCancelled.
func (g *gate) block(ctx context.Context, params json.RawMessage) (any, error) {
	g.started <- params
	select {
	case <-g.release:
		return "released", nil
	case <-ctx.Done():
		return "finished anyway", nil
	}
}

// stubborn ignores cancellation: it returns only when released.
func (g *gate) stubborn(_ context.Context, params json.RawMessage) (any, error) {
	g.started <- params
	<-g.release
	return "released", nil
}

// waitStarted waits until n handlers have started.
func (g *gate) waitStarted(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-g.started:
		case <-time.After(wireTimeout):
			t.Fatal("the handler did not start")
		}
	}
}

func gateServer(t *testing.T, g *gate) *wireClient {
	t.Helper()
	return startWire(t, Options{extraRequests: map[string]requestHandler{
		"test/block":    g.block,
		"test/stubborn": g.stubborn,
		"test/quick":    func(context.Context, json.RawMessage) (any, error) { return "quick", nil },
	}})
}

func TestSlowRequestsDoNotDelayOthers(t *testing.T) {
	g := newGate()
	c := gateServer(t, g)
	c.initialize(writeProject(t, bookFiles))
	doc := c.uri("manuscript/01-harbor.md")
	require.NotNil(t, c.hover("warm", doc, 2, 1), "the project has loaded")

	const slow = 4
	for i := range slow {
		c.request(fmt.Sprintf("slow-%d", i), "test/stubborn", nil)
	}
	g.waitStarted(t, slow)

	fast := []struct {
		name   string
		method string
		params any
	}{
		{"hover", protocol.MethodTextDocumentHover, hoverParams(doc, 2, 1)},
		{"definition", protocol.MethodTextDocumentDefinition, hoverParams(doc, 2, 25)},
		{"another request", "test/quick", nil},
		{"unknown method", "quire/noSuchThing", nil},
	}
	for _, tt := range fast {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(tt.name, tt.method, tt.params)
			assert.NotEqual(t, "null", string(m.Result), "%s", m)
		})
	}
	for i := range slow {
		assert.False(t, c.pendingResponse(fmt.Sprintf("slow-%d", i)), "the slow requests are still running")
	}
	close(g.release)
	for i := range slow {
		m := c.response(fmt.Sprintf("slow-%d", i))
		assert.JSONEq(t, `"released"`, string(m.Result), "%s", m)
	}
}

func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name string
		id   any
	}{
		{"numeric id (VS Code, Neovim)", 7},
		{"string id", "seven"},
		{"numeric-looking string id", "7"},
		{"id zero", 0},
		{"largest id", math.MaxInt32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate()
			c := gateServer(t, g)
			c.initialize("")
			c.request(tt.id, "test/block", nil)
			g.waitStarted(t, 1)
			c.notify(protocol.MethodCancelRequest, map[string]any{"id": tt.id})
			m := c.response(tt.id)
			require.NotNil(t, m.Error, "a cancelled request is answered with an error: %s", m)
			assert.Equal(t, protocol.CodeRequestCancelled, m.code())
			// Exactly one answer: the next message is the next request's.
			c.request("after", "test/quick", nil)
			assert.Equal(t, `"after"`, string(c.nextResponse().ID))
		})
	}
}

// A request that ignores its cancellation still gets its one answer, as
// RequestCancelled, when it ends.
func TestCancelledRequestIsStillAnswered(t *testing.T) {
	g := newGate()
	c := gateServer(t, g)
	c.initialize("")
	c.request(11, "test/stubborn", nil)
	g.waitStarted(t, 1)
	c.notify(protocol.MethodCancelRequest, map[string]any{"id": 11})
	c.call("probe", "test/quick", nil)
	assert.False(t, c.pendingResponse(11), "not answered before it ends")
	close(g.release)
	m := c.response(11)
	assert.Equal(t, protocol.CodeRequestCancelled, m.code(), "%s", m)
}

// Ids 7 and "7" are different requests; cancelling one leaves the other.
func TestCancelMatchesTheIDType(t *testing.T) {
	g := newGate()
	c := gateServer(t, g)
	c.initialize("")
	c.request(7, "test/block", nil)
	c.request("7", "test/block", nil)
	g.waitStarted(t, 2)

	c.notify(protocol.MethodCancelRequest, map[string]any{"id": 7})
	assert.Equal(t, protocol.CodeRequestCancelled, c.response(7).code())
	c.call("probe", "test/quick", nil)
	assert.False(t, c.pendingResponse("7"), "the string id is still running")

	c.notify(protocol.MethodCancelRequest, map[string]any{"id": "7"})
	assert.Equal(t, protocol.CodeRequestCancelled, c.response("7").code())
}

func TestCancelOfNothing(t *testing.T) {
	g := newGate()
	c := gateServer(t, g)
	c.initialize("")
	c.request(0, "test/block", nil)
	g.waitStarted(t, 1)
	require.JSONEq(t, `"quick"`, string(c.call(3, "test/quick", nil).Result))

	for _, params := range []string{
		`{"id":3}`,      // already answered
		`{"id":999}`,    // never sent
		`{"id":null}`,   // not an id, and not request 0
		`{"id":"0"}`,    // a string, not request 0
		`{"id":0.5}`,    // not an id
		`{"id":[0]}`,    // not an id
		`{}`,            // no id
		`{"id":1e3}`,    // not a request in flight
		`[0]`,           // not an object
		`{"id":"zero"}`, // never sent
	} {
		c.write(frameBody(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":` + params + `}`))
	}
	c.request("probe", "test/quick", nil)
	assert.Equal(t, `"probe"`, string(c.nextResponse().ID), "no answer to any cancel, no second answer to request 3")
	assert.False(t, c.pendingResponse(0), "request 0 still runs")
	close(g.release)
	assert.JSONEq(t, `"released"`, string(c.response(0).Result))
}

// Notifications run in the order sent, before any request sent after
// them, even while a slow request runs.
func TestNotificationsApplyInOrder(t *testing.T) {
	g := newGate()
	c := gateServer(t, g)
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hover("warm", c.uri("manuscript/01-harbor.md"), 2, 1))
	c.request("slow", "test/stubborn", nil)
	g.waitStarted(t, 1)

	// 200 one-character insertions: any reordering or loss shifts the
	// name at the end of the line.
	uri := c.uri("manuscript/03-tide.md")
	c.open(uri, "# Tide\n\n\n")
	tail := " then Ilse Dorn."
	line := strings.Repeat("waves ", 30) + "wave" + tail
	require.Len(t, line, 200)
	for i := range len(line) {
		at := protocol.Position{Line: 2, Character: uint32(i)}
		c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []map[string]any{{"range": protocol.Range{Start: at, End: at}, "text": line[i : i+1]}},
		})
	}
	name := uint32(len(line) - len("Ilse Dorn."))
	h := c.hover("final", uri, 2, name+6)
	require.NotNil(t, h, "the final text names Ilse Dorn at the end")
	assert.Contains(t, h.Contents.Value, "**Ilse Dorn**")
	require.NotNil(t, h.Range)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 2, Character: name}, End: protocol.Position{Line: 2, Character: name + 9}}, *h.Range)

	// Each hover sees the change sent just before it.
	names := []string{"Mara Vell", "Ilse Dorn"}
	for i := range 20 {
		want := names[i%2]
		c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": 300 + i},
			"contentChanges": []map[string]any{{"text": "# Tide\n\n" + want + " waited.\n"}},
		})
		h := c.hover(fmt.Sprintf("h%d", i), uri, 2, 2)
		require.NotNil(t, h, "change %d", i)
		assert.Contains(t, h.Contents.Value, "**"+want+"**", "change %d", i)
	}

	// Close and reopen with other text: the reopened text counts.
	c.notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.open(uri, "# Tide\n\nThe Harbor Witch.\n")
	h = c.hover("reopened", uri, 2, 6)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Mara Vell**")

	assert.False(t, c.pendingResponse("slow"), "all that while the slow request ran")
	close(g.release)
	assert.JSONEq(t, `"released"`, string(c.response("slow").Result))
}
