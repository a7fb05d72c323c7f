package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/server/wire"
)

// `quire serve` and `quire stats --json`, two processes on one book and
// one cache folder, give the same numbers, and the words typed in the
// editor land in the history `quire stats` reads.
func TestStatsSameInTheServerAndTheCommandLine(t *testing.T) {
	book, _ := sampleProject(t)
	appendTo(t, filepath.Join(book, "quire.yaml"), "goals:\n  target: 90000\n  deadline: 2999-01-01\n  daily: 500\n")
	env := append(os.Environ(), asQuire+"=1", "XDG_CACHE_HOME="+t.TempDir(), "LOCALAPPDATA="+t.TempDir())
	cli := func() goals.Summary {
		t.Helper()
		cmd := exec.Command(os.Args[0], "stats", "--json")
		cmd.Dir, cmd.Env = book, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var s goals.Summary
		require.NoError(t, json.Unmarshal(out, &s), string(out))
		return s
	}

	template := exec.Command(os.Args[0], "serve")
	template.Dir, template.Env = book, env
	cmd, stream, _, stop, err := startServe(template)
	require.NoError(t, err)
	t.Cleanup(stop)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stream))
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, _ jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	})
	root := protocol.DocumentURI(fileURI(book))
	_, err = conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{
		RootURI: root, WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(root), Name: "book"}},
	}, nil)
	require.NoError(t, err)
	require.NoError(t, conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}))
	serverStats := func() goals.Summary {
		t.Helper()
		var raw json.RawMessage
		_, err := conn.Call(ctx, wire.MethodStats, wire.BookParams{}, &raw)
		require.NoError(t, err)
		var s goals.Summary
		require.NoError(t, json.Unmarshal(raw, &s))
		return s
	}

	fromServer := serverStats()
	require.Len(t, fromServer.Chapters, 5)
	assert.Equal(t, fromServer, cli(), "one book, one day: the same numbers")

	// Typed in the editor and never saved.
	rel := "manuscript/03-slack-water.md"
	uri := protocol.DocumentURI(fileURI(filepath.Join(book, filepath.FromSlash(rel))))
	text, err := os.ReadFile(filepath.Join(book, filepath.FromSlash(rel)))
	require.NoError(t, err)
	require.NoError(t, conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: string(text)}}))
	require.NoError(t, conn.Notify(ctx, protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": string(text) + "\n" + strings.Repeat("gull ", 40) + "\n"}},
	}))
	typed := serverStats()
	assert.Equal(t, 40, typed.Today.Gross)
	assert.Equal(t, fromServer.Words+40, typed.Words)
	_, err = conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	require.NoError(t, err)
	require.NoError(t, conn.Notify(ctx, protocol.MethodExit, nil))
	require.NoError(t, cmd.Wait())

	// The command line reads the saved book: the words typed stay today's
	// work, the net falls back with the text that was not saved.
	after := cli()
	assert.Equal(t, fromServer.Words, after.Words)
	assert.Equal(t, 40, after.Today.Gross)
	assert.Equal(t, 0, after.Today.Net)
}
