package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/toolloop"
)

// How quire reaches an MCP server: a stdio child process or a streamable
// HTTP endpoint, dialled into one session (mcpConn) whose end and its reason
// are kept apart from the pool's bookkeeping of retries and failures.

// mcpStopGrace is how long a stdio server has to exit after its stdin is
// closed before it is killed. A variable for tests.
var mcpStopGrace = 2 * time.Second

func (r *mcpRemote) transportName() string {
	if r.cfg.URL != "" {
		return "http"
	}
	return "stdio"
}

// dial connects to the server.
func (r *mcpRemote) dial(ctx context.Context) (*mcpConn, error) {
	version := r.pool.opts.Version
	if version == "" {
		version = binaryVersion()
	}
	client := mcp.NewClient(&mcp.Implementation{Name: ImplementationName, Version: version}, nil)
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
	// The key the editor handed quire is for quire's model provider
	// alone: a server that needs it names it in its env: setting.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		// Windows spells variable names in any case.
		return strings.HasPrefix(strings.ToUpper(kv), keys.EditorKeyEnv+"=")
	})
	names := make([]string, 0, len(r.cfg.Env))
	for k := range r.cfg.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
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
		msg += "; its last message: " + strconv.Quote(toolloop.ClipRunes(line, 200))
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
