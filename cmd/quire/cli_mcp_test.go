package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

// asQuire, set in the environment, makes the test binary run quire's main
// instead of the tests, so a test can start the real command as a
// subprocess without building it.
const asQuire = "QUIRE_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asQuire) == "1" {
		main()
		os.Exit(0)
	}
	// The tests get a home, config and cache folder of their own on every
	// system (codex/testhome); the child above inherits them.
	os.Exit(testhome.Run(m))
}

// quireCommand is `quire args...` as a subprocess, its cache in a
// temporary folder.
func quireCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cache := t.TempDir()
	cmd.Env = append(os.Environ(), asQuire+"=1", "XDG_CACHE_HOME="+cache, "LOCALAPPDATA="+cache)
	return cmd
}

// envelopeOf decodes the envelope a tool call answered with.
func envelopeOf(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is text, got %T", res.Content[0])
	var env map[string]any
	require.NoError(t, json.Unmarshal([]byte(text.Text), &env), text.Text)
	return env
}

func TestMCPServesTheSampleBook(t *testing.T) {
	book, _ := sampleProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	cmd := quireCommand(t, "mcp", "--project", book)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "quire-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	closed := false
	defer func() {
		if !closed {
			_ = cs.Close()
		}
	}()

	init := cs.InitializeResult()
	require.NotNil(t, init)
	assert.Equal(t, "quire", init.ServerInfo.Name)
	assert.NotEmpty(t, init.ServerInfo.Version)

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	names := make([]string, 0, len(tools.Tools))
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		assert.NotNil(t, tool.InputSchema, tool.Name)
	}
	assert.ElementsMatch(t, []string{
		"get_manuscript_context", "get_character_context", "get_location_context",
		"get_organization_context", "get_item_context", "get_concept_context",
		"get_event_context", "get_style_context", "list_codex_entries", "search_codex", "get_dialogue", "get_outline",
		"propose_codex_update", "propose_codex_create", "propose_character_update",
	}, names)

	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		check func(t *testing.T, data map[string]any)
	}{
		{
			name: "character", tool: "get_character_context", args: map[string]any{"name": "Teodora Quill"},
			check: func(t *testing.T, data map[string]any) {
				assert.Equal(t, "Teodora Quill", data["name"])
				assert.Equal(t, "codex/characters/teodora-quill/index.md", data["relativePath"])
				assert.NotEmpty(t, data["excerpt"])
			},
		},
		{
			name: "first chapter", tool: "get_manuscript_context", args: map[string]any{"ref": "1"},
			check: func(t *testing.T, data map[string]any) {
				units, _ := data["units"].([]any)
				require.Len(t, units, 1)
				unit := units[0].(map[string]any)
				assert.Equal(t, "manuscript/01-thirteen-strokes.md", unit["path"])
				assert.NotEmpty(t, unit["text"])
			},
		},
		{
			name: "a character's dialogue", tool: "get_dialogue", args: map[string]any{"name": "Moss", "to": "1"},
			check: func(t *testing.T, data map[string]any) {
				assert.Equal(t, "Moss Kettering", data["character"].(map[string]any)["name"])
				chapters, _ := data["chapters"].([]any)
				require.Len(t, chapters, 1)
				ch := chapters[0].(map[string]any)
				assert.Equal(t, "manuscript/01-thirteen-strokes.md", ch["path"])
				assert.GreaterOrEqual(t, ch["lines"], 3.0, "his tagged lines at least")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			require.NoError(t, err)
			env := envelopeOf(t, res)
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			assert.False(t, res.IsError)
			tt.check(t, env["data"].(map[string]any))
		})
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_codex", Arguments: map[string]any{"query": 3}})
	require.NoError(t, err, "a bad call is a tool error, not a broken session")
	assert.True(t, res.IsError)
	env := envelopeOf(t, res)
	assert.Equal(t, false, env["ok"])
	errs, _ := env["errors"].([]any)
	require.Len(t, errs, 1)
	assert.Equal(t, "INVALID_ARGUMENTS", errs[0].(map[string]any)["code"])

	// The server follows the book: a chapter and an entry edited on disk
	// are read as they are now.
	chapter := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")
	require.NoError(t, os.WriteFile(chapter, []byte("# Thirteen Strokes\n\nREWRITTEN-WHILE-SERVING.\n"), 0o644))
	entry := filepath.Join(book, "codex", "characters", "moss-kettering.md")
	text, err := os.ReadFile(entry)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(entry, []byte(strings.Replace(string(text), "# Moss Kettering", "# Moss Kettering\n\nNEW-CANON-WHILE-SERVING.", 1)), 0o644))
	call := func(tool string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		require.NoError(t, err)
		raw, err := json.Marshal(envelopeOf(t, res))
		require.NoError(t, err)
		return string(raw)
	}
	require.Eventually(t, func() bool {
		return strings.Contains(call("get_manuscript_context", map[string]any{"ref": "1"}), "REWRITTEN-WHILE-SERVING")
	}, 10*time.Second, 50*time.Millisecond, "the chapter as it is now")
	require.Eventually(t, func() bool {
		return strings.Contains(call("search_codex", map[string]any{"query": "NEW-CANON-WHILE-SERVING"}), "Moss Kettering")
	}, 10*time.Second, 50*time.Millisecond, "the canon as it is now")

	// Closing the client closes the server's stdin: it must exit, cleanly.
	closed = true
	require.NoError(t, cs.Close(), "quire mcp exits with status 0; stderr: %s", stderr.String())
	require.NotNil(t, cmd.ProcessState)
	assert.True(t, cmd.ProcessState.Success())
	assert.Empty(t, stderr.String(), "nothing is logged without -v")
}

func TestMCPBrokenProject(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-book")
	cmd := quireCommand(t, "mcp", "--project", missing)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "quire mcp fails: %v", err)
	assert.NotZero(t, exit.ExitCode())
	assert.Contains(t, stderr.String(), "no-such-book")
	assert.Contains(t, stderr.String(), "does not exist")
	assert.Empty(t, stdout.String(), "stdout carries MCP only")
}

// TestMCPInProcessEndsAtEOF runs the command in-process on an empty stdin:
// a client that connects and leaves ends the server without an error.
func TestMCPInProcessEndsAtEOF(t *testing.T) {
	book, cache := sampleProject(t)
	stdout, stderr, err := run(t, "mcp", "--project", book, cache)
	require.NoError(t, err, stderr)
	assert.Empty(t, stdout)
}

// TestMCPAnswersRequestsInFlightAtEOF: a client that sends its calls and
// closes stdin at once still gets every answer.
func TestMCPAnswersRequestsInFlightAtEOF(t *testing.T) {
	book, cache := sampleProject(t)
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n")
	const calls = 20
	for i := 1; i <= calls; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_codex","arguments":{"query":"harbor %d"}}}`+"\n", i, i)
	}
	var out, errOut bytes.Buffer
	cmd := newRootCommand(strings.NewReader(in.String()), &out, &errOut)
	cmd.SetArgs([]string{"mcp", "--project", book, cache})
	require.NoError(t, cmd.ExecuteContext(context.Background()), errOut.String())
	answered := map[int]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		if m.ID != nil && len(m.Result) > 0 {
			answered[*m.ID] = true
		}
	}
	for i := 0; i <= calls; i++ {
		assert.True(t, answered[i], "request %d answered", i)
	}
}
