package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// The MCP client tests talk to real stdio servers: the test binary itself,
// started again with mcpTestServerEnv naming a mode, serves a small
// dictionary over stdin/stdout instead of running the tests.
const (
	mcpTestServerEnv = "QUIRE_TEST_MCP_SERVER"
	// mcpTestStartsEnv names a file each test server appends its pid to
	// when it starts, so tests can count starts and find the process.
	mcpTestStartsEnv = "QUIRE_TEST_MCP_STARTS"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(mcpTestServerEnv); mode != "" {
		os.Exit(runTestMCPServer(mode))
	}
	// The tests get a home, config and cache folder of their own on every
	// system (codex/testhome); the child above inherits them.
	os.Exit(testhome.Run(m))
}

// runTestMCPServer is the test server's main. Modes:
//
//	dict      serves the dictionary tools until stdin closes
//	stubborn  serves them, then ignores the end of stdin (must be killed)
//	hang      never answers anything
//	exit      complains on stderr and exits 2 before the handshake
func runTestMCPServer(mode string) int {
	if path := os.Getenv(mcpTestStartsEnv); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			_, _ = fmt.Fprintf(f, "%d\n", os.Getpid())
			_ = f.Close()
		}
	}
	switch mode {
	case "hang":
		time.Sleep(time.Hour)
		return 0
	case "exit":
		fmt.Fprintln(os.Stderr, "dict: no dictionary found")
		return 2
	}
	err := dictServer().Run(context.Background(), &mcp.StdioTransport{})
	if mode == "stubborn" {
		time.Sleep(time.Hour)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dict:", err)
		return 1
	}
	return 0
}

// defineSchema is the define tool's input schema, passed through as is.
var defineSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"word": map[string]any{"type": "string", "description": "The word to define."},
	},
	"required":             []any{"word"},
	"additionalProperties": false,
}

// dictServer is the test MCP server.
func dictServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "dict", Version: "v0"}, nil)
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	empty := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "define", Description: "Define a word.", InputSchema: defineSchema},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Word string `json:"word"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{
				Content:           text(args.Word + ": the rise and fall of the sea"),
				StructuredContent: map[string]any{"word": args.Word, "senses": 1},
			}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: empty},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("the dictionary is closed"), IsError: true}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "crash", Description: "Exits the server.", InputSchema: empty},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "dict: crashing on purpose")
			os.Exit(3)
			return nil, nil
		})
	srv.AddTool(&mcp.Tool{Name: "slow", Description: "Takes its time.", InputSchema: empty},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
			}
			return &mcp.CallToolResult{Content: text("done")}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "env", Description: "Says DICT_LANG.", InputSchema: empty},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(os.Getenv("DICT_LANG"))}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "editor_key", Description: "Says the editor's key, if it got one.", InputSchema: empty},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("key:" + os.Getenv(keys.EditorKeyEnv))}, nil
		})
	// A name to make safe, with a schema to adapt, and a name that then
	// collides with it.
	synSchema := map[string]any{"type": "object", "properties": map[string]any{
		"word":  map[string]any{"type": "string"},
		"limit": map[string]any{"type": []any{"integer", "null"}},
	}}
	srv.AddTool(&mcp.Tool{Name: "lookUp.Synonyms", Description: "Synonyms.", InputSchema: synSchema},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("tide: flow, current")}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "look_up_synonyms", Description: "More synonyms.", InputSchema: empty},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("sea: ocean")}, nil
		})
	return srv
}

// mcpFixture is a pool over one test server called dict.
type mcpFixture struct {
	pool   *Clients
	starts string

	mu       sync.Mutex
	failures []string
}

// newMCPFixture makes a pool whose server dict runs the test binary in
// mode. The pool is closed when the test ends.
func newMCPFixture(t *testing.T, mode string, timeout time.Duration) *mcpFixture {
	t.Helper()
	f := &mcpFixture{starts: filepath.Join(t.TempDir(), "starts")}
	cfg := ServerConfig{
		Command: os.Args[0],
		Args:    []string{"-test.run=^$"},
		Env: map[string]string{
			mcpTestServerEnv: mode,
			mcpTestStartsEnv: f.starts,
			"DICT_LANG":      "${QUIRE_TEST_DICT_LANG}",
			// The race detector otherwise holds every exit for a second.
			"GORACE": "atexit_sleep_ms=0",
		},
		Timeout: timeout,
	}
	f.pool = NewClients(map[string]ServerConfig{"dict": cfg}, ClientOptions{
		OnFailure: func(server string, err error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.failures = append(f.failures, server+": "+err.Error())
		},
	})
	t.Cleanup(func() { _ = f.pool.Close() })
	return f
}

func (f *mcpFixture) failureCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.failures)
}

// pids are the processes the server was started as, in order.
func (f *mcpFixture) pids(t *testing.T) []int {
	t.Helper()
	data, err := os.ReadFile(f.starts)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	var out []int
	for _, line := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(line)
		require.NoError(t, err)
		out = append(out, pid)
	}
	return out
}

// dispatcher registers the server's tools and returns a dispatcher over
// them, as the advisor's loop would.
func (f *mcpFixture) dispatcher(t *testing.T) *toolloop.Dispatcher {
	t.Helper()
	tools, err := f.pool.Tools(context.Background(), "dict")
	require.NoError(t, err)
	reg, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
	return toolloop.NewDispatcher(reg, toolloop.Limits{})
}

// processAlive reports whether pid is a running process.
func errorCode(t *testing.T, env toolloop.Envelope) (string, string) {
	t.Helper()
	require.False(t, env.OK)
	require.Len(t, env.Errors, 1)
	return env.Errors[0].Code, env.Errors[0].Message
}

func TestMCPClientConnectsLazily(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	time.Sleep(50 * time.Millisecond)
	assert.Empty(t, f.pids(t), "nothing starts before the tools are asked for")

	tools, err := f.pool.Tools(context.Background(), "dict")
	require.NoError(t, err)
	require.NotEmpty(t, tools)
	assert.Len(t, f.pids(t), 1)

	names, err := f.pool.Names(context.Background(), "dict")
	require.NoError(t, err)
	assert.Len(t, f.pids(t), 1, "the second use reuses the connection")
	// A safe name is kept; lookUp.Synonyms, made safe, collides with it
	// and is renamed.
	assert.ElementsMatch(t, []string{
		"mcp__dict__define", "mcp__dict__fail", "mcp__dict__crash", "mcp__dict__slow", "mcp__dict__env", "mcp__dict__editor_key",
		"mcp__dict__look_up_synonyms", "mcp__dict__look_up_synonyms_2",
	}, names)
}

func TestMCPClientToolsAreSafe(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	tools, err := f.pool.Tools(context.Background(), "dict")
	require.NoError(t, err)
	byName := map[string]provider.Tool{}
	for _, tool := range tools {
		assert.Regexp(t, toolloop.ToolNamePattern, tool.Name)
		assert.True(t, strings.HasPrefix(tool.Description, "[MCP server dict] "), tool.Description)
		byName[tool.Name] = tool
	}
	_, err = toolloop.NewRegistry(tools...)
	require.NoError(t, err, "every tool registers")

	want, err := json.Marshal(defineSchema)
	require.NoError(t, err)
	got, err := json.Marshal(byName["mcp__dict__define"].Parameters)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got), "the schema passes through")
	assert.Equal(t, "[MCP server dict] Define a word.", byName["mcp__dict__define"].Description)

	syn := byName["mcp__dict__look_up_synonyms_2"].Parameters
	limit := syn["properties"].(map[string]any)["limit"].(map[string]any)
	assert.Equal(t, "integer", limit["type"], "a nullable type is narrowed to what the validator knows")

	_, err = f.pool.Tools(context.Background(), "thesaurus")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no MCP server "thesaurus"`)
	assert.Contains(t, err.Error(), "dict")
}

func TestMCPClientCalls(t *testing.T) {
	t.Setenv("QUIRE_TEST_DICT_LANG", "en-GB")
	t.Setenv(keys.EditorKeyEnv, "sk-editor-secret")
	f := newMCPFixture(t, "dict", 5*time.Second)
	d := f.dispatcher(t)
	tests := []struct {
		name     string
		tool     string
		args     string
		wantCode string
		wantText string
	}{
		{name: "define", tool: "mcp__dict__define", args: `{"word":"tide"}`, wantText: "tide: the rise and fall of the sea"},
		{name: "env expanded at start", tool: "mcp__dict__env", args: `{}`, wantText: "en-GB"},
		{name: "no arguments", tool: "mcp__dict__env", args: ``, wantText: "en-GB"},
		{name: "the editor's key stays with quire", tool: "mcp__dict__editor_key", args: `{}`, wantText: "key:"},
		{name: "renamed tool", tool: "mcp__dict__look_up_synonyms_2", args: `{"word":"tide","limit":3}`, wantText: "tide: flow, current"},
		{name: "tool that kept its name", tool: "mcp__dict__look_up_synonyms", args: `{}`, wantText: "sea: ocean"},
		{name: "tool error", tool: "mcp__dict__fail", args: `{}`, wantCode: toolloop.CodeToolFailed, wantText: "the dictionary is closed"},
		{name: "missing argument", tool: "mcp__dict__define", args: `{}`, wantCode: toolloop.CodeInvalidArguments, wantText: "word: is required"},
		{name: "wrong type", tool: "mcp__dict__define", args: `{"word":7}`, wantCode: toolloop.CodeInvalidArguments, wantText: "word"},
		{name: "unknown field", tool: "mcp__dict__define", args: `{"word":"tide","lang":"en"}`, wantCode: toolloop.CodeInvalidArguments, wantText: "unknown field"},
		{name: "not JSON", tool: "mcp__dict__define", args: `{"word":`, wantCode: toolloop.CodeInvalidJSON},
		{name: "too large", tool: "mcp__dict__define", args: `{"word":"` + strings.Repeat("a", toolloop.DefaultMaxArgumentBytes) + `"}`, wantCode: toolloop.CodeArgumentsTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := d.Call(context.Background(), tt.tool, tt.args)
			if tt.wantCode != "" {
				code, msg := errorCode(t, res.Envelope)
				assert.Equal(t, tt.wantCode, code, msg)
				assert.Contains(t, msg, tt.wantText)
				return
			}
			require.True(t, res.Envelope.OK, "%v", res.Envelope.Errors)
			var env struct {
				Data struct {
					Content    string         `json:"content"`
					Structured map[string]any `json:"structured"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(res.JSON), &env), res.JSON)
			assert.Equal(t, tt.wantText, env.Data.Content)
			if tt.tool == "mcp__dict__define" {
				assert.Equal(t, map[string]any{"word": "tide", "senses": float64(1)}, env.Data.Structured)
			}
		})
	}
	assert.Len(t, f.pids(t), 1)
	assert.Zero(t, f.failureCount(), "a tool error is not a server failure")
}

func TestMCPClientValidatesBeforeTheServer(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	tools, err := f.pool.Tools(context.Background(), "dict")
	require.NoError(t, err)
	var mu sync.Mutex
	runs := 0
	for i := range tools {
		run := tools[i].Run
		tools[i].Run = func(ctx context.Context, args json.RawMessage) (any, []string, error) {
			mu.Lock()
			runs++
			mu.Unlock()
			return run(ctx, args)
		}
	}
	reg, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
	res := toolloop.NewDispatcher(reg, toolloop.Limits{}).Call(context.Background(), "mcp__dict__define", `{"word":["tide"]}`)
	code, _ := errorCode(t, res.Envelope)
	assert.Equal(t, toolloop.CodeInvalidArguments, code)
	assert.Zero(t, runs, "bad arguments never reach the server")
}

func TestMCPClientCrashAndReconnect(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	d := f.dispatcher(t)
	first := f.pids(t)
	require.Len(t, first, 1)

	res := d.Call(context.Background(), "mcp__dict__crash", `{}`)
	code, msg := errorCode(t, res.Envelope)
	assert.Equal(t, CodeFailed, code)
	assert.Contains(t, msg, "MCP server dict is not running")
	assert.Contains(t, msg, "exit status 3")
	assert.Contains(t, msg, "crashing on purpose")
	time.Sleep(100 * time.Millisecond) // let the watcher see the exit too
	assert.Equal(t, 1, f.failureCount(), "one failure, one report")
	assert.Eventually(t, func() bool { return !processAlive(first[0]) }, 2*time.Second, 20*time.Millisecond)

	res = d.Call(context.Background(), "mcp__dict__define", `{"word":"tide"}`)
	require.True(t, res.Envelope.OK, "%v", res.Envelope.Errors)
	assert.Len(t, f.pids(t), 2, "the next call started the server again")
	assert.Equal(t, 1, f.failureCount())
}

func TestMCPClientServerThatCannotStart(t *testing.T) {
	tests := []struct {
		name    string
		command string
		mode    string
		want    []string
	}{
		{name: "no such command", command: "quire-test-no-such-mcp-server", want: []string{"MCP server dict is not running", "cannot start", "quire-test-no-such-mcp-server"}},
		{name: "exits during the handshake", mode: "exit", want: []string{"MCP server dict is not running", "exit status 2", "no dictionary found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newMCPFixture(t, tt.mode, 5*time.Second)
			if tt.command != "" {
				r := f.pool.servers["dict"]
				r.cfg.Command = tt.command
			}
			start := time.Now()
			_, err := f.pool.Tools(context.Background(), "dict")
			require.Error(t, err)
			assert.Less(t, time.Since(start), 2*time.Second, "fails fast")
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			_, err = f.pool.Tools(context.Background(), "dict")
			require.Error(t, err, "tried again, failed again")
			assert.Equal(t, 1, f.failureCount(), "one report per failure episode")
		})
	}
}

func TestMCPClientServerThatNeverAnswers(t *testing.T) {
	f := newMCPFixture(t, "hang", 500*time.Millisecond)
	start := time.Now()
	_, err := f.pool.Tools(context.Background(), "dict")
	require.Error(t, err)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Contains(t, err.Error(), "MCP server dict is not running")
	assert.Contains(t, err.Error(), "did not answer within 500ms")
	assert.Equal(t, 1, f.failureCount())
	// A loaded machine may not have let the child write its pid yet.
	for _, pid := range f.pids(t) {
		assert.False(t, processAlive(pid), "the silent server was killed")
	}
}

func TestMCPClientCallTimeout(t *testing.T) {
	// The timeout bounds the start too: 1.5 s lets a slow start (a test
	// binary under Wine takes most of a second) through, and the tool
	// takes 5 s.
	f := newMCPFixture(t, "dict", 1500*time.Millisecond)
	d := f.dispatcher(t)
	start := time.Now()
	res := d.Call(context.Background(), "mcp__dict__slow", `{}`)
	assert.Less(t, time.Since(start), 4*time.Second)
	code, msg := errorCode(t, res.Envelope)
	assert.Equal(t, CodeFailed, code)
	assert.Contains(t, msg, "did not answer tools/call slow within 1.5s")

	res = d.Call(context.Background(), "mcp__dict__define", `{"word":"tide"}`)
	require.True(t, res.Envelope.OK, "%v", res.Envelope.Errors)
	assert.Len(t, f.pids(t), 1, "a slow tool is not a dead server")
}

func TestMCPClientCallerCancels(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	d := f.dispatcher(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res := d.Call(ctx, "mcp__dict__slow", `{}`)
	code, msg := errorCode(t, res.Envelope)
	assert.Equal(t, toolloop.CodeToolFailed, code)
	assert.Contains(t, msg, "cancelled")
	assert.Zero(t, f.failureCount())
}

func TestMCPClientCloseStopsTheServer(t *testing.T) {
	old := mcpStopGrace
	mcpStopGrace = 300 * time.Millisecond
	t.Cleanup(func() { mcpStopGrace = old })
	for _, mode := range []string{"dict", "stubborn"} {
		t.Run(mode, func(t *testing.T) {
			f := newMCPFixture(t, mode, 5*time.Second)
			d := f.dispatcher(t)
			pids := f.pids(t)
			require.Len(t, pids, 1)
			require.True(t, processAlive(pids[0]))

			require.NoError(t, f.pool.Close())
			assert.False(t, processAlive(pids[0]), "the child is gone after Close")
			require.NoError(t, f.pool.Close(), "Close twice is fine")

			res := d.Call(context.Background(), "mcp__dict__define", `{"word":"tide"}`)
			code, msg := errorCode(t, res.Envelope)
			assert.Equal(t, CodeFailed, code)
			assert.Contains(t, msg, "shutting down")
			assert.Len(t, f.pids(t), 1, "no restart after Close")
			assert.Zero(t, f.failureCount(), "closing is not a failure")
		})
	}
}

func TestMCPClientConcurrentFirstUse(t *testing.T) {
	f := newMCPFixture(t, "dict", 5*time.Second)
	tools, err := f.pool.Tools(context.Background(), "dict")
	require.NoError(t, err)
	reg, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
	d := toolloop.NewDispatcher(reg, toolloop.Limits{})
	var wg sync.WaitGroup
	results := make([]toolloop.CallResult, 8)
	for i := range results {
		wg.Go(func() {
			if i%2 == 0 {
				_, _ = f.pool.Names(context.Background(), "dict")
			}
			results[i] = d.Call(context.Background(), "mcp__dict__define", fmt.Sprintf(`{"word":"w%d"}`, i))
		})
	}
	wg.Wait()
	for i, res := range results {
		assert.True(t, res.Envelope.OK, "%d: %v", i, res.Envelope.Errors)
	}
	assert.Len(t, f.pids(t), 1)
}

func TestMCPClientStreamableHTTP(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "web-dict", Version: "v0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "define", Description: "Define a word.", InputSchema: defineSchema},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "from the web"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(handler)
	defer ts.Close()

	var mu sync.Mutex
	var failures []string
	pool := NewClients(map[string]ServerConfig{"web": {URL: ts.URL, Timeout: 2 * time.Second}}, ClientOptions{
		OnFailure: func(server string, err error) {
			mu.Lock()
			defer mu.Unlock()
			failures = append(failures, server+": "+err.Error())
		},
	})
	defer func() { require.NoError(t, pool.Close()) }()

	tools, err := pool.Tools(context.Background(), "web")
	require.NoError(t, err)
	require.Len(t, tools, 1)
	assert.Equal(t, "mcp__web__define", tools[0].Name)
	reg, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
	d := toolloop.NewDispatcher(reg, toolloop.Limits{})

	res := d.Call(context.Background(), "mcp__web__define", `{"word":"tide"}`)
	require.True(t, res.Envelope.OK, "%v", res.Envelope.Errors)
	assert.JSONEq(t, `{"ok":true,"data":{"content":"from the web"},"warnings":[],"errors":[]}`, res.JSON)

	ts.Close()
	start := time.Now()
	res = d.Call(context.Background(), "mcp__web__define", `{"word":"tide"}`)
	assert.Less(t, time.Since(start), 3*time.Second)
	code, msg := errorCode(t, res.Envelope)
	assert.Equal(t, CodeFailed, code)
	assert.Contains(t, msg, "MCP server web")
	res = d.Call(context.Background(), "mcp__web__define", `{"word":"tide"}`)
	code, msg = errorCode(t, res.Envelope)
	assert.Equal(t, CodeFailed, code)
	assert.Contains(t, msg, "MCP server web is not running")
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, failures, 1, "one report per failure episode: %v", failures)
}

func TestExpandEnvRefs(t *testing.T) {
	t.Setenv("QUIRE_TEST_KEY", "s3cret")
	got, missing := expandEnvRefs("Bearer ${QUIRE_TEST_KEY} $HOME ${QUIRE_TEST_UNSET_VAR}!")
	assert.Equal(t, "Bearer s3cret $HOME !", got, "only ${VAR} is expanded")
	assert.Equal(t, []string{"QUIRE_TEST_UNSET_VAR"}, missing)
}

func TestSanitizeMCPToolName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"define", "define"},
		{"get-weather", "get_weather"},
		{"lookUp.Synonyms", "look_up_synonyms"},
		{"HTTPGet", "httpget"},
		{"v2Search", "v2_search"},
		{"__x__", "x"},
		{"a  b", "a_b"},
		{"辞書", ""},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sanitizeMCPToolName(tt.in), tt.in)
	}
}

func TestMCPToolNamesStayWithinLimits(t *testing.T) {
	r := &mcpRemote{pool: NewClients(nil, ClientOptions{}), cfg: ServerConfig{Name: strings.Repeat("s", MaxServerName)}}
	long := strings.Repeat("x", 80)
	empty := map[string]any{"type": "object"}
	tools := r.adaptTools([]*mcp.Tool{
		{Name: long, InputSchema: empty},
		{Name: long + "y", InputSchema: empty},
		{Name: "辞書", InputSchema: empty},
		{Name: "tuple", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"p": "not a schema"}}},
		{Name: "noType", InputSchema: map[string]any{"properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q", "ghost"}}},
	})
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		assert.Regexp(t, toolloop.ToolNamePattern, tool.Name)
	}
	require.Len(t, names, 3, "the unusable name and schema are skipped: %v", names)
	assert.NotEqual(t, names[0], names[1], "a collision after clipping is renamed")
	assert.True(t, strings.HasSuffix(names[1], "_2"), names[1])
	assert.Equal(t, "object", tools[2].Parameters["type"])
	assert.Equal(t, []any{"q"}, tools[2].Parameters["required"])
	_, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
}

func TestMCPContentText(t *testing.T) {
	text, warnings := mcpContentText([]mcp.Content{
		&mcp.TextContent{Text: "one"},
		&mcp.ImageContent{MIMEType: "image/png", Data: []byte{1, 2, 3}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.txt", Text: "two"}},
		&mcp.ResourceLink{Name: "notes", URI: "file:///notes"},
	})
	assert.Equal(t, "one\n[image image/png, 3 bytes, not shown]\ntwo\n[resource notes: file:///notes]", text)
	assert.Len(t, warnings, 1)
}
