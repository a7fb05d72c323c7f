package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
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
		"rootUri":          textdoc.PathURI(root),
		"workspaceFolders": []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
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
	path, ok := textdoc.URIPath(protocol.DocumentURI(shown[0]))
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
	m = c.call(5, wire.MethodDiscardProposal, map[string]any{"id": r.Proposals[0]})
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
		{name: "quire/ask request (a plugin's chat)", showDocument: true, method: wire.MethodAsk},
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

// bareClient is a client that declares no window capabilities at all, as
// eglot 1.9 does: no showDocument, no work-done progress.
func bareClient(t *testing.T, root string, initOptions any) *wireClient {
	t.Setenv("OPENAI_API_KEY", "")
	c := startWire(t, Options{})
	c.root = root
	m := c.call("init", protocol.MethodInitialize, map[string]any{
		"rootUri":               textdoc.PathURI(root),
		"workspaceFolders":      []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
		"capabilities":          map[string]any{},
		"initializationOptions": initOptions,
	})
	require.Nil(t, m.Error, "initialize: %s", m)
	c.notify(protocol.MethodInitialized, map[string]any{})
	return c
}

// shown are the window/showMessage notifications received so far.
func (c *wireClient) shown() []protocol.ShowMessageParams {
	var out []protocol.ShowMessageParams
	for _, raw := range c.heldNotes(protocol.MethodWindowShowMessage) {
		var m protocol.ShowMessageParams
		require.NoError(c.t, json.Unmarshal(raw, &m))
		out = append(out, m)
	}
	return out
}

// runCommand runs a command with one argument and returns its reply.
func (c *wireClient) runCommand(id any, command string, arg any) wireMsg {
	c.t.Helper()
	return c.call(id, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": command, "arguments": []any{arg}})
}

// fullAnswerPath is the answer document a message names.
func fullAnswerPath(t *testing.T, msg string) string {
	t.Helper()
	_, path, ok := strings.Cut(msg, "Full answer: ")
	require.True(t, ok, "the message names the answer document: %q", msg)
	return strings.TrimSpace(path)
}

func TestAskCommandTellsAClientWithoutWindowCapabilities(t *testing.T) {
	long := strings.Repeat("The tide turns twice in chapter two.\n", 10)
	tests := []struct {
		name, answer, firstLine string
	}{
		{name: "short answer", answer: "Mara's eyes are green.\n\nShe keeps the ledger.",
			firstLine: "Continuity Editor answered: Mara's eyes are green. She keeps the ledger."},
		{name: "long answer, cut", answer: long,
			firstLine: "Continuity Editor answered: " + strings.Repeat("The tide turns twice in chapter two. ", 5) + "The tide turns…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, answerStep(t, tt.answer))
			c := bareClient(t, advisorBook(t, f), nil)
			r := decodeAsk(t, c.runCommand(1, "quire.ask", map[string]any{"persona": "continuity-editor", "message": "Is Mara consistent?"}))
			assert.Equal(t, strings.TrimSpace(tt.answer), r.Answer)

			msgs := c.shown()
			require.Len(t, msgs, 2, "%v", msgs)
			assert.Equal(t, protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: "Asking the Continuity Editor…"}, msgs[0])
			assert.Equal(t, protocol.MessageTypeInfo, msgs[1].Type)
			first, _, _ := strings.Cut(msgs[1].Message, "\n")
			assert.Equal(t, tt.firstLine, first)
			path := fullAnswerPath(t, msgs[1].Message)
			assert.True(t, filepath.IsAbs(path), path)
			assert.False(t, strings.HasPrefix(path, c.root), "the answer is not written in the book")
			doc, err := os.ReadFile(path)
			require.NoError(t, err, "the answer document is written")
			assert.Contains(t, string(doc), "# Continuity Editor")
			assert.Contains(t, string(doc), strings.TrimSpace(tt.answer))
			assert.Empty(t, c.heldNotes("window/showDocument"))
			assert.Empty(t, c.heldNotes(protocol.MethodProgress))
		})
	}
}

// A client with progress hears no "Asking…", and the progress title
// does not start with "quire:" (Helix prefixes the server's name).
func TestAskCommandProgressTitle(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "Fine."))
	c := showDocClient(t, advisorBook(t, f), false)
	decodeAsk(t, c.runCommand(1, "quire.ask", map[string]any{"persona": "continuity-editor", "message": "Hello?"}))
	begin := c.progressOf(`"ask 2"`)
	require.NotEmpty(t, begin)
	assert.Equal(t, "Continuity Editor", begin[0].Title)
	msgs := c.shown()
	require.Len(t, msgs, 1, "only the answer is told: %v", msgs)
	assert.True(t, strings.HasPrefix(msgs[0].Message, "Continuity Editor answered: Fine."), msgs[0].Message)
}

// An advisor action's answer document shows the action's name, not its
// long prompt.
func TestAdvisorActionAnswerShowsTheActionName(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "No slips."))
	c := bareClient(t, advisorBook(t, f), nil)
	var check *codeAction
	require.Eventually(t, func() bool {
		m := c.call("ca", protocol.MethodTextDocumentCodeAction, map[string]any{
			"textDocument": map[string]any{"uri": c.uri("manuscript/01-harbor.md")}, "range": span(4, 2, 2), "context": map[string]any{"diagnostics": []any{}}})
		require.Nil(t, m.Error, "%s", m)
		var actions []codeAction
		require.NoError(t, json.Unmarshal(m.Result, &actions))
		for i := range actions {
			if strings.HasSuffix(actions[i].Title, ": Continuity check") {
				check = &actions[i]
			}
		}
		return check != nil
	}, wireTimeout, 20*time.Millisecond)
	raw, err := json.Marshal(check.Command.Arguments[0])
	require.NoError(t, err)
	var args wire.AskParams
	require.NoError(t, json.Unmarshal(raw, &args))
	assert.Equal(t, "Continuity check", args.Action)
	assert.Greater(t, strings.Count(args.Message, "\n"), 3, "the message is the action's long prompt")

	decodeAsk(t, c.runCommand(1, check.Command.Command, args))
	msgs := c.shown()
	require.NotEmpty(t, msgs)
	doc, err := os.ReadFile(fullAnswerPath(t, msgs[len(msgs)-1].Message))
	require.NoError(t, err)
	assert.Contains(t, string(doc), "> Continuity check\n")
	assert.NotContains(t, string(doc), strings.SplitN(strings.TrimSpace(args.Message), "\n", 2)[0], "the long prompt is not repeated")
}

// TestACutAnswerIsTheModelsTextAndTheDocumentSaysItWasCut: an answer the
// model's output-token limit cut reaches a plugin (quire/ask, and
// quire.ask's result) as the model's text alone, with the cut told in
// the warnings; the answer document, which the writer reads, says it
// under the answer.
func TestACutAnswerIsTheModelsTextAndTheDocumentSaysItWasCut(t *testing.T) {
	// Chat Completions: finish_reason "length" when max_tokens was
	// reached (https://platform.openai.com/docs/api-reference/chat/object).
	cut := func() fakeStep {
		return fakeStep{body: chatBody(t, map[string]any{"role": "assistant", "content": "Mara is older, because"}, "length")}
	}
	f := newFakeLLM(t, cut(), cut())
	c := showDocClient(t, advisorBook(t, f), true)
	for i, method := range []string{wire.MethodAsk, protocol.MethodWorkspaceExecuteCommand} {
		args := map[string]any{"persona": "continuity-editor", "message": "Who is older?"}
		var params any = args
		if method == protocol.MethodWorkspaceExecuteCommand {
			params = map[string]any{"command": "quire.ask", "arguments": []any{args}}
		}
		r := decodeAsk(t, c.call(i+1, method, params))
		assert.Equal(t, "Mara is older, because", r.Answer, "%s: the model's text alone", method)
		require.Len(t, r.Warnings, 1, method)
		assert.Contains(t, r.Warnings[0], "output-token limit")
		assert.Contains(t, r.Warnings[0], "provider.options.max_tokens")
	}

	var shown string
	for _, h := range c.held {
		if h.Method == "window/showDocument" {
			var p struct {
				URI protocol.DocumentURI `json:"uri"`
			}
			require.NoError(t, json.Unmarshal(h.Params, &p))
			shown = string(p.URI)
		}
	}
	require.NotEmpty(t, shown, "quire.ask opened its answer")
	path, ok := textdoc.URIPath(protocol.DocumentURI(shown))
	require.True(t, ok)
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(doc)
	answer := strings.Index(text, "Mara is older, because")
	note := strings.Index(text, "output-token limit")
	require.GreaterOrEqual(t, answer, 0)
	assert.Greater(t, note, answer, "the document tells the cut after the answer:\n%s", text)
}
