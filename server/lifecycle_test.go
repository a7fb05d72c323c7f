package server

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Requests the lifecycle tests send in every state; none needs a project.
var lifecycleRequests = []struct {
	name   string
	method string
	params any
}{
	{"hover", protocol.MethodTextDocumentHover, hoverParams("file:///book/manuscript/01.md", 0, 0)},
	{"definition", protocol.MethodTextDocumentDefinition, hoverParams("file:///book/manuscript/01.md", 0, 0)},
	{"unknown method", "quire/noSuchThing", map[string]any{}},
	{"no params", protocol.MethodTextDocumentHover, nil},
}

func TestRequestsBeforeInitialize(t *testing.T) {
	c := startWire(t, Options{})
	requests := append(lifecycleRequests, struct {
		name   string
		method string
		params any
	}{"shutdown", protocol.MethodShutdown, nil})
	for i, tt := range requests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(i, tt.method, tt.params)
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, jsonrpc2.ServerNotInitialized, m.code(), "%s", m)
			assert.Equal(t, jsonID(t, i), string(m.ID))
		})
	}
	// A string id is echoed as a string.
	m := c.call("early", protocol.MethodTextDocumentHover, hoverParams("file:///x.md", 0, 0))
	assert.Equal(t, jsonrpc2.ServerNotInitialized, m.code())
	assert.JSONEq(t, `"early"`, string(m.ID))

	// Initialize still works after all that, once.
	c.initialize("")
	m = c.call("after", "quire/noSuchThing", nil)
	assert.Equal(t, jsonrpc2.MethodNotFound, m.code(), "initialized now: %s", m)
}

func TestNotificationsBeforeInitializeAreDropped(t *testing.T) {
	c := startWire(t, Options{})
	root := writeProject(t, bookFiles)
	c.root = root
	// The editor's text names Ilse; the disk's names Mara. A didOpen
	// before initialize must be dropped, as the spec says.
	c.open(c.uri("manuscript/02-storm.md"), "# Storm\n\nThen Ilse Dorn spoke.\n")
	c.initialize(root)
	h := c.hover(1, c.uri("manuscript/02-storm.md"), 2, 6)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Mara Vell**", "the disk's text: the early didOpen was dropped")
}

func TestInitializeWithInvalidParams(t *testing.T) {
	c := startWire(t, Options{})
	for i, params := range []string{`"not an object"`, `{"processId":"not a number"}`, `[1,2]`} {
		c.write(frameBody(`{"jsonrpc":"2.0","id":` + jsonID(t, i) + `,"method":"initialize","params":` + params + `}`))
		m := c.response(i)
		assert.Equal(t, jsonrpc2.InvalidParams, m.code(), "%s", m)
	}
	c.write(frameBody(`{"jsonrpc":"2.0","id":"none","method":"initialize"}`))
	assert.Equal(t, jsonrpc2.InvalidParams, c.response("none").code(), "initialize without params")

	m := c.call("hover", protocol.MethodTextDocumentHover, hoverParams("file:///x.md", 0, 0))
	assert.Equal(t, jsonrpc2.ServerNotInitialized, m.code(), "a failed initialize leaves the server uninitialized")
	c.initialize("")
	c.notify(protocol.MethodExit, nil)
	assert.Equal(t, 1, c.exitCode(), "exit without shutdown")
}

func TestRequestsAfterShutdown(t *testing.T) {
	c := startWire(t, Options{})
	c.initialize("")
	m := c.call("down", protocol.MethodShutdown, nil)
	require.Nil(t, m.Error, "%s", m)
	assert.Equal(t, "null", string(m.Result), "shutdown answers a null result")

	requests := append(lifecycleRequests, []struct {
		name   string
		method string
		params any
	}{
		{"shutdown again", protocol.MethodShutdown, nil},
		{"initialize again", protocol.MethodInitialize, protocol.InitializeParams{}},
		{"hover after the re-initialize attempt", protocol.MethodTextDocumentHover, hoverParams("file:///x.md", 0, 0)},
	}...)
	for i, tt := range requests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(i, tt.method, tt.params)
			assert.Equal(t, jsonrpc2.InvalidRequest, m.code(), "%s", m)
		})
	}
	// Notifications other than exit are dropped.
	c.open("untitled:after", "text")
	c.notify(protocol.MethodInitialized, map[string]any{})
	assert.Equal(t, jsonrpc2.InvalidRequest, c.call("last", protocol.MethodTextDocumentHover, hoverParams("untitled:after", 0, 0)).code())
	c.notify(protocol.MethodExit, nil)
	assert.Equal(t, 0, c.exitCode())
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *wireClient)
		want int
	}{
		{"exit after shutdown", func(c *wireClient) {
			c.initialize("")
			c.call(1, protocol.MethodShutdown, nil)
			c.notify(protocol.MethodExit, nil)
		}, 0},
		{"exit without shutdown", func(c *wireClient) {
			c.initialize("")
			c.notify(protocol.MethodExit, nil)
		}, 1},
		{"exit before initialize", func(c *wireClient) {
			c.notify(protocol.MethodExit, nil)
		}, 1},
		{"exit with params", func(c *wireClient) {
			c.initialize("")
			c.call(1, protocol.MethodShutdown, nil)
			c.write(frameBody(`{"jsonrpc":"2.0","method":"exit","params":{"why":"because"}}`))
		}, 0},
		{"connection closed after shutdown", func(c *wireClient) {
			c.initialize("")
			c.call(1, protocol.MethodShutdown, nil)
			_ = c.conn.Close()
		}, 0},
		{"connection closed without shutdown", func(c *wireClient) {
			c.initialize("")
			_ = c.conn.Close()
		}, 1},
		{"connection closed mid-frame", func(c *wireClient) {
			c.initialize("")
			c.write("Content-Length: 100\r\n\r\n{\"jsonrpc\"")
			_ = c.conn.Close()
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startWire(t, Options{})
			tt.run(c)
			assert.Equal(t, tt.want, c.exitCode())
		})
	}
}

func TestExitWhileARequestRuns(t *testing.T) {
	started := make(chan struct{})
	c := startWire(t, Options{extraRequests: map[string]requestHandler{
		"test/block": func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}})
	c.initialize("")
	c.request("slow", "test/block", nil)
	<-started
	require.Nil(t, c.call("down", protocol.MethodShutdown, nil).Error)
	c.notify(protocol.MethodExit, nil)
	assert.Equal(t, 0, c.exitCode(), "exit ends the session even with a request in flight")
}

// blockingStdin is a connection whose Read, like a read from a blocking
// stdin pipe, is not interrupted by Close: it ends only when the client
// closes its end.
type blockingStdin struct {
	r      *io.PipeReader
	w      *io.PipeWriter
	closed chan struct{}
}

func (b *blockingStdin) Read(p []byte) (int, error)  { return b.r.Read(p) }
func (b *blockingStdin) Write(p []byte) (int, error) { return b.w.Write(p) }
func (b *blockingStdin) Close() error {
	select {
	case <-b.closed:
	default:
		close(b.closed)
	}
	return b.w.Close()
}

// Editors send exit and wait for the process to end, with its stdin still
// open. Closing os.Stdin does not interrupt a pending read, so Serve must
// not wait for the read loop after exit.
func TestExitDoesNotWaitForABlockedRead(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn := &blockingStdin{r: inR, w: outW, closed: make(chan struct{})}
	served := make(chan int, 1)
	go func() { served <- New(Options{CacheDir: t.TempDir()}).Serve(context.Background(), conn) }()
	t.Cleanup(func() { _ = inW.Close() }) // lets the leftover read end
	go func() { _, _ = io.Copy(io.Discard, outR) }()

	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		_, err := inW.Write([]byte(frameBody(body)))
		require.NoError(t, err)
	}
	select {
	case code := <-served:
		assert.Equal(t, 0, code)
	case <-time.After(wireTimeout):
		t.Fatal("Serve did not return after exit while its read was still blocked")
	}
	<-conn.closed
}

func TestInitializeTwice(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	err := c.callErr(protocol.MethodInitialize, protocol.InitializeParams{}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already")
	require.NotNil(t, c.hoverAt("manuscript/02-storm.md", 2, 6), "the session goes on with its first workspace")
}
