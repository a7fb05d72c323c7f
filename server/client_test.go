package server

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// testClient is an LSP client on one end of a net.Pipe, the server on the
// other: every test goes through real JSON-RPC framing.
type testClient struct {
	t     testing.TB
	conn  jsonrpc2.Conn
	root  string
	exit  chan int
	mu    sync.Mutex
	notes []received
	// answers are the results the client gives the server's requests, by
	// method; requests not listed get null.
	answers map[string]any
	notify  chan struct{}
}

// startServer runs a server on a pipe and returns the client end, not yet
// initialized.
func startServer(t testing.TB, opts Options) *testClient {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	return startServerWith(t, New(opts))
}

// startServerWith runs srv on a pipe, for tests that call into the
// server directly as well.
func startServerWith(t testing.TB, srv *Server) *testClient {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	c := &testClient{t: t, exit: make(chan int, 1), notify: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.exit <- srv.Serve(ctx, serverSide) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		_ = c.conn.Close()
		select {
		case <-c.exit:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	return c
}

// received is one message the server sent the client.
type received struct {
	method string
	params json.RawMessage
}

func (r received) Method() string          { return r.method }
func (r received) Params() json.RawMessage { return r.params }

// handle records what the server sends the client and answers its
// requests with an empty result.
func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	// The library decodes without copying: params alias a buffer it
	// reuses, so they are copied before the next message arrives.
	c.notes = append(c.notes, received{method: req.Method(), params: append(json.RawMessage(nil), req.Params()...)})
	answer := c.answers[req.Method()]
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
	// A reply that cannot be written (the test is closing the pipe while
	// the server asks something, as a refresh request may) is no error
	// of the handler's: jsonrpc2 v0.10.0 would record it and then panic
	// when the read that follows fails with an error of another type.
	_ = reply(ctx, answer, nil)
	return nil
}

// writeProject writes files into a new temp project folder.
func writeProject(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return root
}

// initialize runs the handshake for root and waits until the project has
// loaded (a hover answers).
func (c *testClient) initialize(root string) *protocol.InitializeResult {
	c.t.Helper()
	return c.initializeWith(root, protocol.ClientCapabilities{})
}

// initializeWith is initialize for a client of the capabilities caps.
func (c *testClient) initializeWith(root string, caps protocol.ClientCapabilities) *protocol.InitializeResult {
	c.t.Helper()
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          textdoc.PathURI(root),
		Capabilities:     caps,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
	}, &res)
	require.NoError(c.t, c.conn.Notify(context.Background(), protocol.MethodInitialized, protocol.InitializedParams{}))
	return &res
}

func (c *testClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	require.NoError(c.t, err, method)
}

// callRaw returns a request's result as JSON, nil for a null result.
// The library's client decodes "result": null into an empty message and
// then fails to unmarshal it; that failure is how null shows here.
func (c *testClient) callRaw(method string, params any) json.RawMessage {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var raw json.RawMessage
	_, err := c.conn.Call(ctx, method, params, &raw)
	if err != nil && strings.Contains(err.Error(), "unexpected end of JSON input") {
		return nil
	}
	require.NoError(c.t, err, method)
	if string(raw) == "null" {
		return nil
	}
	return raw
}

func (c *testClient) callErr(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) notifyServer(method string, params any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.Notify(context.Background(), method, params))
}

// uri is the file: URI of a project file.
func (c *testClient) uri(rel string) protocol.DocumentURI {
	return textdoc.PathURI(filepath.Join(c.root, filepath.FromSlash(rel)))
}

func (c *testClient) open(rel, text string) {
	c.t.Helper()
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: c.uri(rel), LanguageID: "markdown", Version: 1, Text: text},
	})
}

func (c *testClient) hoverAt(rel string, line, char uint32) *protocol.Hover {
	c.t.Helper()
	raw := c.callRaw(protocol.MethodTextDocumentHover, protocol.HoverParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
			Position:     protocol.Position{Line: line, Character: char},
		},
	})
	if raw == nil {
		return nil
	}
	var h protocol.Hover
	require.NoError(c.t, json.Unmarshal(raw, &h))
	return &h
}

func (c *testClient) definitionAt(rel string, line, char uint32) []protocol.Location {
	c.t.Helper()
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
			Position:     protocol.Position{Line: line, Character: char},
		},
	}, &locs)
	return locs
}

// shutdown runs shutdown and exit and returns the exit code.
func (c *testClient) shutdown() int {
	c.t.Helper()
	c.call(protocol.MethodShutdown, nil, nil)
	c.notifyServer(protocol.MethodExit, nil)
	select {
	case code := <-c.exit:
		c.exit <- code
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
		return -1
	}
}

// methods lists what the server sent, for failure messages.
func (c *testClient) methods() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.notes))
	for i, n := range c.notes {
		out[i] = n.method + " " + string(n.params)
	}
	return out
}
