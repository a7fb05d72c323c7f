package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The helpers here speak LSP at the byte level: tests write whatever bytes
// they like (broken headers, numeric and string ids, junk) and read back
// every frame the server sends, checked strictly.

// wireTimeout bounds every wait for the server; it is only reached when a
// test fails. Windows gets longer: under Wine, where the Windows tests
// run here, starting processes and local sockets are many times slower.
var wireTimeout = map[bool]time.Duration{false: 10 * time.Second, true: 40 * time.Second}[runtime.GOOS == "windows"]

// frameBody frames a JSON body with a correct Content-Length header.
func frameBody(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// wireMsg is one JSON-RPC message as the server sent it.
type wireMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	// Result is "null" for a null result, empty when there is none.
	Result json.RawMessage `json:"result"`
	Error  *wireError      `json:"error"`
	// Raw is the frame's body.
	Raw []byte `json:"-"`
}

type wireError struct {
	Code    jsonrpc2.Code   `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// code is the error code of a response, 0 when it succeeded.
func (m wireMsg) code() jsonrpc2.Code {
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}

func (m wireMsg) String() string { return string(m.Raw) }

// readWireFrame reads one frame and checks it the way a strict client
// would: only Content-Length and Content-Type headers, each ended by
// \r\n, then a blank line, then exactly Content-Length bytes holding one
// JSON-RPC 2.0 message. io.EOF means the stream ended between frames.
func readWireFrame(r *bufio.Reader) (wireMsg, error) {
	length := -1
	for lines := 0; ; lines++ {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && line == "" && lines == 0 {
				return wireMsg{}, io.EOF
			}
			return wireMsg{}, fmt.Errorf("frame header: %w (read %q)", err, line)
		}
		if !strings.HasSuffix(line, "\r\n") {
			return wireMsg{}, fmt.Errorf("header line %q does not end in \\r\\n", line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			return wireMsg{}, fmt.Errorf("malformed header line %q", line)
		}
		switch name {
		case "Content-Length":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || length >= 0 {
				return wireMsg{}, fmt.Errorf("bad or repeated Content-Length %q", value)
			}
			length = n
		case "Content-Type":
		default:
			return wireMsg{}, fmt.Errorf("unexpected header %q", line)
		}
	}
	if length < 0 {
		return wireMsg{}, errors.New("frame without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return wireMsg{}, fmt.Errorf("frame body: %w", err)
	}
	return parseWireMsg(body)
}

// parseWireMsg decodes a body and checks it is a JSON-RPC 2.0 message: a
// request or notification (the server may send those), or a response
// with an id and exactly one of result and error.
func parseWireMsg(body []byte) (wireMsg, error) {
	var m wireMsg
	if err := json.Unmarshal(body, &m); err != nil {
		return wireMsg{}, fmt.Errorf("frame body %q is not a JSON-RPC message: %w", body, err)
	}
	m.Raw = body
	if m.JSONRPC != "2.0" {
		return m, fmt.Errorf("jsonrpc is %q in %s", m.JSONRPC, body)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return m, err
	}
	if m.Method != "" {
		return m, nil
	}
	if _, ok := fields["id"]; !ok {
		return m, fmt.Errorf("response without id: %s", body)
	}
	var id any
	if err := json.Unmarshal(m.ID, &id); err != nil {
		return m, err
	}
	switch id.(type) {
	case nil, string, float64:
	default:
		return m, fmt.Errorf("id %s is not a number, string or null", m.ID)
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if hasResult == hasError {
		return m, fmt.Errorf("a response needs exactly one of result and error: %s", body)
	}
	if hasError && (m.Error == nil || m.Error.Code == 0 || m.Error.Message == "") {
		return m, fmt.Errorf("error without code or message: %s", body)
	}
	return m, nil
}

// wireClient is the client end of a server on a net.Pipe, without a
// JSON-RPC library in between.
type wireClient struct {
	t    testing.TB
	conn net.Conn
	wmu  sync.Mutex
	// msgs carries what the server sends, in order; it closes when the
	// server's side ends.
	msgs chan wireMsg
	// held are messages received while waiting for another one.
	held []wireMsg
	// served receives Serve's exit code.
	served chan int
	code   *int
	root   string
	// stop ends readLoop at cleanup even when nobody reads msgs.
	stop chan struct{}
}

// startWire runs a server on a pipe and returns the raw client end.
func startWire(t testing.TB, opts Options) *wireClient {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	c := &wireClient{t: t, conn: clientSide, msgs: make(chan wireMsg, 256), served: make(chan int, 1), stop: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	srv := New(opts)
	go func() { c.served <- srv.Serve(ctx, serverSide) }()
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		c.readLoop()
	}()
	t.Cleanup(func() {
		cancel()
		close(c.stop)
		_ = clientSide.Close()
		if c.code == nil {
			select {
			case code := <-c.served:
				c.code = &code
			case <-time.After(wireTimeout):
				t.Error("server did not stop")
			}
		}
		<-readerDone
	})
	return c
}

// readLoop parses every frame the server sends; a frame a strict client
// could not read fails the test. Requests from the server get a null
// result, so it never waits on this client.
func (c *wireClient) readLoop() {
	defer close(c.msgs)
	r := bufio.NewReader(c.conn)
	for {
		m, err := readWireFrame(r)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
				c.t.Errorf("server sent an unreadable frame: %v", err)
			}
			return
		}
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			id := m.ID
			go func() { _ = c.tryWrite([]byte(frameBody(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":null}`))) }()
		}
		select {
		case c.msgs <- m:
		case <-c.stop:
			return
		}
	}
}

func (c *wireClient) tryWrite(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(wireTimeout))
	_, err := c.conn.Write(b)
	return err
}

// write sends raw bytes.
func (c *wireClient) write(b string) {
	c.t.Helper()
	require.NoError(c.t, c.tryWrite([]byte(b)))
}

// send frames and sends one message.
func (c *wireClient) send(msg any) {
	c.t.Helper()
	body, err := json.Marshal(msg)
	require.NoError(c.t, err)
	c.write(frameBody(string(body)))
}

// request sends a request; id is anything JSON encodes (7, "seven").
func (c *wireClient) request(id any, method string, params any) {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
}

func (c *wireClient) notify(method string, params any) {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
}

// next returns the next message in the order the server sent it,
// messages held back by response first.
func (c *wireClient) next() wireMsg {
	c.t.Helper()
	if len(c.held) > 0 {
		m := c.held[0]
		c.held = c.held[1:]
		return m
	}
	select {
	case m, ok := <-c.msgs:
		require.True(c.t, ok, "the server closed the connection")
		return m
	case <-time.After(wireTimeout):
		c.t.Fatal("no message from the server")
		return wireMsg{}
	}
}

// nextResponse returns the next response, skipping the server's own
// requests and notifications.
func (c *wireClient) nextResponse() wireMsg {
	c.t.Helper()
	for {
		if m := c.next(); m.Method == "" {
			return m
		}
	}
}

// response waits for the response to id (as JSON: `7`, `"seven"`) and
// keeps any other message for next.
func (c *wireClient) response(id any) wireMsg {
	c.t.Helper()
	want := jsonID(c.t, id)
	for i, m := range c.held {
		if m.Method == "" && string(m.ID) == want {
			c.held = append(c.held[:i:i], c.held[i+1:]...)
			return m
		}
	}
	// The wait is for a server that has gone quiet, not a slow one: each
	// message it sends meanwhile (a streamed answer's 40,000 pieces
	// under the race detector take longer than wireTimeout in all)
	// starts the wait again.
	quiet := time.NewTimer(wireTimeout)
	defer quiet.Stop()
	for {
		select {
		case m, ok := <-c.msgs:
			require.True(c.t, ok, "the server closed the connection before answering %s", want)
			if m.Method == "" && string(m.ID) == want {
				return m
			}
			c.held = append(c.held, m)
			quiet.Reset(wireTimeout)
		case <-quiet.C:
			c.t.Fatalf("no response to %s, and nothing else from the server for %s", want, wireTimeout)
			return wireMsg{}
		}
	}
}

// pendingResponse reports whether a response to id has arrived without
// waiting for one.
func (c *wireClient) pendingResponse(id any) bool {
	want := jsonID(c.t, id)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return false
			}
			c.held = append(c.held, m)
			continue
		default:
		}
		break
	}
	for _, m := range c.held {
		if m.Method == "" && string(m.ID) == want {
			return true
		}
	}
	return false
}

// call sends a request and waits for its response.
func (c *wireClient) call(id any, method string, params any) wireMsg {
	c.t.Helper()
	c.request(id, method, params)
	return c.response(id)
}

// initialize runs the handshake, for root when it is not empty.
func (c *wireClient) initialize(root string) {
	c.t.Helper()
	c.root = root
	params := protocol.InitializeParams{}
	if root != "" {
		params.RootURI = textdoc.PathURI(root)
		params.WorkspaceFolders = []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}}
	}
	m := c.call("init", protocol.MethodInitialize, params)
	require.Nil(c.t, m.Error, "initialize: %s", m)
	c.notify(protocol.MethodInitialized, map[string]any{})
}

// uri is the file: URI of a project file.
func (c *wireClient) uri(rel string) protocol.DocumentURI {
	return textdoc.PathURI(c.root + "/" + rel)
}

func (c *wireClient) open(uri protocol.DocumentURI, text string) {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: text},
	})
}

func hoverParams(uri protocol.DocumentURI, line, char uint32) protocol.HoverParams {
	return protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Position:     protocol.Position{Line: line, Character: char},
	}}
}

// hover returns the hover result of a position: nil for a null result.
func (c *wireClient) hover(id any, uri protocol.DocumentURI, line, char uint32) *protocol.Hover {
	c.t.Helper()
	m := c.call(id, protocol.MethodTextDocumentHover, hoverParams(uri, line, char))
	require.Nil(c.t, m.Error, "hover: %s", m)
	if string(m.Result) == "null" {
		return nil
	}
	var h protocol.Hover
	require.NoError(c.t, json.Unmarshal(m.Result, &h))
	return &h
}

// exitCode waits for Serve to return.
func (c *wireClient) exitCode() int {
	c.t.Helper()
	if c.code != nil {
		return *c.code
	}
	select {
	case code := <-c.served:
		c.code = &code
		return code
	case <-time.After(wireTimeout):
		c.t.Fatal("Serve did not return")
		return -1
	}
}

// hasReturned reports whether Serve has returned, without waiting.
func (c *wireClient) hasReturned() bool {
	if c.code != nil {
		return true
	}
	select {
	case code := <-c.served:
		c.code = &code
		return true
	default:
		return false
	}
}

func jsonID(t testing.TB, id any) string {
	if raw, ok := id.(json.RawMessage); ok {
		return string(raw)
	}
	b, err := json.Marshal(id)
	require.NoError(t, err)
	return string(bytes.TrimSpace(b))
}

// shownDocuments reads the files of every window/showDocument the server
// has sent so far (answer documents), in order.
func (c *wireClient) shownDocuments() []string {
	c.t.Helper()
	var docs []string
	for _, h := range c.held {
		if h.Method != "window/showDocument" {
			continue
		}
		var p struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		require.NoError(c.t, json.Unmarshal(h.Params, &p))
		path, ok := textdoc.URIPath(p.URI)
		require.True(c.t, ok)
		data, err := os.ReadFile(path)
		require.NoError(c.t, err)
		docs = append(docs, string(data))
	}
	return docs
}
