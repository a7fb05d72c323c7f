package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// actionNamed lists the code actions at r in rel until one titled title
// appears (the book loads in the background) and returns it.
func actionNamed(t *testing.T, c *wireClient, rel string, r protocol.Range, title string) codeAction {
	t.Helper()
	var found *codeAction
	var seen []string
	require.Eventually(t, func() bool {
		m := c.call("ca", protocol.MethodTextDocumentCodeAction, map[string]any{
			"textDocument": map[string]any{"uri": c.uri(rel)}, "range": r, "context": map[string]any{"diagnostics": []any{}}})
		require.Nil(t, m.Error, "%s", m)
		var actions []codeAction
		require.NoError(t, json.Unmarshal(m.Result, &actions))
		seen = titles(actions)
		for i := range actions {
			if actions[i].Title == title {
				found = &actions[i]
			}
		}
		return found != nil
	}, wireTimeout, 20*time.Millisecond, "no %q among %v", title, seen)
	require.NotNil(t, found.Command)
	return *found
}

// runAction runs a code action's command as the editor would.
func (c *wireClient) runAction(id any, a codeAction) wireMsg {
	c.t.Helper()
	m := c.call(id, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments})
	require.Nil(c.t, m.Error, "%s: %s", a.Title, m)
	return m
}

func TestLookUpCommandHasAVisibleOutcome(t *testing.T) {
	entry := func(root string) string { return filepath.Join(root, "codex", "characters", "ilse-dorn.md") }
	t.Run("no window capabilities: a message", func(t *testing.T) {
		c := bareClient(t, writeProject(t, bookFiles), nil)
		c.runAction(1, actionNamed(t, c, "manuscript/01-harbor.md", span(2, 25, 25), "Look up Ilse Dorn"))
		msgs := c.shown()
		require.Len(t, msgs, 1, "%v", msgs)
		assert.Equal(t, protocol.MessageTypeInfo, msgs[0].Type)
		assert.Equal(t, "Ilse Dorn (character): Harbormistress of Brinmouth.\n\n"+entry(c.root), msgs[0].Message)
	})
	t.Run("showDocument: the entry opens", func(t *testing.T) {
		c := showDocClient(t, writeProject(t, bookFiles), true)
		c.runAction(1, actionNamed(t, c, "manuscript/01-harbor.md", span(2, 25, 25), "Look up Ilse Dorn"))
		c.pendingResponse("none")
		var uris []string
		for _, h := range c.held {
			if h.Method == "window/showDocument" {
				var p struct {
					URI protocol.DocumentURI `json:"uri"`
				}
				require.NoError(t, json.Unmarshal(h.Params, &p))
				uris = append(uris, string(p.URI))
			}
		}
		assert.Equal(t, []string{string(textdoc.PathURI(entry(c.root)))}, uris)
	})
}

// Peek prompt writes the request quire would send as a document, for the
// persona the writer configured.
func TestPeekPromptCommandWritesTheRequestForTheConfiguredPersona(t *testing.T) {
	f := newFakeLLM(t)
	c := bareClient(t, advisorBook(t, f), map[string]any{"persona": "writing-coach"})
	peek := actionNamed(t, c, "manuscript/01-harbor.md", span(2, 0, 21), "Peek prompt")
	c.runAction(1, peek)
	msgs := c.shown()
	require.Len(t, msgs, 1, "%v", msgs)
	assert.Equal(t, protocol.MessageTypeInfo, msgs[0].Type)
	const lead = "The request quire would send to the Writing Coach (nothing was sent) is in "
	require.True(t, strings.HasPrefix(msgs[0].Message, lead), msgs[0].Message)
	path := strings.TrimPrefix(msgs[0].Message, lead)
	assert.False(t, strings.HasPrefix(path, c.root), "not in the book")
	body, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, json.Valid(body))
	assert.Contains(t, string(body), "Writing Coach")
	assert.NotContains(t, string(body), "Developmental Editor")
	assert.Empty(t, f.requests(), "nothing is sent")
}

func TestWhereIsThisEstablishedCommandHasAVisibleOutcome(t *testing.T) {
	c := bareClient(t, writeProject(t, bookFiles), nil)
	// "She keeps a ledger of [[Ilse Dorn]]'s debts." in Mara's entry.
	c.runAction(1, actionNamed(t, c, "codex/characters/mara-vell.md", span(7, 0, 44), "Where is this established?"))
	msgs := c.shown()
	require.Len(t, msgs, 1, "%v", msgs)
	msg := msgs[0].Message
	assert.Contains(t, msg, "manuscript/01-harbor.md:3: Mara's boat slid out. Ilse Dorn watched")
	_, path, ok := strings.Cut(msg, "All passages: ")
	require.True(t, ok, msg)
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "> She keeps a ledger of [[Ilse Dorn]]'s debts.")
	assert.Contains(t, string(doc), "Mara's boat slid out.")
}
