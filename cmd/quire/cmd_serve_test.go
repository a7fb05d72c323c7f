package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/server"
)

// pendingPipe is stdin as Windows gives it to quire: a pipe whose Close
// waits until the read pending on it ends (Go's Close of a file does so,
// and on Windows nothing interrupts that read), while the editor keeps
// its end open after exit.
type pendingPipe struct {
	r *io.PipeReader
	// mu is held for the whole of a read, so Close waits for it.
	mu sync.Mutex
}

func (p *pendingPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.r.Read(b)
}

func (p *pendingPipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.r.Close()
}

// TestServeEndsAfterExitWithStdinOpen: exit ends `quire serve` while the
// editor still holds stdin open, however long closing stdin would wait.
func TestServeEndsAfterExitWithStdinOpen(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`
	tests := []struct {
		name     string
		messages []string
		want     int
	}{
		{"shutdown then exit", []string{initialize, `{"jsonrpc":"2.0","id":1,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`}, 0},
		{"exit alone", []string{initialize, `{"jsonrpc":"2.0","method":"exit"}`}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w := io.Pipe()
			t.Cleanup(func() { _ = w.Close() }) // only after the test: the editor's end stays open
			in := &pendingPipe{r: r}
			srv := server.New(server.Options{CacheDir: t.TempDir()})
			done := make(chan int, 1)
			go func() { done <- srv.Serve(context.Background(), stdio{Reader: in, Writer: io.Discard}) }()
			for _, m := range tt.messages {
				_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(m), m)
				require.NoError(t, err)
			}
			select {
			case code := <-done:
				assert.Equal(t, tt.want, code)
			case <-time.After(10 * time.Second):
				t.Fatal("quire serve did not end after exit while stdin stayed open")
			}
		})
	}
}
