package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// nextInitialize is the valid request every malformed-input case ends
// with: the server must still answer it.
var nextInitialize = frameBody(`{"jsonrpc":"2.0","id":"next","method":"initialize","params":{}}`)

// wantErr is one error response the server must send for bad input.
type wantErr struct {
	code jsonrpc2.Code
	id   string // as JSON: null, 5, "abc"
}

var (
	parseErr   = wantErr{jsonrpc2.ParseError, "null"}
	invalidReq = wantErr{jsonrpc2.InvalidRequest, "null"}
)

func TestMalformedInput(t *testing.T) {
	request := `{"jsonrpc":"2.0","id":"lost","method":"initialize","params":{}}`
	noop := `{"jsonrpc":"2.0","method":"$/noop"}`
	tests := []struct {
		name  string
		input string
		want  []wantErr
	}{
		{"invalid JSON", frameBody(`{"jsonrpc":"2.0",`), []wantErr{parseErr}},
		{"not JSON at all", frameBody(`hello, server`), []wantErr{parseErr}},
		{"empty body", "Content-Length: 0\r\n\r\n", []wantErr{parseErr}},
		{"JSON string", frameBody(`"hello"`), []wantErr{invalidReq}},
		{"JSON number", frameBody(`42`), []wantErr{invalidReq}},
		{"empty batch", frameBody(`[]`), []wantErr{invalidReq}},
		{"batch (LSP has none)", frameBody(`[` + request + `]`), []wantErr{invalidReq}},
		{"method is not a string", frameBody(`{"jsonrpc":"2.0","id":5,"method":7}`), []wantErr{{jsonrpc2.InvalidRequest, "5"}}},
		{"method is not a string, string id", frameBody(`{"jsonrpc":"2.0","id":"abc","method":null,"params":3}`), []wantErr{{jsonrpc2.InvalidRequest, `"abc"`}}},
		{"wrong jsonrpc version", frameBody(`{"jsonrpc":"1.0","id":6,"method":"initialize","params":{}}`), []wantErr{{jsonrpc2.InvalidRequest, "6"}}},
		{"id is an object", frameBody(`{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`), []wantErr{invalidReq}},
		{"no method, result or error", frameBody(`{"jsonrpc":"2.0","id":9}`), []wantErr{{jsonrpc2.InvalidRequest, "9"}}},
		{"empty method", frameBody(`{"jsonrpc":"2.0","id":10,"method":"","params":{}}`), []wantErr{{jsonrpc2.InvalidRequest, "10"}}},
		{"id is a boolean", frameBody(`{"jsonrpc":"2.0","id":true,"method":"initialize"}`), []wantErr{invalidReq}},
		{"id is a fraction", frameBody(`{"jsonrpc":"2.0","id":1.5,"method":"initialize"}`), []wantErr{{jsonrpc2.InvalidRequest, "1.5"}}},
		{"params are a number", frameBody(`{"jsonrpc":"2.0","id":8,"method":"initialize","params":5}`), []wantErr{{jsonrpc2.InvalidParams, "8"}}},

		{"missing Content-Length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + request, []wantErr{parseErr}},
		{"Content-Length not a number", "Content-Length: twelve\r\n\r\n" + request, []wantErr{parseErr}},
		{"negative Content-Length", "Content-Length: -5\r\n\r\n" + request, []wantErr{parseErr}},
		{"Content-Length over the limit", "Content-Length: 999999999999\r\n\r\n" + request, []wantErr{parseErr}},
		{"header line without a colon", "garbage\r\nContent-Length: 2\r\n\r\n{}", []wantErr{parseErr}},
		{"Content-Length too short", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(request)-10, request), []wantErr{parseErr}},
		// The body runs 10 bytes into the next frame, which is lost; the
		// stream finds its footing at the frame after.
		{"Content-Length too long", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(noop)+10, noop) + frameBody(request), []wantErr{parseErr}},

		{"stray blank lines between messages", "\r\n\r\n\n\r\n", nil},
		{"lower-case header name", "content-length: 2\r\n\r\n{}", []wantErr{invalidReq}},
		{"extra header", "X-Trace: on\r\nContent-Length: 2\r\n\r\n{}", []wantErr{invalidReq}},
		{"bare \\n line ends", "Content-Length: 2\n\n{}", []wantErr{invalidReq}},
		{"junk before a header", "%%junk%%", nil},
		{"invalid UTF-8 before a header", strings.Repeat("\xff", 40), nil},
		{"letters that grow when lower-cased before a header", strings.Repeat("İ", 40), nil},
		{"invalid UTF-8 before a header, own line", strings.Repeat("\xfe", 40) + "Content-Length: 2\r\n\r\n{}", []wantErr{invalidReq}},
		{"a response to nothing", frameBody(`{"jsonrpc":"2.0","id":99,"result":null}`), nil},
		{"an error response to nothing", frameBody(`{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"no"}}`), nil},
		{"unknown notification", frameBody(`{"jsonrpc":"2.0","method":"$/unknown","params":{}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startWire(t, Options{})
			c.write(tt.input + nextInitialize)
			next := c.response("next")
			require.Nil(t, next.Error, "the next valid request is served: %s", next)
			assert.Contains(t, string(next.Result), `"capabilities"`)
			var got []wantErr
			for _, m := range c.held {
				if m.Method != "" {
					continue // the server's own notifications and requests
				}
				require.NotNil(t, m.Error, "only error responses before the answer: %s", m)
				assert.NotEmpty(t, m.Error.Message)
				got = append(got, wantErr{m.code(), string(m.ID)})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// robustServer is an initialized server on bookFiles with request
// handlers that fail in every way a handler can.
func robustServer(t *testing.T) *wireClient {
	t.Helper()
	c := startWire(t, Options{extraRequests: map[string]requestHandler{
		"test/panic":      func(context.Context, json.RawMessage) (any, error) { panic("boom") },
		"test/panicNil":   func(context.Context, json.RawMessage) (any, error) { panic(nil) },
		"test/panicError": func(context.Context, json.RawMessage) (any, error) { panic(errors.New("wrapped boom")) },
		"test/nilMap": func(context.Context, json.RawMessage) (any, error) {
			var m map[string]int
			m["x"] = 1
			return m, nil
		},
		"test/error": func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New("plain failure")
		},
		"test/rpcError": func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("wrapped: %w", jsonrpc2.NewError(protocol.CodeContentModified, "content modified"))
		},
	}})
	c.initialize(writeProject(t, bookFiles))
	return c
}

func TestFailingRequests(t *testing.T) {
	c := robustServer(t)
	doc := c.uri("manuscript/01-harbor.md")
	tests := []struct {
		name   string
		method string
		params string // raw JSON, "" for none
		want   jsonrpc2.Code
	}{
		{"unknown method", "textDocument/noSuchThing", `{}`, jsonrpc2.MethodNotFound},
		{"unknown $/ request", "$/noSuchThing", `{}`, jsonrpc2.MethodNotFound},
		{"unknown custom method", "quire/noSuchThing", "", jsonrpc2.MethodNotFound},
		{"empty method name", "", `{}`, jsonrpc2.InvalidRequest},
		{"panic", "test/panic", `{}`, jsonrpc2.InternalError},
		{"panic(nil)", "test/panicNil", `{}`, jsonrpc2.InternalError},
		{"panic with an error", "test/panicError", `{}`, jsonrpc2.InternalError},
		{"runtime panic", "test/nilMap", `{}`, jsonrpc2.InternalError},
		{"plain error", "test/error", `{}`, jsonrpc2.InternalError},
		{"JSON-RPC error", "test/rpcError", `{}`, protocol.CodeContentModified},
		{"hover without params", protocol.MethodTextDocumentHover, "", jsonrpc2.InvalidParams},
		{"hover with null params", protocol.MethodTextDocumentHover, `null`, jsonrpc2.InvalidParams},
		{"hover with a string", protocol.MethodTextDocumentHover, `"nope"`, jsonrpc2.InvalidParams},
		{"hover with an array", protocol.MethodTextDocumentHover, `[1]`, jsonrpc2.InvalidParams},
		{"hover with a numeric uri", protocol.MethodTextDocumentHover, `{"textDocument":{"uri":5},"position":{"line":0,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover with a negative line", protocol.MethodTextDocumentHover, `{"textDocument":{"uri":"` + string(doc) + `"},"position":{"line":-1,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover past the last line", protocol.MethodTextDocumentHover, `{"textDocument":{"uri":"` + string(doc) + `"},"position":{"line":900,"character":0}}`, jsonrpc2.InvalidParams},
		{"definition with a string", protocol.MethodTextDocumentDefinition, `"nope"`, jsonrpc2.InvalidParams},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, i, tt.method)
			if tt.params != "" {
				msg += `,"params":` + tt.params
			}
			c.write(frameBody(msg + "}"))
			m := c.response(i)
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, tt.want, m.code(), "%s", m)
			assert.NotEmpty(t, m.Error.Message)
			// The session goes on: hover still answers.
			h := c.hover(fmt.Sprintf("after-%d", i), doc, 2, 1)
			require.NotNil(t, h, "hover after %s", tt.name)
			assert.Contains(t, h.Contents.Value, "**Mara Vell**")
		})
	}
	assert.False(t, c.hasReturned())
}

func TestPanicMessageKeepsProseOut(t *testing.T) {
	c := robustServer(t)
	m := c.call(1, "test/panic", map[string]string{"text": "secret prose"})
	require.NotNil(t, m.Error)
	assert.NotContains(t, m.Error.Message, "boom", "the panic value stays in the log")
	assert.Contains(t, m.Error.Message, "test/panic")
}

func TestBadNotifications(t *testing.T) {
	c := robustServer(t)
	doc := c.uri("manuscript/01-harbor.md")
	notifications := []string{
		`{"jsonrpc":"2.0","method":"textDocument/didOpen"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":"x"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":7}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///not/open.md","version":2},"contentChanges":[{"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + string(doc) + `","version":2},"contentChanges":[{"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + string(doc) + `"},"contentChanges":[{"range":{"start":{"line":50,"character":0},"end":{"line":60,"character":0}},"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + string(doc) + `"},"contentChanges":[{}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":[]}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///never/opened.md"}}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest"}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"x":1}}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12345}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":null}}`,
		`{"jsonrpc":"2.0","method":"no/such/notification","params":{"a":[1,2,3]}}`,
	}
	var input strings.Builder
	for _, n := range notifications {
		input.WriteString(frameBody(n))
	}
	c.write(input.String())
	// Notifications get no answer, not even an error: the first response
	// is the hover's, and the failed didChanges left the document as it
	// was. (The server may send notifications of its own.)
	c.request("hover", protocol.MethodTextDocumentHover, hoverParams(doc, 2, 1))
	m := c.nextResponse()
	require.Equal(t, `"hover"`, string(m.ID), "nothing but the hover answer: %s", m)
	require.Nil(t, m.Error)
	assert.Contains(t, string(m.Result), "Mara Vell")
}

func TestNonFileURIs(t *testing.T) {
	c := robustServer(t)
	uris := []protocol.DocumentURI{
		"untitled:Untitled-1",
		"untitled:/home/writer/draft.md",
		"git:/book/manuscript/01-harbor.md?ref=HEAD",
		"vscode-notebook-cell:/book/notes.ipynb#cell1",
		"inmemory://model/1",
		"file:",
		"file:///%zz",
		"file://elsewhere/share/book/manuscript/01.md",
		"file:///",
		"",
	}
	text := "Mara Vell met Ilse Dorn.\n"
	for i, uri := range uris {
		t.Run(string(uri), func(t *testing.T) {
			c.open(uri, text)
			c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": 2},
				"contentChanges": []map[string]any{{
					"range": protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 4}},
					"text":  "Mara",
				}},
			})
			c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": 3},
				"contentChanges": []map[string]any{{"text": text}},
			})
			assert.Nil(t, c.hover(fmt.Sprintf("hover-%d", i), uri, 0, 1), "no project: a null hover")
			m := c.call(fmt.Sprintf("def-%d", i), protocol.MethodTextDocumentDefinition, hoverParams(uri, 0, 1))
			require.Nil(t, m.Error, "%s", m)
			assert.Contains(t, []string{"null", "[]"}, string(m.Result))
			c.notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			})
		})
	}
	h := c.hover("file", c.uri("manuscript/01-harbor.md"), 2, 1)
	require.NotNil(t, h, "file: documents are still served")
	assert.Contains(t, h.Contents.Value, "**Mara Vell**")
}
