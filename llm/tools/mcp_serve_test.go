package tools

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/toolloop"
)

// mcpSession serves the advisor tools of a test book over the SDK's
// in-memory transports and returns a connected client session, the
// proposals store and the book's folder.
func mcpSession(t *testing.T) (*mcpsdk.ClientSession, *proposal.Store, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	b, _ := openBook(t, bookFiles())
	proposals := proposal.NewStore(0)
	reg, err := toolloop.NewRegistry(append(Read(b), Propose(b, proposals)...)...)
	require.NoError(t, err)

	srv := mcp.NewServer(reg, toolloop.Limits{}, mcp.ServerOptions{Version: "test", ProposalDiff: proposalDiff(proposals)})
	serverT, clientT := mcpsdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverT, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })

	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test-client", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs, proposals, b.Store.Root()
}

// callMCP calls a tool and decodes the envelope from the result's text.
func callMCP(t *testing.T, cs *mcpsdk.ClientSession, name string, args any) (*mcpsdk.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*mcpsdk.TextContent)
	require.True(t, ok, "content is text, got %T", res.Content[0])
	var env map[string]any
	require.NoError(t, json.Unmarshal([]byte(text.Text), &env), text.Text)
	for _, key := range []string{"ok", "data", "warnings", "errors"} {
		assert.Contains(t, env, key, "the envelope has %s", key)
	}
	return res, env
}

func TestMCPServerInitializes(t *testing.T) {
	cs, _, _ := mcpSession(t)
	init := cs.InitializeResult()
	require.NotNil(t, init)
	assert.Equal(t, mcp.ImplementationName, init.ServerInfo.Name)
	assert.Equal(t, "test", init.ServerInfo.Version)
	assert.Contains(t, init.Instructions, "review-only")
	require.NotNil(t, init.Capabilities.Tools)
}

func TestMCPServerListsEveryTool(t *testing.T) {
	cs, _, _ := mcpSession(t)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)

	b, _ := openBook(t, bookFiles())
	want := append(Read(b), Propose(b, nil)...)
	require.Len(t, want, 15)
	got := map[string]*mcpsdk.Tool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
	}
	require.Len(t, got, len(want))
	for _, w := range want {
		t.Run(w.Name, func(t *testing.T) {
			tool, ok := got[w.Name]
			require.True(t, ok, "tool %s is served", w.Name)
			assert.True(t, strings.HasPrefix(tool.Description, w.Description), "description kept")
			// The schema arrives exactly as the model sees it.
			wantSchema, err := json.Marshal(w.Parameters)
			require.NoError(t, err)
			gotSchema, err := json.Marshal(tool.InputSchema)
			require.NoError(t, err)
			assert.JSONEq(t, string(wantSchema), string(gotSchema))

			require.NotNil(t, tool.Annotations)
			if mcp.IsProposeTool(w.Name) {
				assert.False(t, tool.Annotations.ReadOnlyHint)
				require.NotNil(t, tool.Annotations.DestructiveHint)
				assert.False(t, *tool.Annotations.DestructiveHint)
				assert.Contains(t, strings.ToLower(tool.Description), "nothing is")
			} else {
				assert.True(t, tool.Annotations.ReadOnlyHint)
			}
		})
	}
}

func TestMCPServerCalls(t *testing.T) {
	cs, _, _ := mcpSession(t)
	tests := []struct {
		name     string
		tool     string
		args     any
		wantOK   bool
		wantCode string
		check    func(t *testing.T, data map[string]any)
	}{
		{
			name: "character by name", tool: "get_character_context", args: map[string]any{"name": "Mara Vell"}, wantOK: true,
			check: func(t *testing.T, data map[string]any) {
				assert.Equal(t, "Mara Vell", data["name"])
				assert.Equal(t, "codex/characters/mara-vell/index.md", data["relativePath"])
				assert.Contains(t, data["soulExcerpt"], "still water")
			},
		},
		{
			name: "search", tool: "search_codex", args: map[string]any{"query": "lanterns"}, wantOK: true,
			check: func(t *testing.T, data map[string]any) {
				results := asSlice(data["results"])
				require.NotEmpty(t, results)
				assert.Equal(t, "Quay of Lanterns", results[0].(map[string]any)["name"])
			},
		},
		{
			name: "manuscript chapter", tool: "get_manuscript_context", args: map[string]any{"ref": "1"}, wantOK: true,
			check: func(t *testing.T, data map[string]any) {
				units := asSlice(data["units"])
				require.Len(t, units, 1)
				assert.Contains(t, units[0].(map[string]any)["text"], "Mara Vell walked the quay")
			},
		},
		{name: "missing required argument", tool: "get_character_context", args: map[string]any{}, wantCode: toolloop.CodeInvalidArguments},
		{name: "argument of the wrong type", tool: "search_codex", args: map[string]any{"query": 7}, wantCode: toolloop.CodeInvalidArguments},
		{name: "unknown argument", tool: "get_character_context", args: map[string]any{"name": "Mara", "path": "/etc"}, wantCode: toolloop.CodeInvalidArguments},
		{name: "no arguments at all", tool: "search_codex", args: nil, wantCode: toolloop.CodeInvalidArguments},
		{name: "not found", tool: "get_character_context", args: map[string]any{"name": "Zebedee Quill"}, wantCode: toolloop.CodeNotFound},
		{
			name: "arguments over the size guard", tool: "search_codex",
			args: map[string]any{"query": strings.Repeat("tide ", toolloop.DefaultMaxArgumentBytes/5+1)}, wantCode: toolloop.CodeArgumentsTooLarge,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, env := callMCP(t, cs, tt.tool, tt.args)
			if tt.wantCode != "" {
				assert.True(t, res.IsError, "an error envelope is a tool error")
				assert.Equal(t, false, env["ok"])
				code, msg, _ := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			assert.False(t, res.IsError)
			tt.check(t, env["data"].(map[string]any))
		})
	}
}

func TestMCPServerUnknownTool(t *testing.T) {
	cs, _, _ := mcpSession(t)
	_, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "x"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "write_file")
}

func TestMCPServerProposesWithoutWriting(t *testing.T) {
	cs, proposals, root := mcpSession(t)
	before := snapshotFiles(t, root)

	res, env := callMCP(t, cs, "propose_codex_update", map[string]any{
		"entryType": "character", "name": "Mara Vell", "changeSummary": "She smuggles salt now.",
		"targetSection": "Trade", "proposedMarkdown": "Mara runs salt through the fog.",
	})
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	assert.False(t, res.IsError)
	data := env["data"].(map[string]any)
	assert.NotEmpty(t, data["proposalId"])
	assert.Equal(t, "codex/characters/mara-vell/index.md", data["path"])
	diff, _ := data["diff"].(string)
	assert.Contains(t, diff, "+Mara runs salt through the fog.")
	assert.Contains(t, diff, "+## Trade")
	assert.Contains(t, diff, "codex/characters/mara-vell/index.md")

	require.Equal(t, 1, proposals.Len(), "the proposal is kept for review")
	assert.Equal(t, before, snapshotFiles(t, root), "no file of the book changed")
}

// snapshotFiles reads every file under root.
func snapshotFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[path] = string(data)
		return nil
	})
	require.NoError(t, err)
	return out
}

func TestWithProposalDiff(t *testing.T) {
	store := proposal.NewStore(0)
	p := store.Add(proposal.Proposal{Tool: "propose_codex_update", Path: "codex/a.md", Diff: "--- a/codex/a.md\n+++ b/codex/a.md\n@@ -1 +1,40 @@\n-<old>\n" + strings.Repeat("+<new> & more\n", 40)})
	env := func(id string) string {
		text, err := toolloop.MarshalEnvelope(toolloop.EnvelopeOf(map[string]any{"proposalId": id, "path": "codex/a.md"}, []string{"w1"}, nil))
		require.NoError(t, err)
		return text
	}
	tests := []struct {
		name     string
		in       string
		max      int
		wantDiff bool
		wantWarn string
	}{
		{name: "diff added", in: env(p.ID), max: toolloop.DefaultMaxOutputBytes, wantDiff: true},
		{name: "diff too large for the output limit", in: env(p.ID), max: len(env(p.ID)) + 300, wantWarn: "too large"},
		{name: "unknown proposal left alone", in: env("p-000000000000"), max: toolloop.DefaultMaxOutputBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mcp.WithProposalDiff(tt.in, proposalDiff(store), tt.max)
			require.LessOrEqual(t, len(out), tt.max)
			assert.True(t, strings.HasPrefix(out, `{"ok":true,"data":`), out)
			assert.NotContains(t, out, `\u003c`, "no HTML escaping")
			var got struct {
				OK       bool                 `json:"ok"`
				Data     map[string]string    `json:"data"`
				Warnings []string             `json:"warnings"`
				Errors   []toolloop.ToolError `json:"errors"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &got), out)
			assert.True(t, got.OK)
			assert.Equal(t, "codex/a.md", got.Data["path"])
			assert.NotNil(t, got.Errors)
			if tt.wantDiff {
				assert.Equal(t, p.Diff, got.Data["diff"])
			} else {
				assert.NotContains(t, got.Data, "diff")
			}
			assert.Equal(t, "w1", got.Warnings[0])
			if tt.wantWarn != "" {
				require.Len(t, got.Warnings, 2)
				assert.Contains(t, got.Warnings[1], tt.wantWarn)
			} else {
				assert.Len(t, got.Warnings, 1)
			}
		})
	}
}

// proposalDiff finds a proposal's diff in store, as quire mcp does.
func proposalDiff(store *proposal.Store) func(id string) (string, bool) {
	return func(id string) (string, bool) {
		p, ok := store.Get(id)
		if !ok {
			return "", false
		}
		return p.Diff, true
	}
}
