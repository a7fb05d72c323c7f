package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// fuzzFinal is the valid request that follows the junk in every fuzz
// input.
const fuzzFinal = `{"jsonrpc":"2.0","id":"fuzz-final","method":"initialize","params":{}}`

// FuzzStream feeds arbitrary bytes, then a valid initialize request, to a
// server and ends its input. The server must not panic, must end Serve,
// must write nothing but well-formed JSON-RPC frames, and must answer the
// final request whenever the junk ends at a frame boundary (junk that
// declares a Content-Length it never delivers, or a header it never ends,
// takes the final frame with it; junk holding exit ends the session).
func FuzzStream(f *testing.F) {
	for _, seed := range []string{
		"",
		frameBody(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`),
		frameBody(`{"jsonrpc":"2.0","method":"initialized","params":{}}`),
		frameBody(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:x"},"position":{"line":0,"character":0}}}`),
		frameBody(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:x","languageId":"markdown","version":1,"text":"Mara"}}}`),
		frameBody(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:x","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"x"}]}}`),
		frameBody(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`),
		frameBody(`{"jsonrpc":"2.0","id":"s","method":"quire/unknown","params":[1]}`),
		frameBody(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`),
		frameBody(`{"jsonrpc":"2.0","method":"exit"}`),
		frameBody(`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`),
		frameBody(`{"jsonrpc":"2.0","id":9}`),
		frameBody(`{"jsonrpc":"2.0","id":9,"result":null}`),
		frameBody(`{"jsonrpc":"1.0","id":1.5,"method":7}`),
		frameBody(`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`),
		"Content-Length: 10\r\n\r\n{\"jsonrpc\"",
		"Content-Length: 99999999\r\n\r\n",
		"Content-Length: 5\r\n\r\n",
		"Content-Length: abc\r\n\r\n{}",
		"Content-Length: -1\r\n\r\n{}",
		"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
		"Content-Type: x\r\n\r\n{}",
		"X-Other: y\r\nContent-Length: 2\r\n\r\n{}",
		"content-length: 2\n\n[]",
		"garbage\r\n\r\n",
		"\r\n\r\n\r\n",
		"no newline at all",
		strings.Repeat("\xff", 20) + "Content-Length: 2\r\n\r\n{}",
		"İİİİİİİİContent-Length: 2\r\n\r\n{}",
	} {
		f.Add([]byte(seed))
	}
	cacheDir := f.TempDir()
	f.Fuzz(func(t *testing.T, junk []byte) {
		boundary, exits, roots := readJunk(junk)
		if roots {
			// An initialize naming a folder would index it.
			t.Skip()
		}

		in, clientIn := io.Pipe()
		clientOut, out := io.Pipe()
		conn := &fuzzConn{in: in, out: out}
		served := make(chan int, 1)
		go func() { served <- New(Options{CacheDir: cacheDir}).Serve(context.Background(), conn) }()

		type outcome struct {
			answered bool
			err      error
		}
		read := make(chan outcome, 1)
		go func() {
			var o outcome
			r := bufio.NewReader(clientOut)
			for {
				m, err := readWireFrame(r)
				if err != nil {
					if !errors.Is(err, io.EOF) {
						o.err = err
					}
					break
				}
				if m.Method == "" && string(m.ID) == `"fuzz-final"` {
					o.answered = true
				}
			}
			_, _ = io.Copy(io.Discard, r)
			read <- o
		}()
		written := make(chan struct{})
		go func() {
			defer close(written)
			// Errors mean the server stopped reading (exit); that is fine.
			if _, err := clientIn.Write(junk); err == nil {
				_, _ = clientIn.Write([]byte(frameBody(fuzzFinal)))
			}
			_ = clientIn.Close()
		}()

		select {
		case <-served:
		case <-time.After(wireTimeout):
			t.Fatalf("Serve did not return after its input ended; input %q", junk)
		}
		var o outcome
		select {
		case o = <-read:
		case <-time.After(wireTimeout):
			t.Fatal("the server's output did not end")
		}
		<-written
		if o.err != nil {
			t.Fatalf("the server wrote something that is not a JSON-RPC frame: %v; input %q", o.err, junk)
		}
		if boundary && !exits && !o.answered {
			t.Fatalf("junk that ends at a frame boundary cost the next request its answer; input %q", junk)
		}
	})
}

// fuzzConn is the server's end of two pipes; closing it ends both, as
// closing a net.Conn would.
type fuzzConn struct {
	in  *io.PipeReader
	out *io.PipeWriter
}

func (c *fuzzConn) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *fuzzConn) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c *fuzzConn) Close() error {
	_ = c.in.Close()
	return c.out.Close()
}

// readJunk reads junk alone with the server's stream, the way the server
// will read it, and reports whether it ends cleanly between frames,
// whether it holds an exit notification, and whether it holds an
// initialize that names a folder.
func readJunk(junk []byte) (boundary, exits, roots bool) {
	st := &stream{in: bufio.NewReader(bytes.NewReader(junk)), out: io.Discard, closer: io.NopCloser(nil)}
	for {
		msg, _, err := st.Read(context.Background())
		if err != nil {
			// A bare io.EOF is the clean end between frames; a wrapped one
			// is a frame cut short.
			return err == io.EOF, exits, roots //nolint:errorlint
		}
		req, ok := msg.(jsonrpc2.Request)
		if !ok {
			continue
		}
		switch req.Method() {
		case protocol.MethodExit:
			exits = true
		case protocol.MethodInitialize:
			var p protocol.InitializeParams
			if json.Unmarshal(req.Params(), &p) == nil &&
				(p.RootURI != "" || p.RootPath != "" || len(p.WorkspaceFolders) > 0) {
				roots = true
			}
		}
	}
}
