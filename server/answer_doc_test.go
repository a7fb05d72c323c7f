package server

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// showDocClient is a client that can open documents the server shows it
// (window/showDocument), as Helix, eglot and Zed can.
func showDocClient(t *testing.T, root string, showDocument bool) *wireClient {
	t.Setenv("OPENAI_API_KEY", "")
	c := startWire(t, Options{})
	c.root = root
	caps := protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}}
	if showDocument {
		caps.Window.ShowDocument = &protocol.ShowDocumentClientCapabilities{Support: true}
	}
	m := c.call("init", protocol.MethodInitialize, map[string]any{
		"rootUri":          pathURI(root),
		"workspaceFolders": []protocol.WorkspaceFolder{{URI: string(pathURI(root)), Name: "book"}},
		"capabilities":     caps,
	})
	require.Nil(t, m.Error, "initialize: %s", m)
	c.notify(protocol.MethodInitialized, map[string]any{})
	return c
}

func codeActionTitles(t *testing.T, c *wireClient, id any, uri protocol.DocumentURI) []string {
	t.Helper()
	m := c.call(id, protocol.MethodTextDocumentCodeAction, map[string]any{
		"textDocument": map[string]any{"uri": uri}, "range": protocol.Range{}, "context": map[string]any{"diagnostics": []any{}}})
	require.Nil(t, m.Error, "%s", m)
	var actions []codeAction
	require.NoError(t, json.Unmarshal(m.Result, &actions))
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	return titles
}

func TestAskCommandShowsTheAnswerAsADocument(t *testing.T) {
	f := newFakeLLM(t,
		callStep(t, [2]string{"propose_codex_update", `{"entryType":"character","name":"Mara Vell","changeSummary":"allies","targetSection":"Allies","proposedMarkdown":"The dockhands."}`}),
		answerStep(t, "Mara needs **allies**; I proposed some."))
	c := showDocClient(t, advisorBook(t, f), true)
	m := c.call(1, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.ask",
		"arguments": []any{map[string]any{"persona": "continuity-editor", "message": "Who helps Mara?"}}})
	r := decodeAsk(t, m)
	require.Len(t, r.Proposals, 1)

	var shown []string
	for _, h := range c.held {
		if h.Method == "window/showDocument" {
			var p struct {
				URI       protocol.DocumentURI `json:"uri"`
				TakeFocus bool                 `json:"takeFocus"`
			}
			require.NoError(t, json.Unmarshal(h.Params, &p))
			assert.True(t, p.TakeFocus)
			shown = append(shown, string(p.URI))
		}
	}
	require.Len(t, shown, 1)
	path, ok := uriPath(protocol.DocumentURI(shown[0]))
	require.True(t, ok)
	assert.False(t, strings.HasPrefix(path, c.root), "the answer is not written in the book")
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(doc)
	for _, want := range []string{"# Continuity Editor", "> Who helps Mara?", "Mara needs **allies**; I proposed some.",
		"### update Mara Vell: allies", "<!-- quire-proposal: " + r.Proposals[0] + " -->", "```diff\n--- a/codex/characters/mara-vell.md", "+The dockhands."} {
		assert.Contains(t, text, want)
	}

	apply := "Apply proposal: update Mara Vell (allies)"
	assert.Contains(t, codeActionTitles(t, c, 2, protocol.DocumentURI(shown[0])), apply, "the answer document offers its proposals")
	assert.Contains(t, codeActionTitles(t, c, 3, c.uri("codex/characters/mara-vell.md")), apply, "so does the file it edits")
	assert.NotContains(t, codeActionTitles(t, c, 4, c.uri("codex/characters/ilse-dorn.md")), apply)

	// Discarded, it is offered nowhere.
	m = c.call(5, methodDiscard, map[string]any{"id": r.Proposals[0]})
	require.Nil(t, m.Error)
	assert.NotContains(t, codeActionTitles(t, c, 6, protocol.DocumentURI(shown[0])), apply)
}

func TestAskRequestShowsNoDocument(t *testing.T) {
	for _, tt := range []struct {
		name         string
		showDocument bool
		method       string
	}{
		{name: "client without showDocument", showDocument: false, method: protocol.MethodWorkspaceExecuteCommand},
		{name: "quire/ask request (a plugin's chat)", showDocument: true, method: methodAsk},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, answerStep(t, "Fine."))
			c := showDocClient(t, advisorBook(t, f), tt.showDocument)
			args := map[string]any{"message": "Hello?"}
			var params any = args
			if tt.method == protocol.MethodWorkspaceExecuteCommand {
				params = map[string]any{"command": "quire.ask", "arguments": []any{args}}
			}
			decodeAsk(t, c.call(1, tt.method, params))
			for _, h := range c.held {
				assert.NotEqual(t, "window/showDocument", h.Method)
			}
		})
	}
}
