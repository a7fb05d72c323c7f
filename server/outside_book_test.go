package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/server/wire"
)

// secretWord is in the outside file only: wherever it shows, the file
// was read as part of the book.
const secretWord = "SALTPETER-4711"

func TestAChapterLinkedOutOfTheBookIsLeftOut(t *testing.T) {
	outside := t.TempDir()
	secretText := "# Secret\n\nMara Vell hid the key: " + secretWord + ".\n\nIlse Dorn never knew.\n"
	secret := filepath.Join(outside, "secret.md")
	require.NoError(t, os.WriteFile(secret, []byte(secretText), 0o600))
	f := newFakeLLM(t,
		callStep(t,
			[2]string{"get_manuscript_context", `{"ref":"current"}`},
			[2]string{"get_manuscript_context", `{"ref":"manuscript/99-link.md"}`},
			[2]string{"get_manuscript_context", `{"ref":"99"}`}),
		answerStep(t, "Nothing secret here."))
	root := writeProject(t, bookFiles)
	const rel = "manuscript/99-link.md"
	linktest.Symlink(t, secret, filepath.Join(root, filepath.FromSlash(rel)))
	c := advisorClient(t, root, map[string]any{
		"provider": map[string]any{"baseUrl": f.baseURL(), "model": "client-model", "tools": true},
	})
	link := c.uri(rel)
	// The editor reads the file through the link and sends its text.
	c.open(link, secretText)
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": link, "version": 2},
		"contentChanges": []map[string]any{{"text": secretText + "Mara again.\n"}},
	})

	// Hover finds no name in it: it is no document of the book.
	assert.Nil(t, c.hover(1, link, 2, 1), "hover on Mara in the linked file")
	assert.NotNil(t, c.hover(2, c.uri("manuscript/01-harbor.md"), 2, 1), "hover in the book still works")

	// The writer is told why, on the document.
	var warned []protocol.Diagnostic
	for _, raw := range c.heldNotes(protocol.MethodTextDocumentPublishDiagnostics) {
		var p protocol.PublishDiagnosticsParams
		require.NoError(t, json.Unmarshal(raw, &p))
		if p.URI == link {
			warned = p.Diagnostics
		}
	}
	require.Len(t, warned, 1, "the linked document's diagnostics")
	assert.Equal(t, codeOutsideBook, warned[0].Code)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, warned[0].Severity)
	assert.Contains(t, warned[0].Message, "outside the book's folder")
	assert.Contains(t, warned[0].Message, "move the file into the book's folder")

	// quire/manuscriptContext neither takes it as the current document
	// nor reads it by path or number.
	for i, args := range []map[string]any{
		{"uri": link, "ref": "current"},
		{"uri": link, "ref": rel},
		{"ref": rel},
		{"ref": "99"},
		{"refs": []string{"1", "2", "3"}},
	} {
		m := c.call(10+i, wire.MethodManuscriptContext, args)
		assert.NotContains(t, string(m.Result), secretWord, "manuscriptContext %v", args)
		if m.Error != nil {
			assert.NotContains(t, m.Error.Message, secretWord, "manuscriptContext %v", args)
		}
	}

	// The chapters are the book's two.
	m := c.call(20, wire.MethodStatus, map[string]any{})
	require.Nil(t, m.Error, "status: %s", m)
	assert.Contains(t, string(m.Result), `"chapters":2`)

	// References to Mara list none in it.
	refs := c.call(21, protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     protocol.Position{Line: 2, Character: 1},
		},
		Context: protocol.ReferenceContext{IncludeDeclaration: true},
	})
	require.Nil(t, refs.Error, "references: %s", refs)
	assert.NotContains(t, string(refs.Result), "99-link")

	// Asked from the linked document, the advisor says why it cannot
	// answer there, and the model is not called.
	ask := c.call(30, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "What is in this chapter?", "uri": link})
	require.NotNil(t, ask.Error, "ask from the linked document")
	assert.Contains(t, ask.Error.Message, "99-link.md is left out of the book")
	assert.Contains(t, ask.Error.Message, "Move the file into the book's folder")
	assert.Empty(t, f.requests())

	// Asked about the book, its get_manuscript_context finds none of the
	// linked file's text: not as "current", not by path, not by number.
	ask = c.call(31, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "What is in chapter 99?"})
	require.Nil(t, ask.Error, "ask: %s", ask)
	reqs := f.requests()
	require.Len(t, reqs, 2, "the tool round and the answer")
	sent, err := json.Marshal(reqs)
	require.NoError(t, err)
	assert.NotContains(t, string(sent), secretWord, "what the model was sent")
	assert.NotContains(t, string(sent), "Ilse Dorn never knew")
	assert.False(t, strings.Contains(string(ask.Result), secretWord))

	// quire wrote nothing through the link.
	data, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, secretText, string(data))
}

func TestACodexEntryLinkedOutOfTheBookIsNoCanon(t *testing.T) {
	outside := t.TempDir()
	entry := "---\nname: Orrin Vask\nsummary: " + secretWord + "\n---\n# Orrin Vask\n"
	secret := filepath.Join(outside, "spy.md")
	require.NoError(t, os.WriteFile(secret, []byte(entry), 0o600))
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["manuscript/03-quay.md"] = "# Quay\n\nOrrin Vask waited.\n"
	root := writeProject(t, files)
	const rel = "codex/characters/spy.md"
	linktest.Symlink(t, secret, filepath.Join(root, filepath.FromSlash(rel)))
	c := startServer(t, Options{})
	c.initialize(root)
	c.open(rel, entry)

	// Not canon: the name in the chapter is no one's, and the entry's
	// own text answers nothing.
	assert.Nil(t, c.hoverAt("manuscript/03-quay.md", 2, 2), "hover on the linked entry's name")
	assert.Nil(t, c.hoverAt(rel, 4, 3))
	var found json.RawMessage
	c.call(wire.MethodLookup, map[string]any{"name": "Orrin Vask"}, &found)
	assert.NotContains(t, string(found), secretWord)
	ds := c.waitDiagnostics(c.uri(rel), "the warning on the linked entry", hasCode(codeOutsideBook))
	require.Len(t, ds, 1)
}
