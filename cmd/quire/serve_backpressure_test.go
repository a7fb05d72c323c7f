package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeHoldsBackAClientThatStopsReading is issue 41's first defect:
// a client that sends requests and never reads its stdout had quire serve
// hold every answer (790 MB at 40,000 pending). The client here sends
// 50,000 workspace/symbol requests without reading, then reads: quire
// must stop reading while its answers wait (the client's writes block),
// answer every request once read, and keep its peak memory bounded.
func TestServeHoldsBackAClientThatStopsReading(t *testing.T) {
	const requests = 50000
	h := newHostile(t)
	template := exec.Command(os.Args[0], "serve")
	template.Dir, template.Env = h.book, h.env
	cmd, stream, _, stop, err := startServe(template)
	require.NoError(t, err)
	peak := followPeak(cmd)
	t.Cleanup(stop)
	in := &rawClient{w: stream.WriteCloser, r: bufio.NewReaderSize(stream.ReadCloser, 1<<16)}

	in.send(t, map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize",
		"params": map[string]any{"rootUri": fileURI(h.book), "capabilities": map[string]any{}}})
	for {
		m := in.read(t)
		if m.ID != nil && string(*m.ID) == "0" {
			break
		}
	}
	in.send(t, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})

	// The flood, written without reading a byte of the answers.
	var sent atomic.Int64
	wrote := make(chan error, 1)
	go func() {
		for i := 1; i <= requests; i++ {
			if err := in.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/symbol","params":{"query":""}}`, i)); err != nil {
				wrote <- err
				return
			}
			sent.Add(1)
		}
		wrote <- nil
	}()

	// quire must push back: the writes stall well before the last one.
	stalled := false
	last, since := int64(-1), time.Now()
	for !stalled {
		select {
		case err := <-wrote:
			require.NoError(t, err)
			t.Fatalf("quire read all %d requests while none of its answers was read: nothing pushed back", requests)
		case <-time.After(100 * time.Millisecond):
		}
		if n := sent.Load(); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) > 2*time.Second {
			stalled = true
		}
	}
	t.Logf("the client's writes stalled after %d of %d requests", last, requests)
	assert.Less(t, last, int64(requests))

	// Now read: every request is answered, once.
	answered := make([]bool, requests+1)
	left := requests
	for left > 0 {
		m := in.read(t)
		switch {
		case m.ID != nil && m.Method != "":
			// A request from quire (a progress token, a refresh): say yes,
			// from aside, as the flood may still hold the pipe.
			go func(id json.RawMessage) { _ = in.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, id)) }(*m.ID)
		case m.ID != nil:
			id, err := strconv.Atoi(string(*m.ID))
			require.NoError(t, err, "answer id %s", *m.ID)
			require.True(t, id >= 1 && id <= requests, "answer id %d", id)
			require.False(t, answered[id], "request %d answered twice", id)
			require.Nil(t, m.Error, "request %d failed", id)
			answered[id] = true
			left--
		}
	}
	require.NoError(t, <-wrote)

	in.send(t, map[string]any{"jsonrpc": "2.0", "id": requests + 1, "method": "shutdown"})
	for {
		m := in.read(t)
		if m.ID != nil && m.Method == "" && string(*m.ID) == strconv.Itoa(requests+1) {
			break
		}
	}
	in.send(t, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	require.NoError(t, cmd.Wait())
	rss := peak.bytes()
	t.Logf("peak memory of quire serve: %d MB", rss>>20)
	h.bounded(rss)
}

// rawClient speaks LSP's framing by hand, so that the test decides when
// the answers are read.
type rawClient struct {
	mu sync.Mutex
	w  io.Writer
	r  *bufio.Reader
}

type rawMessage struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Error  json.RawMessage  `json:"error"`
}

func (c *rawClient) send(t *testing.T, msg any) {
	t.Helper()
	body, err := json.Marshal(msg)
	require.NoError(t, err)
	require.NoError(t, c.write(string(body)))
}

// write frames one message; whole messages never interleave.
func (c *rawClient) write(body string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

func (c *rawClient) read(t *testing.T) rawMessage {
	t.Helper()
	hdr, err := textproto.NewReader(c.r).ReadMIMEHeader()
	require.NoError(t, err)
	n, err := strconv.Atoi(hdr.Get("Content-Length"))
	require.NoError(t, err)
	body := make([]byte, n)
	_, err = io.ReadFull(c.r, body)
	require.NoError(t, err)
	var m rawMessage
	require.NoError(t, json.Unmarshal(body, &m))
	if m.Error != nil && string(m.Error) == "null" {
		m.Error = nil
	}
	return m
}
