package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/quire-ink/quire/llm/provider"
)

// This file makes quire an MCP client: the tools of the MCP servers that
// quire.yaml declares under mcp_servers are offered to the advisor's model
// as ordinary Tools, namespaced mcp__<server>__<tool>, and their calls go
// through the same Dispatcher (validation, size guards, envelope) as the
// built-in tools.

// CodeFailed is an MCP server that could not be reached, did not start,
// died, timed out or refused the call. A tool of the server that ran and
// reported an error of its own is TOOL_FAILED instead.
const CodeFailed = "MCP_FAILED"

// DefaultTimeout bounds connecting to an MCP server and each of its
// calls when the server's configuration gives no timeout.
const DefaultTimeout = 30 * time.Second

// ToolPrefix starts the name of every tool that comes from an MCP server.
const ToolPrefix = "mcp__"

// Bounds and delays of the MCP client.
const (
	// MaxServerName keeps room for the tool's own name within the 64
	// characters a tool name may have.
	MaxServerName = 24
	// maxMCPToolsPerServer bounds the tools one server adds to a request;
	// providers cap the tools of a request (OpenAI at 128).
	maxMCPToolsPerServer = 64
	// maxMCPListPages bounds the pages of tools/list followed.
	maxMCPListPages = 16
	// maxMCPDescriptionRunes bounds a tool description sent to the model.
	maxMCPDescriptionRunes = 1024
	// maxMCPErrorRunes bounds a server's own error text passed to the model.
	maxMCPErrorRunes = 2000
	// maxMCPStderrBytes is how much of a stdio server's stderr is kept, to
	// explain why it stopped.
	maxMCPStderrBytes = 4 << 10
	// MaxTimeout bounds the timeout quire.yaml may set.
	MaxTimeout = 10 * time.Minute
)

// ClientOptions configure NewClients. The zero value is usable.
type ClientOptions struct {
	// Logger receives connection events, warnings about tools that were
	// renamed or skipped, and one line per call (server, tool, ok,
	// duration, sizes: never arguments, results or env values). Nil logs
	// nothing.
	Logger *slog.Logger
	// OnFailure is told, once per failure episode, that a server could not
	// be started or reached or that it died; the episode ends when the
	// server connects again. It is called synchronously from the call that
	// saw the failure (or from a watcher goroutine for a server that died
	// between calls), never after Close, and with no lock held.
	OnFailure func(server string, err error)
	// Dir is the working directory of stdio servers (the project root,
	// usually); empty is quire's own.
	Dir string
	// Version is the client version sent to servers; empty takes the
	// binary's module version.
	Version string
}

// Clients is the pool of the MCP servers of one quire.yaml. Servers are
// connected on first use and reconnected after they die; Close stops them
// all. It is safe for concurrent use.
type Clients struct {
	opts    ClientOptions
	logger  *slog.Logger
	servers map[string]*mcpRemote
	// base is cancelled by Close, aborting connections in progress.
	base   context.Context
	cancel context.CancelFunc
	// dials counts connections in progress, which Close waits for.
	dials sync.WaitGroup

	mu     sync.Mutex
	closed bool
}

// NewClients returns a pool over servers (keyed by name; a config's Name
// defaults to its key). Nothing is started until a server's tools are
// asked for.
func NewClients(servers map[string]ServerConfig, opts ClientOptions) *Clients {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(context.Background())
	p := &Clients{opts: opts, logger: logger, servers: map[string]*mcpRemote{}, base: base, cancel: cancel}
	for key, cfg := range servers {
		if cfg.Name == "" {
			cfg.Name = key
		}
		p.servers[key] = &mcpRemote{pool: p, cfg: cfg, sem: make(chan struct{}, 1), invalid: cfg.check()}
	}
	return p
}

// Servers returns the names of the configured servers, sorted.
func (p *Clients) Servers() []string {
	if p == nil {
		return nil
	}
	names := make([]string, 0, len(p.servers))
	for name := range p.servers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Tools returns the tools of server as advisor Tools named
// mcp__<server>__<tool>, connecting to the server if this is its first use.
// The list is read once and kept for the pool's life; a tool's Run
// reconnects a server that died. Tools whose names or schemas cannot be
// made safe are left out with a logged warning.
func (p *Clients) Tools(ctx context.Context, server string) ([]provider.Tool, error) {
	r, err := p.remote(server)
	if err != nil {
		return nil, err
	}
	return r.toolList(ctx)
}

// Names returns the names of server's tools as Tools returns them.
func (p *Clients) Names(ctx context.Context, server string) ([]string, error) {
	tools, err := p.Tools(ctx, server)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names, nil
}

// Close stops every server: sessions are closed, stdio servers are given
// a moment to exit and then killed, and connections in progress are
// aborted. Tools' Runs fail afterwards. Close may be called more than
// once.
func (p *Clients) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.cancel()

	var wg sync.WaitGroup
	errs := make([]error, 0, len(p.servers))
	var errMu sync.Mutex
	for _, r := range p.servers {
		wg.Go(func() {
			if err := r.close(); err != nil {
				errMu.Lock()
				errs = append(errs, err)
				errMu.Unlock()
			}
		})
	}
	wg.Wait()
	p.dials.Wait()
	return errors.Join(errs...)
}

func (p *Clients) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Clients) remote(server string) (*mcpRemote, error) {
	if p == nil {
		return nil, fmt.Errorf("no MCP server %q: quire.yaml declares none", server)
	}
	r, ok := p.servers[server]
	if !ok {
		known := p.Servers()
		if len(known) == 0 {
			return nil, fmt.Errorf("no MCP server %q: quire.yaml declares none", server)
		}
		return nil, fmt.Errorf("no MCP server %q in quire.yaml (servers: %s)", server, strings.Join(known, ", "))
	}
	if r.invalid != nil {
		return nil, r.invalid
	}
	return r, nil
}

// mcpRemote is one configured server and its current connection.
type mcpRemote struct {
	pool *Clients
	cfg  ServerConfig
	// sem lets one goroutine at a time connect or list tools.
	sem chan struct{}
	// invalid is what makes cfg unusable, when something does.
	invalid error

	mu      sync.Mutex
	conn    *mcpConn
	tools   []provider.Tool
	listed  bool
	failing bool
	closed  bool
}

// notRunning is the error of a server that cannot be used.
func (r *mcpRemote) notRunning(format string, args ...any) error {
	return fmt.Errorf("MCP server %s is not running: %s", r.cfg.Name, fmt.Sprintf(format, args...))
}

func (r *mcpRemote) acquire(ctx context.Context) error {
	select {
	case r.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return r.notRunning("still connecting after %s", r.cfg.timeout())
	}
}

func (r *mcpRemote) release() { <-r.sem }

// session returns a live connection, connecting when there is none. A dead
// connection is replaced at most once per call: a failure to connect is
// returned, not retried.
func (r *mcpRemote) session(ctx context.Context) (*mcpConn, error) {
	if c := r.live(); c != nil {
		return c, nil
	}
	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	if c := r.live(); c != nil {
		return c, nil
	}
	p := r.pool
	// Registering the dial and checking closed under one lock means Close
	// either sees this dial in its wait group or this dial sees closed.
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, r.notRunning("quire is shutting down")
	}
	p.dials.Add(1)
	p.mu.Unlock()
	defer p.dials.Done()

	dctx, cancel := context.WithTimeout(ctx, r.cfg.timeout())
	defer cancel()
	stop := context.AfterFunc(p.base, cancel)
	defer stop()
	c, err := r.dial(dctx)
	if err != nil {
		if p.isClosed() {
			return nil, r.notRunning("quire is shutting down")
		}
		if ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.fail(err)
		}
		return nil, err
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		c.shutdown()
		return nil, r.notRunning("quire is shutting down")
	}
	r.conn = c
	r.failing = false
	r.mu.Unlock()
	go r.watch(c)
	p.logger.Info("mcp server connected", "server", r.cfg.Name, "transport", r.transportName())
	return c, nil
}

// live is the current connection when it has not ended.
func (r *mcpRemote) live() *mcpConn {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != nil && !r.conn.ended() {
		return r.conn
	}
	return nil
}

// recovered ends a failure episode after a call that worked.
func (r *mcpRemote) recovered() {
	r.mu.Lock()
	r.failing = false
	r.mu.Unlock()
}

// fail reports err through OnFailure, once per failure episode.
func (r *mcpRemote) fail(err error) {
	r.mu.Lock()
	first := !r.failing && !r.closed
	r.failing = true
	r.mu.Unlock()
	if !first || r.pool.isClosed() {
		return
	}
	r.pool.logger.Warn("mcp server failed", "server", r.cfg.Name, "error", err)
	if r.pool.opts.OnFailure != nil {
		r.pool.opts.OnFailure(r.cfg.Name, err)
	}
}

// drop forgets connection c and stops it, reporting failure once per
// connection (the call that saw it and the watcher may both get here).
func (r *mcpRemote) drop(c *mcpConn, failure error) {
	r.mu.Lock()
	if r.conn == c {
		r.conn = nil
	}
	r.mu.Unlock()
	c.mu.Lock()
	reported := c.reported
	c.reported, c.intentional = true, true
	c.mu.Unlock()
	go func() { _ = c.shutdown() }()
	if !reported {
		r.fail(failure)
	}
}

// watch waits for connection c to end and, unless quire ended it, reports
// the server as gone.
func (r *mcpRemote) watch(c *mcpConn) {
	<-c.done
	if c.isIntentional() {
		return
	}
	r.drop(c, r.notRunning("%s", c.reason(nil)))
}

// close stops the current connection for good.
func (r *mcpRemote) close() error {
	r.mu.Lock()
	r.closed = true
	c := r.conn
	r.conn = nil
	r.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.shutdown()
}
