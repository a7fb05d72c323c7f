package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultDrainWait bounds how long `quire mcp` keeps answering the
// requests still in flight once the client has closed its input.
const DefaultDrainWait = 10 * time.Second

// DrainingTransport wraps t so that the end of the client's input ends
// the session only once every request already read has been answered, or
// wait has passed: a client that sends its last calls and closes stdin
// still gets their answers. The SDK ends the session, and with it the
// handlers' writes, as soon as a read fails.
func DrainingTransport(t mcp.Transport, wait time.Duration) mcp.Transport {
	return &drainingTransport{inner: t, wait: wait}
}

type drainingTransport struct {
	inner mcp.Transport
	wait  time.Duration
}

func (t *drainingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainingConn{Connection: c, wait: t.wait, pending: map[jsonrpc.ID]struct{}{}, idle: make(chan struct{})}, nil
}

// drainingConn counts the requests read and not yet answered.
type drainingConn struct {
	mcp.Connection
	wait time.Duration

	mu      sync.Mutex
	pending map[jsonrpc.ID]struct{}
	// idle is closed while nothing is pending, replaced when a request
	// comes in.
	idle     chan struct{}
	idleOpen bool
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.mu.Lock()
			c.pending[req.ID] = struct{}{}
			c.mu.Unlock()
		}
		return msg, nil
	}
	// The input ended (or broke): let what is in flight finish first.
	timer := time.NewTimer(c.wait)
	defer timer.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		if n > 0 && !c.idleOpen {
			c.idle = make(chan struct{})
			c.idleOpen = true
		}
		idle := c.idle
		c.mu.Unlock()
		if n == 0 {
			return nil, err
		}
		select {
		case <-idle:
		case <-timer.C:
			return nil, err
		case <-ctx.Done():
			return nil, err
		}
	}
}

func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		if len(c.pending) == 0 && c.idleOpen {
			close(c.idle)
			c.idleOpen = false
		}
		c.mu.Unlock()
	}
	return err
}
