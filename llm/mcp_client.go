package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// This file makes quire an MCP client: the tools of the MCP servers that
// quire.yaml declares under mcp_servers are offered to the advisor's model
// as ordinary Tools, namespaced mcp__<server>__<tool>, and their calls go
// through the same Dispatcher (validation, size guards, envelope) as the
// built-in tools.

// CodeMCPFailed is an MCP server that could not be reached, did not start,
// died, timed out or refused the call. A tool of the server that ran and
// reported an error of its own is TOOL_FAILED instead.
const CodeMCPFailed = "MCP_FAILED"

// DefaultMCPTimeout bounds connecting to an MCP server and each of its
// calls when the server's configuration gives no timeout.
const DefaultMCPTimeout = 30 * time.Second

// MCPToolPrefix starts the name of every tool that comes from an MCP server.
const MCPToolPrefix = "mcp__"

// Bounds and delays of the MCP client.
const (
	// maxMCPServerName keeps room for the tool's own name within the 64
	// characters a tool name may have.
	maxMCPServerName = 24
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
	// maxMCPTimeout bounds the timeout quire.yaml may set.
	maxMCPTimeout = 10 * time.Minute
)

// mcpStopGrace is how long a stdio server has to exit after its stdin is
// closed before it is killed. A variable for tests.
var mcpStopGrace = 2 * time.Second

// mcpServerNamePattern keeps namespaced tool names within NewRegistry's
// pattern, which allows no dashes or upper case.
var mcpServerNamePattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// MCPServerConfig is one entry of quire.yaml's mcp_servers: a stdio server
// (Command, with Args and Env) or a streamable HTTP server (URL), exactly
// one of the two.
type MCPServerConfig struct {
	// Name is the server's key in mcp_servers, [a-z0-9_]+.
	Name    string
	Command string
	Args    []string
	// Env is added to quire's environment for a stdio server. A value may
	// refer to quire's environment as ${VAR}, expanded when the server
	// starts (so a key stays out of quire.yaml).
	Env map[string]string
	URL string
	// Timeout bounds connecting and each call; zero is DefaultMCPTimeout.
	Timeout time.Duration
}

func (c MCPServerConfig) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultMCPTimeout
	}
	return c.Timeout
}

// check reports what makes c unusable.
func (c MCPServerConfig) check() error {
	if !mcpServerNamePattern.MatchString(c.Name) || len(c.Name) > maxMCPServerName {
		return fmt.Errorf("MCP server name %q: use at most %d lower-case letters, digits and underscores", c.Name, maxMCPServerName)
	}
	switch {
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("MCP server %s: give a command or a url", c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("MCP server %s: give a command or a url, not both", c.Name)
	}
	return nil
}

// ParseMCPServers reads quire.yaml's mcp_servers mapping (node is its
// value):
//
//	mcp_servers:
//	  dict:
//	    command: dict-mcp          # stdio: a program on PATH or a path
//	    args: [--lang, en]
//	    env: {DICT_KEY: "${DICT_KEY}"}
//	    timeout: 20s
//	  research:
//	    url: http://localhost:8080/mcp   # streamable HTTP
//
// Errors name the line: quire.yaml: line N: ….
func ParseMCPServers(node *yaml.Node) (map[string]MCPServerConfig, error) {
	out := map[string]MCPServerConfig{}
	if node == nil || node.Kind == 0 || (node.Kind == yaml.ScalarNode && node.Tag == "!!null") {
		return out, nil
	}
	if node.Kind != yaml.MappingNode {
		return nil, lineError(node, "mcp_servers must map server names to {command, args, env} or {url}")
	}
	if err := codex.CheckSettingsYAML(node); err != nil {
		return nil, fmt.Errorf("quire.yaml: mcp_servers: %w", err)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, val := node.Content[i], node.Content[i+1]
		name := key.Value
		if !mcpServerNamePattern.MatchString(name) || len(name) > maxMCPServerName {
			return nil, lineError(key, "MCP server name %q: use at most %d lower-case letters, digits and underscores (tool names cannot carry dashes)", name, maxMCPServerName)
		}
		if _, dup := out[name]; dup {
			return nil, lineError(key, "MCP server %s is declared twice", name)
		}
		cfg, err := readMCPServer(name, val)
		if err != nil {
			return nil, err
		}
		out[name] = cfg
	}
	return out, nil
}

func readMCPServer(name string, n *yaml.Node) (MCPServerConfig, error) {
	cfg := MCPServerConfig{Name: name}
	if n.Kind != yaml.MappingNode {
		return cfg, lineError(n, "MCP server %s: give command (with args, env) or url", name)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "command":
			s, err := mcpScalar(v, name, "command")
			if err != nil {
				return cfg, err
			}
			cfg.Command = s
		case "url":
			s, err := mcpScalar(v, name, "url")
			if err != nil {
				return cfg, err
			}
			u, perr := url.Parse(s)
			if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return cfg, lineError(v, "MCP server %s: url %q is not an http or https URL", name, s)
			}
			cfg.URL = s
		case "args":
			if v.Kind != yaml.SequenceNode {
				return cfg, lineError(v, "MCP server %s: args must be a list of strings", name)
			}
			for _, item := range v.Content {
				if item.Kind != yaml.ScalarNode {
					return cfg, lineError(item, "MCP server %s: args must be a list of strings", name)
				}
				cfg.Args = append(cfg.Args, item.Value)
			}
		case "env":
			if v.Kind != yaml.MappingNode {
				return cfg, lineError(v, "MCP server %s: env must map variable names to strings", name)
			}
			cfg.Env = map[string]string{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ek, ev := v.Content[j], v.Content[j+1]
				if !envNamePattern.MatchString(ek.Value) {
					return cfg, lineError(ek, "MCP server %s: %q is not an environment variable name", name, ek.Value)
				}
				if ev.Kind != yaml.ScalarNode || (ev.Tag != "!!str" && ev.Tag != "") {
					return cfg, lineError(ev, "MCP server %s: env %s must be a string (quote it)", name, ek.Value)
				}
				if err := checkEnvRefs(ev.Value); err != nil {
					return cfg, lineError(ev, "MCP server %s: env %s: %v", name, ek.Value, err)
				}
				cfg.Env[ek.Value] = ev.Value
			}
		case "timeout":
			d, err := time.ParseDuration(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || d <= 0 || d > maxMCPTimeout {
				return cfg, lineError(v, "MCP server %s: timeout %q is not a duration such as 30s (at most %s)", name, v.Value, maxMCPTimeout)
			}
			cfg.Timeout = d
		default:
			return cfg, lineError(k, "MCP server %s: unknown setting %q (command, args, env, url, timeout)", name, k.Value)
		}
	}
	switch {
	case cfg.Command == "" && cfg.URL == "":
		return cfg, lineError(n, "MCP server %s: give a command (stdio) or a url (streamable HTTP)", name)
	case cfg.Command != "" && cfg.URL != "":
		return cfg, lineError(n, "MCP server %s: give a command or a url, not both", name)
	case cfg.URL != "" && (len(cfg.Args) > 0 || len(cfg.Env) > 0):
		return cfg, lineError(n, "MCP server %s: args and env are for a command, not a url", name)
	}
	return cfg, nil
}

func mcpScalar(v *yaml.Node, server, key string) (string, error) {
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		return "", lineError(v, "MCP server %s: %s must be a non-empty string", server, key)
	}
	return strings.TrimSpace(v.Value), nil
}

var (
	envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	envRefPattern  = regexp.MustCompile(`\$\{([^}]*)\}`)
)

// checkEnvRefs verifies that every ${ in s opens a reference to a variable.
func checkEnvRefs(s string) error {
	rest := s
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			return nil
		}
		rest = rest[i+2:]
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return errors.New("${ is not closed by }")
		}
		if !envNamePattern.MatchString(rest[:j]) {
			return fmt.Errorf("${%s} does not name an environment variable", rest[:j])
		}
		rest = rest[j+1:]
	}
}

// expandEnvRefs replaces each ${VAR} in s by the variable's value (empty
// when unset) and reports the names that were unset. Nothing else in s is
// touched, so a value with a bare $ passes as written.
func expandEnvRefs(s string) (string, []string) {
	var missing []string
	out := envRefPattern.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		v, ok := os.LookupEnv(name)
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	return out, missing
}

// MCPClientOptions configure NewMCPClients. The zero value is usable.
type MCPClientOptions struct {
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

// MCPClients is the pool of the MCP servers of one quire.yaml. Servers are
// connected on first use and reconnected after they die; Close stops them
// all. It is safe for concurrent use.
type MCPClients struct {
	opts    MCPClientOptions
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

// NewMCPClients returns a pool over servers (keyed by name; a config's Name
// defaults to its key). Nothing is started until a server's tools are
// asked for.
func NewMCPClients(servers map[string]MCPServerConfig, opts MCPClientOptions) *MCPClients {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(context.Background())
	p := &MCPClients{opts: opts, logger: logger, servers: map[string]*mcpRemote{}, base: base, cancel: cancel}
	for key, cfg := range servers {
		if cfg.Name == "" {
			cfg.Name = key
		}
		p.servers[key] = &mcpRemote{pool: p, cfg: cfg, sem: make(chan struct{}, 1), invalid: cfg.check()}
	}
	return p
}

// Servers returns the names of the configured servers, sorted.
func (p *MCPClients) Servers() []string {
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
func (p *MCPClients) Tools(ctx context.Context, server string) ([]Tool, error) {
	r, err := p.remote(server)
	if err != nil {
		return nil, err
	}
	return r.toolList(ctx)
}

// Names returns the names of server's tools as Tools returns them.
func (p *MCPClients) Names(ctx context.Context, server string) ([]string, error) {
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
func (p *MCPClients) Close() error {
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

func (p *MCPClients) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *MCPClients) remote(server string) (*mcpRemote, error) {
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
	pool *MCPClients
	cfg  MCPServerConfig
	// sem lets one goroutine at a time connect or list tools.
	sem chan struct{}
	// invalid is what makes cfg unusable, when something does.
	invalid error

	mu      sync.Mutex
	conn    *mcpConn
	tools   []Tool
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

// listedTools are the tools listed already, if they are.
func (r *mcpRemote) listedTools() ([]Tool, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tools), r.listed
}

// toolList lists the server's tools once.
func (r *mcpRemote) toolList(ctx context.Context) ([]Tool, error) {
	if tools, ok := r.listedTools(); ok {
		return tools, nil
	}

	ctx, cancel := context.WithTimeout(ctx, r.cfg.timeout())
	defer cancel()
	c, err := r.session(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	if tools, ok := r.listedTools(); ok {
		return tools, nil
	}

	var remote []*mcp.Tool
	cursor := ""
	for range maxMCPListPages {
		res, err := c.session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, r.callError(ctx, c, "tools/list", err)
		}
		remote = append(remote, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	tools := r.adaptTools(remote)
	r.mu.Lock()
	r.tools, r.listed = tools, true
	r.mu.Unlock()
	r.pool.logger.Info("mcp server tools", "server", r.cfg.Name, "tools", len(tools))
	return slices.Clone(tools), nil
}

// adaptTools turns the server's tools into advisor tools, in the server's
// order, warning about each one renamed or skipped.
func (r *mcpRemote) adaptTools(remote []*mcp.Tool) []Tool {
	logger := r.pool.logger.With("server", r.cfg.Name)
	prefix := MCPToolPrefix + r.cfg.Name + "__"
	used := map[string]bool{}
	// Names that are safe as sent are claimed first, so a collision
	// renames the tool whose name had to change.
	for _, mt := range remote {
		if mt != nil && sanitizeMCPToolName(mt.Name) == mt.Name && len(prefix+mt.Name) <= 64 {
			used[prefix+mt.Name] = true
		}
	}
	var out []Tool
	for _, mt := range remote {
		if mt == nil {
			continue
		}
		claimed := sanitizeMCPToolName(mt.Name) == mt.Name && len(prefix+mt.Name) <= 64
		if len(out) == maxMCPToolsPerServer {
			logger.Warn("mcp server offers too many tools; the rest are left out", "kept", maxMCPToolsPerServer, "offered", len(remote))
			break
		}
		base := sanitizeMCPToolName(mt.Name)
		if base == "" {
			logger.Warn("mcp tool skipped: its name cannot be made safe", "tool", mt.Name)
			continue
		}
		name := clipASCII(prefix+base, 64)
		if used[name] && !claimed {
			renamed := ""
			for i := 2; i < 100 && renamed == ""; i++ {
				suffix := "_" + strconv.Itoa(i)
				if cand := clipASCII(prefix+base, 64-len(suffix)) + suffix; !used[cand] {
					renamed = cand
				}
			}
			if renamed == "" {
				logger.Warn("mcp tool skipped: its name collides with another", "tool", mt.Name)
				continue
			}
			logger.Warn("mcp tool renamed: its name collides with another", "tool", mt.Name, "as", renamed)
			name = renamed
		} else if base != mt.Name || len(prefix+base) > 64 {
			logger.Debug("mcp tool name made safe", "tool", mt.Name, "as", name)
		}
		schema, err := adaptMCPSchema(mt.InputSchema)
		if err != nil {
			logger.Warn("mcp tool skipped: its input schema cannot be used", "tool", mt.Name, "error", err)
			continue
		}
		used[name] = true
		desc := strings.TrimSpace(mt.Description)
		if desc == "" {
			desc = strings.TrimSpace(mt.Title)
		}
		desc = clipRunes(fmt.Sprintf("[MCP server %s] %s", r.cfg.Name, desc), maxMCPDescriptionRunes)
		out = append(out, Tool{
			Name:        name,
			Description: strings.TrimSpace(desc),
			Parameters:  schema,
			Run:         r.runner(name, mt.Name),
		})
	}
	return out
}

// runner is the Run of one MCP tool.
func (r *mcpRemote) runner(name, remoteName string) func(context.Context, json.RawMessage) (any, []string, error) {
	return func(ctx context.Context, args json.RawMessage) (any, []string, error) {
		start := time.Now()
		data, warnings, err := r.call(ctx, remoteName, args)
		code := ""
		var te *ToolError
		if errors.As(err, &te) {
			code = te.Code
		}
		r.pool.logger.Debug("mcp tool call", "server", r.cfg.Name, "tool", name, "ok", err == nil, "code", code,
			"ms", time.Since(start).Milliseconds(), "argBytes", len(args))
		return data, warnings, err
	}
}

// mcpResult is the data of a successful MCP call.
type mcpResult struct {
	// Content is the result's text contents, joined by newlines.
	Content string `json:"content"`
	// Structured is the result's structured content, when it has one.
	Structured any `json:"structured,omitempty"`
}

// call runs one tools/call, connecting first if need be.
func (r *mcpRemote) call(parent context.Context, tool string, args json.RawMessage) (any, []string, error) {
	timeout := r.cfg.timeout()
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	c, err := r.session(ctx)
	if err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, nil, perr
		}
		return nil, nil, Errorf(CodeMCPFailed, "%v", err)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, nil, perr
		}
		return nil, nil, Errorf(CodeMCPFailed, "%v", r.callError(ctx, c, "tools/call "+tool, err))
	}
	r.recovered()
	text, warnings := mcpContentText(res.Content)
	if res.IsError {
		if strings.TrimSpace(text) == "" {
			text = "the tool reported an error without saying why"
		}
		return nil, warnings, Errorf(CodeToolFailed, "MCP server %s, tool %s: %s", r.cfg.Name, tool, clipRunes(text, maxMCPErrorRunes))
	}
	return mcpResult{Content: text, Structured: res.StructuredContent}, warnings, nil
}

// callError explains a failed request on connection c. A server that
// answered with an error stays connected; a timeout leaves the connection
// as it is (a slow tool is not a dead server); anything else means the
// connection is gone, so it is dropped, reported, and the next use
// reconnects.
func (r *mcpRemote) callError(ctx context.Context, c *mcpConn, what string, err error) error {
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr) && !isLocalRPCError(werr):
		return fmt.Errorf("MCP server %s refused %s: %s", r.cfg.Name, what, clipRunes(werr.Message, maxMCPErrorRunes))
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && !c.ended():
		r.pool.logger.Warn("mcp server did not answer in time", "server", r.cfg.Name, "request", what, "timeout", r.cfg.timeout())
		return fmt.Errorf("MCP server %s did not answer %s within %s", r.cfg.Name, what, r.cfg.timeout())
	}
	reason := c.reason(err)
	failure := r.notRunning("%s", reason)
	r.drop(c, failure)
	return failure
}

// isLocalRPCError reports whether werr was made on quire's side of the
// connection (a request the transport could not deliver, a connection that
// is closing) rather than sent by the server.
func isLocalRPCError(werr *jsonrpc.Error) bool {
	switch werr.Code {
	case -32003, -32004, -32005: // client closing, server closing, rejected by transport
		return true
	}
	return false
}

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

func (r *mcpRemote) transportName() string {
	if r.cfg.URL != "" {
		return "http"
	}
	return "stdio"
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

// dial connects to the server.
func (r *mcpRemote) dial(ctx context.Context) (*mcpConn, error) {
	version := r.pool.opts.Version
	if version == "" {
		version = binaryVersion()
	}
	client := mcp.NewClient(&mcp.Implementation{Name: MCPServerName, Version: version}, nil)
	if r.cfg.URL != "" {
		transport := &mcp.StreamableClientTransport{
			Endpoint:             r.cfg.URL,
			HTTPClient:           &http.Client{},
			MaxRetries:           1,
			DisableStandaloneSSE: true,
		}
		cs, err := client.Connect(ctx, transport, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, r.notRunning("no answer from %s within %s", redactURL(r.cfg.URL), r.cfg.timeout())
			}
			return nil, r.notRunning("cannot connect to %s: %v", redactURL(r.cfg.URL), err)
		}
		return newMCPConn(cs, nil), nil
	}

	proc, err := r.start()
	if err != nil {
		return nil, err
	}
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: proc.stdout, Writer: proc.stdin}, nil)
	if err != nil {
		if ctx.Err() != nil {
			_ = proc.kill()
			return nil, r.notRunning("%s did not answer within %s", r.cfg.Command, r.cfg.timeout())
		}
		msg := proc.describe(err)
		_ = proc.kill()
		return nil, r.notRunning("%s", msg)
	}
	return newMCPConn(cs, proc), nil
}

// start starts a stdio server's process.
func (r *mcpRemote) start() (*mcpProcess, error) {
	cmd := exec.Command(r.cfg.Command, r.cfg.Args...)
	cmd.Dir = r.pool.opts.Dir
	env := os.Environ()
	keys := make([]string, 0, len(r.cfg.Env))
	for k := range r.cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, missing := expandEnvRefs(r.cfg.Env[k])
		if len(missing) > 0 {
			r.pool.logger.Warn("mcp server env refers to unset variables", "server", r.cfg.Name, "env", k, "unset", missing)
		}
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	return startMCPProcess(cmd, r.notRunning)
}

// mcpConn is one session with a server.
type mcpConn struct {
	session *mcp.ClientSession
	proc    *mcpProcess // nil over HTTP
	// done is closed when the session ended, for whatever reason.
	done    chan struct{}
	endOnce sync.Once

	mu          sync.Mutex
	endErr      error
	intentional bool
	reported    bool
	stopOnce    sync.Once
	stopErr     error
}

func newMCPConn(cs *mcp.ClientSession, proc *mcpProcess) *mcpConn {
	c := &mcpConn{session: cs, proc: proc, done: make(chan struct{})}
	go func() {
		err := cs.Wait()
		c.end(err)
	}()
	if proc != nil {
		go func() {
			<-proc.exited
			c.end(nil)
			// A server whose process exited while something else holds its
			// stdout would leave the session waiting: close it.
			go func() { _ = cs.Close() }()
		}()
	}
	return c
}

func (c *mcpConn) end(err error) {
	c.endOnce.Do(func() {
		c.mu.Lock()
		c.endErr = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *mcpConn) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func (c *mcpConn) markIntentional() {
	c.mu.Lock()
	c.intentional = true
	c.mu.Unlock()
}

func (c *mcpConn) isIntentional() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.intentional
}

// reason says why the connection failed: the process's exit when it
// exited, else err or the error the session ended with.
func (c *mcpConn) reason(err error) string {
	if c.proc != nil {
		return c.proc.describe(err)
	}
	if err == nil {
		c.mu.Lock()
		err = c.endErr
		c.mu.Unlock()
	}
	if err == nil || errors.Is(err, mcp.ErrConnectionClosed) {
		return "the connection was closed"
	}
	return fmt.Sprintf("the connection failed: %v", err)
}

// shutdown closes the session and makes sure the process is gone.
func (c *mcpConn) shutdown() error {
	c.markIntentional()
	c.stopOnce.Do(func() {
		closed := make(chan struct{})
		go func() {
			_ = c.session.Close()
			close(closed)
		}()
		if c.proc != nil {
			c.stopErr = c.proc.stop()
		}
		select {
		case <-closed:
		case <-time.After(mcpStopGrace):
		}
	})
	return c.stopErr
}

// mcpProcess is a stdio server's process.
type mcpProcess struct {
	cmd    *exec.Cmd
	name   string
	stdin  *os.File
	stdout *os.File
	stderr *tailBuffer
	// exited is closed once the process has been waited for; waitErr is
	// then its exit.
	exited  chan struct{}
	waitErr error
}

// startMCPProcess starts cmd with its stdin and stdout on pipes the
// session owns. The pipes are plain files, so the session sees the end of
// stdout when the process exits, without racing exec's own copying.
func startMCPProcess(cmd *exec.Cmd, notRunning func(string, ...any) error) (*mcpProcess, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, notRunning("cannot make a pipe: %v", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_ = inR.Close()
		_ = inW.Close()
		return nil, notRunning("cannot make a pipe: %v", err)
	}
	stderr := &tailBuffer{max: maxMCPStderrBytes}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	// Bounds Wait when a child of the server keeps stderr open.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			_ = f.Close()
		}
		return nil, notRunning("cannot start %s: %v", cmd.Path, unwrapExecError(err))
	}
	// The child has its own copies of these ends.
	_ = inR.Close()
	_ = outW.Close()
	p := &mcpProcess{cmd: cmd, name: cmd.Path, stdin: inW, stdout: outR, stderr: stderr, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func unwrapExecError(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return fmt.Errorf("%q: %v", ee.Name, ee.Err)
	}
	return err
}

// hasExited waits up to d for the process to exit and reports whether it
// has.
func (p *mcpProcess) hasExited(d time.Duration) bool {
	if d <= 0 {
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// describe says how the process stopped, with the last line of its stderr.
// It waits a moment for an exit that is under way, to name its status.
func (p *mcpProcess) describe(err error) string {
	var msg string
	if p.hasExited(500 * time.Millisecond) {
		switch {
		case p.waitErr == nil:
			msg = "it exited"
		default:
			msg = fmt.Sprintf("it exited (%v)", p.waitErr)
		}
	} else if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
		msg = fmt.Sprintf("the connection failed: %v", err)
	} else {
		msg = "it closed its output"
	}
	if line := p.stderr.lastLine(); line != "" {
		msg += "; its last message: " + strconv.Quote(clipRunes(line, 200))
	}
	return msg
}

// stop closes stdin, gives the process mcpStopGrace to exit, then kills it.
func (p *mcpProcess) stop() error {
	_ = p.stdin.Close()
	if p.hasExited(mcpStopGrace) {
		return nil
	}
	return p.kill()
}

// kill kills the process and waits for it.
func (p *mcpProcess) kill() error {
	_ = p.stdin.Close()
	if p.hasExited(0) {
		return nil
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("kill MCP server %s: %w", p.name, err)
	}
	if !p.hasExited(5 * time.Second) {
		return fmt.Errorf("MCP server %s (pid %d) did not exit after kill", p.name, p.cmd.Process.Pid)
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = slices.Clone(t.buf[over:])
	}
	return len(b), nil
}

// lastLine is the last non-empty line written.
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRightFunc(string(t.buf), unicode.IsSpace), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// redactURL drops credentials and the query from u for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the configured url"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}

// sanitizeMCPToolName makes a server's tool name fit NewRegistry's
// pattern: camelCase becomes snake_case, every other character outside
// [a-z0-9_] becomes an underscore (runs of them one), and the ends are
// trimmed. Empty means nothing usable was left.
func sanitizeMCPToolName(name string) string {
	var b strings.Builder
	var prev rune
	under := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			if (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9') {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			under = false
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
			under = false
		default:
			if !under {
				b.WriteByte('_')
				under = true
			}
		}
		prev = r
	}
	return strings.Trim(b.String(), "_")
}

// clipASCII cuts s (ASCII) to n bytes, without a trailing underscore.
func clipASCII(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimRight(s[:n], "_")
}

// adaptMCPSchema turns an MCP input schema into Parameters NewRegistry
// accepts: as sent when it can, else with the smallest changes (a missing
// top-level type becomes object, a type list such as ["string","null"]
// becomes its one non-null type or is dropped, required names that are no
// property are dropped). An error means the tool cannot be offered.
func adaptMCPSchema(raw any) (map[string]any, error) {
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil || schema == nil {
		return nil, errors.New("not a JSON object")
	}
	if checkParameters(schema) == nil {
		return schema, nil
	}
	if _, ok := schema["type"]; !ok {
		schema["type"] = "object"
	}
	fixSchemaNode(schema)
	if err := checkParameters(schema); err != nil {
		return nil, err
	}
	return schema, nil
}

func fixSchemaNode(node map[string]any) {
	switch typ := node["type"].(type) {
	case []any:
		var kept []string
		for _, t := range typ {
			if s, ok := t.(string); ok && s != "null" && slices.Contains(supportedTypes, s) {
				kept = append(kept, s)
			}
		}
		if len(kept) == 1 {
			node["type"] = kept[0]
		} else {
			delete(node, "type")
		}
	case string:
		if !slices.Contains(supportedTypes, typ) {
			delete(node, "type")
		}
	case nil:
	default:
		delete(node, "type")
	}
	props, _ := node["properties"].(map[string]any)
	for _, child := range props {
		if m, ok := child.(map[string]any); ok {
			fixSchemaNode(m)
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		fixSchemaNode(items)
	} else if _, ok := node["items"]; ok {
		delete(node, "items")
	}
	switch extra := node["additionalProperties"].(type) {
	case nil, bool:
	case map[string]any:
		fixSchemaNode(extra)
	default:
		delete(node, "additionalProperties")
	}
	if req, ok := node["required"]; ok {
		var kept []any
		for _, name := range schemaStrings(req) {
			if _, ok := props[name]; ok {
				kept = append(kept, name)
			}
		}
		if len(kept) == 0 {
			delete(node, "required")
		} else {
			node["required"] = kept
		}
	}
}

// mcpContentText joins the text of a result's contents. What cannot be
// shown as text (images, audio, binary resources) is named in its place,
// with a warning.
func mcpContentText(contents []mcp.Content) (string, []string) {
	var parts, warnings []string
	for _, content := range contents {
		switch c := content.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
			warnings = append(warnings, "an image in the result was left out: only text is passed on")
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
			warnings = append(warnings, "audio in the result was left out: only text is passed on")
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *mcp.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			if c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s, %d bytes, not shown]", c.Resource.URI, len(c.Resource.Blob)))
				warnings = append(warnings, "a binary resource in the result was left out: only text is passed on")
			}
		default:
			warnings = append(warnings, fmt.Sprintf("a %T in the result was left out", content))
		}
	}
	return strings.Join(parts, "\n"), warnings
}
