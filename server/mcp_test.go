package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/server/wire"
)

// mcpServerEnv makes the test binary an MCP stdio server (TestMain), so a
// book's quire.yaml can name it as a command.
const mcpServerEnv = "QUIRE_SERVER_TEST_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) != "" {
		os.Exit(runGlossaryServer())
	}
	// The tests get a home, config and cache folder of their own on every
	// system (codex/testhome); the child above inherits them.
	os.Exit(testhome.Run(m))
}

// runGlossaryServer serves one tool, glossary {term}, until stdin closes.
func runGlossaryServer() int {
	srv := mcp.NewServer(&mcp.Implementation{Name: "glossary", Version: "v0"}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{"term": map[string]any{"type": "string"}},
		"required": []any{"term"}}
	srv.AddTool(&mcp.Tool{Name: "glossary", Description: "Define a harbor term.", InputSchema: schema},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Term string `json:"term"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Term + " means GLOSSARY-ANSWER"}}}, nil
		})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "glossary:", err)
		return 1
	}
	return 0
}

// mcpBook is the test book with its provider at f, an MCP server built
// from this test binary, and the writing coach allowed its tools.
func mcpBook(t *testing.T, f *fakeLLM, command string) string {
	t.Helper()
	root := advisorBook(t, f)
	yaml, err := os.ReadFile(root + "/quire.yaml")
	require.NoError(t, err)
	cfg := fmt.Sprintf(`mcp_servers:
  glossary:
    command: %q
    env: {%s: "1"}
personas:
  writing-coach:
    tools: {groups: [manuscript_read], mcp: [glossary]}
`, command, mcpServerEnv)
	require.NoError(t, os.WriteFile(root+"/quire.yaml", append(yaml, cfg...), 0o644))
	// The book runs a command: these tests are about the server once the
	// writer trusts the book (trust_test.go is about trust).
	testhome.ConfigDir(t)
	store, err := trust.Default()
	require.NoError(t, err)
	reach, err := endpoint.ReadBookReach(root)
	require.NoError(t, err)
	require.NoError(t, store.Grant(root, reach.Wants().Hash(), nil))
	return root
}

// toolNamesSent are the tool names of a recorded chat request.
func toolNamesSent(req map[string]any) []string {
	var out []string
	tools, _ := req["tools"].([]any)
	for _, tool := range tools {
		out = append(out, tool.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return out
}

func TestAPersonaCallsAnMCPServersTool(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	f := newFakeLLM(t,
		callStep(t, [2]string{"mcp__glossary__glossary", `{"term":"slack water"}`}),
		answerStep(t, "Slack water is the still tide."),
		// The developmental editor was not given the server: its call is
		// refused without starting it.
		callStep(t, [2]string{"mcp__glossary__glossary", `{"term":"ebb"}`}),
		answerStep(t, "No glossary for me."))
	c := advisorClient(t, mcpBook(t, f, exe), nil)

	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "What is slack water?"}))
	assert.Equal(t, "Slack water is the still tide.", r.Answer)
	reqs := f.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"get_manuscript_context", "mcp__glossary__glossary"}, toolNamesSent(reqs[0]))
	sent, err := json.Marshal(reqs[1]["messages"])
	require.NoError(t, err)
	assert.Contains(t, string(sent), "slack water means GLOSSARY-ANSWER", "the server's answer went back to the model")

	r = decodeAsk(t, c.call(2, wire.MethodAsk, map[string]any{"persona": "developmental-editor", "message": "And the ebb?"}))
	assert.Equal(t, "No glossary for me.", r.Answer)
	reqs = f.requests()
	require.Len(t, reqs, 4)
	assert.NotContains(t, toolNamesSent(reqs[2]), "mcp__glossary__glossary")
	sent, err = json.Marshal(reqs[3]["messages"])
	require.NoError(t, err)
	assert.Contains(t, string(sent), "TOOL_DENIED", "the server's tools are not this persona's to call")
}

func TestAnMCPServerThatCannotStartIsReported(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "I answer without it."))
	c := advisorClient(t, mcpBook(t, f, "/no/such/glossary-server"), nil)
	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "What is slack water?"}))
	assert.Equal(t, "I answer without it.", r.Answer)
	assert.Equal(t, []string{"get_manuscript_context"}, toolNamesSent(f.requests()[0]), "the persona keeps its other tools")
	var shown []string
	for _, raw := range c.heldNotes(protocol.MethodWindowShowMessage) {
		var p protocol.ShowMessageParams
		require.NoError(t, json.Unmarshal(raw, &p))
		shown = append(shown, p.Message)
	}
	assert.Contains(t, strings.Join(shown, "\n"), "MCP server glossary")
}
