package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// TestStdioBinary runs the built quire binary as an editor does: `quire
// serve --stdio` with LSP on its stdin and stdout. The binary is built
// once, here, for every subtest.
func TestStdioBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the quire binary")
	}
	bin := buildQuire(t)

	tests := []struct {
		name     string
		hover    bool
		shutdown bool
		exit     bool // else stdin closes
		want     int
	}{
		{name: "hover, shutdown, exit", hover: true, shutdown: true, exit: true, want: 0},
		{name: "exit without shutdown", exit: true, want: 1},
		{name: "stdin closed without exit", want: 1},
		{name: "stdin closed after shutdown", shutdown: true, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeProject(t, bookFiles)
			before := projectFiles(t, root)
			s := startStdio(t, bin, root)

			init := s.call(1, protocol.MethodInitialize, protocol.InitializeParams{
				RootURI:          textdoc.PathURI(root),
				WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
			})
			require.Nil(t, init.Error, "%s", init)
			var res protocol.InitializeResult
			require.NoError(t, json.Unmarshal(init.Result, &res))
			assert.Equal(t, "quire", res.ServerInfo.Name)
			assert.Regexp(t, `^\d+\.\d+\.\d+ \(commit ([0-9a-f]+(\+dirty)?|unknown), go1\.`, res.ServerInfo.Version,
				"the release number first (the VS Code extension compares it), then the commit (unknown in a build without VCS stamping) and Go release")
			s.notify(protocol.MethodInitialized, map[string]any{})

			if tt.hover {
				uri := textdoc.PathURI(filepath.Join(root, "manuscript", "02-storm.md"))
				s.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
					TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: "# Storm\n\nThen Ilse Dorn spoke.\n"},
				})
				h := s.pollHover(uri, 2, 6)
				assert.Contains(t, h.Contents.Value, "**Ilse Dorn**", "the editor's text, not the disk's")
			}
			if tt.shutdown {
				m := s.call(2, protocol.MethodShutdown, nil)
				require.Nil(t, m.Error, "%s", m)
				assert.Equal(t, "null", string(m.Result))
			}
			if tt.exit {
				// stdin stays open: exit alone must end the process.
				s.notify(protocol.MethodExit, nil)
			} else {
				require.NoError(t, s.stdin.Close())
			}
			assert.Equal(t, tt.want, s.wait(), "exit status; stderr:\n%s", s.stderr.String())
			assert.NotContains(t, s.stderr.String(), "panic")
			assert.Equal(t, before, projectFiles(t, root), "quire writes nothing inside the book project")
		})
	}
}

// buildQuire builds cmd/quire into a temp folder, or returns the binary
// $QUIRE_TEST_BIN names. TestStdioBinary calls it once and runs every
// subtest on the one binary.
func buildQuire(t *testing.T) string {
	t.Helper()
	// The Windows harness (editors/test/wine/go-test.sh) builds quire.exe
	// for these tests: no go tool runs under Wine.
	if bin := os.Getenv("QUIRE_TEST_BIN"); bin != "" {
		return bin
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build quire with")
	}
	bin := filepath.Join(t.TempDir(), "quire")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, "./cmd/quire")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/quire:\n%s", out)
	return bin
}

// moduleRoot finds the go.mod of this module from the package folder.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	require.NoError(t, err)
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/quire-ink/quire\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod of github.com/quire-ink/quire above the package")
		dir = parent
	}
}

// projectFiles lists a project's files with their sizes.
func projectFiles(t *testing.T, root string) map[string]int64 {
	t.Helper()
	files := map[string]int64{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = info.Size()
		return nil
	}))
	return files
}

// stdioSession is a running `quire serve --stdio`.
type stdioSession struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	msgs   chan wireMsg
	// readErr is what ended reading stdout: nil at a clean end between
	// frames, else whatever on stdout was not a JSON-RPC frame.
	readErr chan error
	held    []wireMsg
	nextID  int
	exited  bool
}

func startStdio(t *testing.T, bin, root string) *stdioSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	s := &stdioSession{t: t, stderr: &syncBuffer{}, msgs: make(chan wireMsg, 64), readErr: make(chan error, 1), nextID: 1000}
	cache := t.TempDir()
	var stdout io.Reader
	cmd, err := editortest.Start(t.Logf, func() (*exec.Cmd, error) {
		c := exec.CommandContext(ctx, bin, "serve", "--stdio", "--cache-dir", cache)
		c.Dir, c.Stderr = root, s.stderr
		var err error
		if s.stdin, err = c.StdinPipe(); err != nil {
			return nil, err
		}
		stdout, err = c.StdoutPipe()
		return c, err
	})
	require.NoError(t, err)
	s.cmd = cmd
	go func() {
		r := bufio.NewReader(stdout)
		for {
			m, err := readWireFrame(r)
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				_, _ = io.Copy(io.Discard, r)
				s.readErr <- err
				close(s.msgs)
				return
			}
			s.msgs <- m
		}
	}()
	t.Cleanup(func() {
		if !s.exited {
			_ = cmd.Process.Kill()
			s.wait()
		}
		cancel()
	})
	return s
}

func (s *stdioSession) send(msg map[string]any) {
	s.t.Helper()
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	require.NoError(s.t, err)
	_, err = io.WriteString(s.stdin, frameBody(string(body)))
	require.NoError(s.t, err)
}

func (s *stdioSession) notify(method string, params any) {
	s.t.Helper()
	msg := map[string]any{"method": method}
	if params != nil {
		msg["params"] = params
	}
	s.send(msg)
}

// call sends a request and waits for its response.
func (s *stdioSession) call(id int, method string, params any) wireMsg {
	s.t.Helper()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	s.send(msg)
	want := jsonID(s.t, id)
	deadline := time.After(wireTimeout)
	for {
		select {
		case m, ok := <-s.msgs:
			require.True(s.t, ok, "quire closed stdout before answering %s; stderr:\n%s", method, s.stderr.String())
			if m.Method == "" && string(m.ID) == want {
				return m
			}
			s.held = append(s.held, m)
		case <-deadline:
			s.t.Fatalf("no answer to %s", method)
		}
	}
}

// pollHover hovers until the project has loaded and the answer is not
// null.
func (s *stdioSession) pollHover(uri protocol.DocumentURI, line, char uint32) *protocol.Hover {
	s.t.Helper()
	deadline := time.Now().Add(wireTimeout)
	for {
		s.nextID++
		m := s.call(s.nextID, protocol.MethodTextDocumentHover, hoverParams(uri, line, char))
		require.Nil(s.t, m.Error, "%s", m)
		if string(m.Result) != "null" {
			var h protocol.Hover
			require.NoError(s.t, json.Unmarshal(m.Result, &h))
			return &h
		}
		require.True(s.t, time.Now().Before(deadline), "hover stayed null")
		time.Sleep(20 * time.Millisecond)
	}
}

// wait waits for the process to end and returns its exit status, after
// checking that all it wrote on stdout were JSON-RPC frames.
func (s *stdioSession) wait() int {
	s.t.Helper()
	s.exited = true
	select {
	case err := <-s.readErr:
		assert.NoError(s.t, err, "stdout carries JSON-RPC frames only")
	case <-time.After(wireTimeout):
		_ = s.cmd.Process.Kill()
		<-s.readErr
		s.t.Error("quire did not end")
	}
	err := s.cmd.Wait()
	_ = s.stdin.Close()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		s.t.Fatalf("wait for quire: %v", err)
	}
	return s.cmd.ProcessState.ExitCode()
}

// syncBuffer is a bytes.Buffer safe for the process's stderr copier and
// the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
