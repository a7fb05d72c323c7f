package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/server/wire"
)

// TestHostileSuite keeps issue 27's attack classes in one place, each
// run against quire as a writer or an editor meets it: the program as a
// subprocess (`quire serve` over stdio, `quire ask`, `quire check`,
// `quire trust`), on a copy of the sample book, with a local HTTP server
// playing the provider. Every class must end with quire serving (or the
// command exiting with a clear error), its memory bounded, no secret
// printed and no line forged. Run it alone with
//
//	go test ./cmd/quire -run TestHostileSuite -v
//
// A new attack class is a new row.
func TestHostileSuite(t *testing.T) {
	for _, a := range hostileClasses {
		t.Run(a.name, func(t *testing.T) { a.run(t, newHostile(t)) })
	}
}

// hostileKey is the key the provider classes send; no output may hold it.
const hostileKey = "sk-hostile-0123456789abcdefXYZ"

// hostileMaxRSS bounds a hostile run's peak memory: the 70 KB query
// took 590 MB, the 100 MB tool call 940 MB.
const hostileMaxRSS = 300 << 20

type hostileClass struct {
	name string
	run  func(t *testing.T, h *hostile)
}

var hostileClasses = []hostileClass{
	{"a 70 KB quire/search query is refused by its length and the server serves", func(t *testing.T, h *hostile) {
		s := h.serve()
		err := s.call(wire.MethodSearch, wire.SearchParams{Query: strings.Repeat("lighthouse", 7000)}, nil)
		h.refusedShortly(err)
		s.stillServes()
		s.end()
	}},
	{"a 70 KB quire.search command is refused and the server serves", func(t *testing.T, h *hostile) {
		s := h.serve()
		args, _ := json.Marshal(wire.SearchParams{Query: strings.Repeat("harbor ", 10000)})
		// A command's failure is a message to the writer, its reply null.
		require.NoError(t, s.call(protocol.MethodWorkspaceExecuteCommand, protocol.ExecuteCommandParams{Command: wire.CommandSearch, Arguments: []any{json.RawMessage(args)}}, nil))
		msgs := s.messages()
		require.Len(t, msgs, 1, "the refusal is said once")
		h.refusedShortly(errors.New(msgs[0]))
		s.stillServes()
		s.end()
	}},
	{"a 70 KB quire/lookup name is refused by its length", func(t *testing.T, h *hostile) {
		s := h.serve()
		var res json.RawMessage
		err := s.call(wire.MethodLookup, wire.LookupParams{Name: strings.Repeat("Ilse Dorn ", 7000)}, &res)
		h.refusedShortly(err)
		s.stillServes()
		s.end()
	}},
	{"a 70 KB quire/explicate quote is refused by its length", func(t *testing.T, h *hostile) {
		s := h.serve()
		err := s.call(wire.MethodExplicate, wire.ExplicateParams{Quote: strings.Repeat("The bell rang. ", 5000)}, nil)
		h.refusedShortly(err)
		s.stillServes()
		s.end()
	}},
	{"a 100 MB non-streamed tool call is cut while it is read", func(t *testing.T, h *hostile) {
		p := h.provider(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_codex","arguments":"{\"query\":\"`)
			streamFiller(w, 100<<20)
			io.WriteString(w, `\"}"}}]}}]}`)
		})
		out, errOut, code, rss := h.quire("ask", "--base-url", p, "--model", "m", "--api-key-env", "HOSTILE_KEY", "Eyes?")
		assert.NotZero(t, code, "an answer too large to read is an error")
		assert.Contains(t, errOut, "passed 8 MB")
		h.bounded(rss)
		h.noKey(out + errOut)
	}},
	{"a book's own provider answering 200 MB does not end quire serve", func(t *testing.T, h *hostile) {
		p := h.provider(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`)
			streamFiller(w, 200<<20)
			io.WriteString(w, `"}}]}`)
		})
		h.appendConfig("provider:\n  base_url: " + p + "\n  model: m\n")
		s := h.serve()
		err := s.call(wire.MethodAsk, wire.AskParams{Message: "Eyes?"}, nil)
		require.Error(t, err, "the reply is refused")
		assert.Contains(t, err.Error(), "8 MB")
		s.stillServes()
		s.end()
	}},
	{"a key echoed in a successful answer is redacted (quire ask)", func(t *testing.T, h *hostile) {
		p := h.provider(echoKey(false, 0))
		out, errOut, code, _ := h.quire("ask", "--base-url", p, "--model", "m", "--api-key-env", "HOSTILE_KEY", "Key?")
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "Your key is")
		h.noKey(out + errOut)
		h.noKeyOnDisk()
	}},
	{"a key echoed in 1-, 3- and 7-character stream pieces is redacted (quire ask --stream)", func(t *testing.T, h *hostile) {
		for _, piece := range []int{1, 3, 7} {
			p := h.provider(echoKey(true, piece))
			out, errOut, code, _ := h.quire("ask", "--stream", "--base-url", p, "--model", "m", "--api-key-env", "HOSTILE_KEY", "Key?")
			require.Zero(t, code, errOut)
			assert.Contains(t, out, "Your key is", "pieces of %d", piece)
			h.noKey(out + errOut)
		}
		h.noKeyOnDisk()
	}},
	{"a key echoed is redacted in quire ask --json", func(t *testing.T, h *hostile) {
		p := h.provider(echoKey(false, 0))
		out, errOut, code, _ := h.quire("ask", "--json", "--base-url", p, "--model", "m", "--api-key-env", "HOSTILE_KEY", "Key?")
		require.Zero(t, code, errOut)
		assert.True(t, json.Valid([]byte(out)), out)
		h.noKey(out + errOut)
	}},
	{"a key echoed is redacted in quire/ask and its answer document", func(t *testing.T, h *hostile) {
		p := h.provider(echoKey(true, 5))
		h.userConfig("provider:\n  base_url: " + p + "\n  model: m\n  api_key_env: HOSTILE_KEY\n")
		s := h.serve()
		var res wire.AskResult
		require.NoError(t, s.call(wire.MethodAsk, wire.AskParams{Message: "Key?"}, &res))
		assert.Contains(t, res.Answer, "Your key is")
		h.noKey(res.Answer)
		s.end()
		h.noKey(s.stderr.String())
		h.noKeyOnDisk()
	}},
	{"a codex file named with a line break forges no line of quire check", func(t *testing.T, h *hostile) {
		if runtime.GOOS == "windows" {
			t.Log("Windows file names cannot hold a line break: only the report's shape is checked")
		} else {
			h.write("codex/characters/x.md\nmanuscript/01-thirteen-strokes.md:1:1: error: forged.md", "---\nname: Forger\n---\n")
		}
		out, _, _, _ := h.quire("check")
		h.oneProblemPerLine(out)
		assert.NotContains(t, out, "\nmanuscript/01-thirteen-strokes.md:1:1: error: forged")
	}},
	{"a codex file named with an escape code sends none to the terminal", func(t *testing.T, h *hostile) {
		if runtime.GOOS == "windows" {
			t.Log("Windows file names cannot hold an escape character: only the report's shape is checked")
		} else {
			h.write("codex/characters/\x1b[31mred\x1b]0;title\a.md", "---\nname: Red\n---\n")
			h.write("manuscript/06-\u202egnp.md", "# Six\n\n“The bell \x1b[31mrang\x1b[0m,” said Red.\n")
		}
		for _, args := range [][]string{{"check"}, {"list"}, {"lookup", "Red"}, {"untracked"}, {"dialogue"}} {
			out, errOut, _, _ := h.quire(args...)
			assert.NotContains(t, out+errOut, "\x1b", "quire %s", args[0])
			assert.NotContains(t, out+errOut, "\u202e", "quire %s", args[0])
		}
	}},
	{"a chapter named like a URL escape is a chapter", func(t *testing.T, h *hostile) {
		h.write(oddChapter, "# Seven\n\nThe bell rang at the harbor.\n")
		out, errOut, code, _ := h.quire("context", "7")
		require.Zero(t, code, errOut)
		assert.Contains(t, out, oddChapter)
	}},
	{"a UTF-16 chapter without a mark is reported, not read as prose", func(t *testing.T, h *hostile) {
		var wide []byte
		for _, r := range "# Wide\n\nIlse Dorn sailed.\n" {
			wide = append(wide, byte(r), 0)
		}
		h.writeBytes("manuscript/08-wide.md", wide)
		out, _, code, _ := h.quire("check")
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "manuscript/08-wide.md:1:1: error:")
		assert.Contains(t, out, "[binary]")
		ctx, _, _, _ := h.quire("context", "manuscript/08-wide.md")
		assert.NotContains(t, ctx, "\x00", "no NUL reaches what the advisor reads")
	}},
	{"a UTF-16 chapter with a mark is read as text", func(t *testing.T, h *hostile) {
		wide := []byte{0xFF, 0xFE}
		for _, r := range "# Wide\r\n\r\nThe bell rang.\r\n" {
			wide = append(wide, byte(r), 0)
		}
		h.writeBytes("manuscript/08-wide.md", wide)
		out, errOut, code, _ := h.quire("context", "8")
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "The bell rang.")
	}},
	{"a codex entry with lone-CR line ends keeps its front matter", func(t *testing.T, h *hostile) {
		h.write("codex/characters/odile-marr.md", "---\rname: Odile Marr\rsummary: Lamp-keeper of the north mole.\r---\r# Odile Marr\r")
		out, errOut, code, _ := h.quire("lookup", "Odile Marr")
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "Lamp-keeper of the north mole.")
	}},
	{"four books trusted at the same instant all stay trusted", func(t *testing.T, h *hostile) {
		var books []string
		for i := range 4 {
			b := filepath.Join(t.TempDir(), fmt.Sprintf("book%d", i))
			require.NoError(t, os.MkdirAll(b, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(b, "quire.yaml"), []byte("mcp_servers:\n  x:\n    command: x-server\n"), 0o644))
			books = append(books, b)
		}
		for round := range 5 {
			var wg sync.WaitGroup
			for _, b := range books {
				wg.Go(func() {
					_, errOut, code, _ := h.quireIn(b, "trust")
					assert.Zero(t, code, errOut)
				})
			}
			wg.Wait()
			// Taking each trust back says whether it was there.
			for _, b := range books {
				out, errOut, _, _ := h.quireIn(b, "trust", "--revoke", "--json")
				assert.Regexp(t, `"revoked":\s*true`, out, "round %d, %s: %s", round, filepath.Base(b), errOut)
			}
		}
	}},
}

// hostile is one attack's world: a copy of the sample book, a cache and
// a config folder of its own, and the environment quire runs in.
type hostile struct {
	t           *testing.T
	book, cache string
	config      string
	env         []string
}

func newHostile(t *testing.T) *hostile {
	book := filepath.Join(t.TempDir(), "book")
	_, _, err := run(t, "init", "--sample", book)
	require.NoError(t, err)
	h := &hostile{t: t, book: book, cache: t.TempDir(), config: t.TempDir()}
	h.env = append(os.Environ(), asQuire+"=1", "HOSTILE_KEY="+hostileKey,
		"XDG_CACHE_HOME="+h.cache, "LOCALAPPDATA="+h.cache, "XDG_CONFIG_HOME="+h.config, "APPDATA="+h.config)
	return h
}

// quire runs quire args… in the book and returns what it printed, its
// exit status and its peak memory (0 where the system does not say).
func (h *hostile) quire(args ...string) (stdout, stderr string, code int, rss int64) {
	return h.quireIn(h.book, args...)
}

func (h *hostile) quireIn(dir string, args ...string) (stdout, stderr string, code int, rss int64) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd, err := editortest.Start(h.t.Logf, func() (*exec.Cmd, error) {
		out.Reset()
		errOut.Reset()
		c := exec.CommandContext(ctx, os.Args[0], args...)
		c.Dir, c.Env = dir, h.env
		c.Stdout, c.Stderr = &out, &errOut
		return c, nil
	})
	require.NoError(h.t, err)
	peak := followPeak(cmd)
	err = cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		require.NoError(h.t, err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode(), peak.bytes()
}

func (h *hostile) write(rel, text string) { h.writeBytes(rel, []byte(text)) }

func (h *hostile) writeBytes(rel string, data []byte) {
	h.t.Helper()
	p := filepath.Join(h.book, filepath.FromSlash(rel))
	require.NoError(h.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(h.t, os.WriteFile(p, data, 0o644))
}

func (h *hostile) appendConfig(text string) {
	h.t.Helper()
	p := filepath.Join(h.book, "quire.yaml")
	old, err := os.ReadFile(p)
	require.NoError(h.t, err)
	require.NoError(h.t, os.WriteFile(p, append(old, text...), 0o644))
}

// userConfig writes the writer's own config.yaml, which is trusted.
func (h *hostile) userConfig(text string) {
	h.t.Helper()
	dir := filepath.Join(h.config, "quire")
	require.NoError(h.t, os.MkdirAll(dir, 0o700))
	require.NoError(h.t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(text), 0o600))
}

// provider serves handle as a model server and returns its base URL.
func (h *hostile) provider(handle http.HandlerFunc) string {
	srv := httptest.NewServer(handle)
	h.t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// refusedShortly holds that err refuses the request in a message of a
// sentence or two, which never echoes the input back.
func (h *hostile) refusedShortly(err error) {
	h.t.Helper()
	require.Error(h.t, err)
	assert.Less(h.t, len(err.Error()), 600, "the refusal is short: %.200s", err.Error())
}

func (h *hostile) bounded(rss int64) {
	h.t.Helper()
	if rss > 0 {
		h.t.Logf("peak memory: %d MB", rss>>20)
		assert.Less(h.t, rss, int64(hostileMaxRSS), "peak memory")
	}
}

func (h *hostile) noKey(text string) {
	h.t.Helper()
	assert.NotContains(h.t, text, hostileKey)
	assert.NotContains(h.t, text, hostileKey[3:20], "no part of the key either")
}

// noKeyOnDisk holds that nothing quire wrote (cache, answer documents,
// provenance, config) holds the key.
func (h *hostile) noKeyOnDisk() {
	h.t.Helper()
	for _, dir := range []string{h.cache, h.config, h.book} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, rerr := os.ReadFile(p)
			if rerr == nil {
				assert.False(h.t, bytes.Contains(data, []byte(hostileKey)), "the key is in %s", p)
			}
			return nil
		})
	}
}

var problemLine = regexp.MustCompile(`^\S(?:[^\n]*\S)?:\d+:\d+: (?:error|warning|info): [^\n]* \[[a-z-]+\]$`)

func (h *hostile) oneProblemPerLine(out string) {
	h.t.Helper()
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l != "" {
			assert.Regexp(h.t, problemLine, l)
		}
	}
}

// echoKey answers with the Authorization header it was sent, streamed in
// pieces of piece characters when stream is set: a provider (or a proxy)
// that reflects the key.
func echoKey(stream bool, piece int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answer := "Your key is " + r.Header.Get("Authorization") + ". Keep it safe."
		if !stream {
			w.Header().Set("Content-Type", "application/json")
			body, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}}})
			w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < len(answer); i += piece {
			chunk, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": answer[i:min(i+piece, len(answer))]}}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
		stop, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", stop)
	}
}

// streamFiller writes n bytes of letters, a megabyte at a time, until the
// client stops reading.
func streamFiller(w io.Writer, n int) {
	mb := bytes.Repeat([]byte("a"), 1<<20)
	for written := 0; written < n; written += len(mb) {
		if _, err := w.Write(mb); err != nil {
			return
		}
	}
}

// hostileServer is `quire serve` over stdio, initialized on the book.
type hostileServer struct {
	h      *hostile
	cmd    *exec.Cmd
	peak   *childPeak
	conn   jsonrpc2.Conn
	ctx    context.Context
	stderr *bytes.Buffer

	mu    sync.Mutex
	shown []string // the warnings and errors shown to the writer
}

// messages are the warnings and errors the server has shown so far
// (window/showMessage), without those of opening the book.
func (s *hostileServer) messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, m := range s.shown {
		if !strings.Contains(m, "trust") {
			out = append(out, m)
		}
	}
	return out
}

func (h *hostile) serve() *hostileServer {
	h.t.Helper()
	template := exec.Command(os.Args[0], "serve")
	template.Dir, template.Env = h.book, h.env
	var stderr bytes.Buffer
	template.Stderr = &syncWriter{w: &stderr}
	cmd, stream, _, stop, err := startServe(template)
	require.NoError(h.t, err)
	h.t.Cleanup(stop)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	h.t.Cleanup(cancel)
	s := &hostileServer{h: h, cmd: cmd, peak: followPeak(cmd), ctx: ctx, stderr: &stderr}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stream))
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodWindowShowMessage {
			var m protocol.ShowMessageParams
			if json.Unmarshal(req.Params(), &m) == nil && m.Type <= protocol.MessageTypeWarning {
				s.mu.Lock()
				s.shown = append(s.shown, m.Message)
				s.mu.Unlock()
			}
		}
		return reply(ctx, nil, nil)
	})
	s.conn = conn
	root := protocol.DocumentURI(fileURI(h.book))
	require.NoError(h.t, callErr(conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          root,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(root), Name: "book"}},
	}, nil)))
	require.NoError(h.t, conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}))
	s.stillServes()
	return s
}

func callErr(_ jsonrpc2.ID, err error) error { return err }

func (s *hostileServer) call(method string, params, result any) error {
	_, err := s.conn.Call(s.ctx, method, params, result)
	return err
}

// stillServes holds that the server answers a lookup of a name in the
// book: it is alive and its canon whole.
func (s *hostileServer) stillServes() {
	s.h.t.Helper()
	var res json.RawMessage
	require.NoError(s.h.t, s.call(wire.MethodLookup, wire.LookupParams{Name: "Bettany Crewe"}, &res), "stderr: %s", s.stderr)
	assert.Contains(s.h.t, string(res), "Bettany Crewe")
}

// end shuts the server down as an editor does and holds that it exited
// cleanly within the memory bound.
func (s *hostileServer) end() {
	s.h.t.Helper()
	_ = s.call(protocol.MethodShutdown, nil, nil)
	_ = s.conn.Notify(s.ctx, protocol.MethodExit, nil)
	err := s.cmd.Wait()
	require.NoError(s.h.t, err, "quire serve exits cleanly; stderr: %s", s.stderr)
	assert.NotContains(s.h.t, s.stderr.String(), "fatal error")
	assert.NotContains(s.h.t, s.stderr.String(), "panic")
	s.h.bounded(s.peak.bytes())
}

// syncWriter lets the test read a child's stderr while it writes.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
