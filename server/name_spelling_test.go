package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/wire"
)

// A misspelled name is a warning with three fixes: the name, the word as
// an alias of its entry (a proposal applied as an edit of the entry's
// file), and "Not a misspelling" (an edit of quire.yaml's spelling:).
func TestNameSpellingFixes(t *testing.T) {
	files := map[string]string{
		"quire.yaml":                   "title: The Tideward\nspelling: [Marra]\n",
		"codex/characters/severine.md": "---\nname: Séverine Aubrac\naliases: [Séverine]\n---\n# Séverine Aubrac\n",
		"manuscript/01-one.md":         "# One\n\n" + strings.Repeat("Séverine rowed. ", 6) + "\n",
	}
	rel := "manuscript/02-two.md"
	text := "# Two\n\nThen Sevrine and Marra laughed.\n"
	files[rel] = text
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, files), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	uri := c.uri(rel)
	c.open(rel, text)
	ds := continuityOnly(c.waitDiagnostics(uri, "a misspelled name", func(ds []protocol.Diagnostic) bool {
		return len(continuityOnly(ds)[continuity.CodeNameSpelling]) == 1
	}))[continuity.CodeNameSpelling]
	require.Len(t, ds, 1, "Marra is listed under spelling:")
	d := ds[0]
	assert.Equal(t, "Sevrine", wordsAt(t, text, d.Range))
	assert.Equal(t, protocol.DiagnosticSeverityWarning, d.Severity)
	assert.Contains(t, d.Message, "may be a misspelling of Séverine")

	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	}, &actions)
	byTitle := map[string]codeAction{}
	var titles []string
	for _, a := range actions {
		if a.Kind == protocol.QuickFix {
			byTitle[a.Title] = a
			titles = append(titles, a.Title)
		}
	}
	assert.Equal(t, []string{"Change to Séverine", "Add 'Sevrine' as an alias of Séverine Aubrac", "Not a misspelling", "Open Séverine Aubrac in the codex"}, titles)
	change := byTitle["Change to Séverine"]
	assert.True(t, change.IsPreferred)
	raw, err := json.Marshal(change.Edit)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"newText":"Séverine"`)

	// Not a misspelling: quire.yaml gains the word, as an edit the editor
	// applies, and the writer is told.
	accept := byTitle["Not a misspelling"]
	require.NotNil(t, accept.Command)
	var res wire.ApplyResult
	c.call(protocol.MethodWorkspaceExecuteCommand, protocol.ExecuteCommandParams{Command: accept.Command.Command, Arguments: accept.Command.Arguments}, &res)
	assert.True(t, res.Applied, res.Message)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	yamlEdit := string(sent[0])
	assert.Contains(t, yamlEdit, string(c.uri("quire.yaml")))
	assert.Contains(t, yamlEdit, `"newText":"[Marra, Sevrine]"`)
	assert.Contains(t, strings.Join(c.messages(), "\n"), "Added Sevrine to spelling: in quire.yaml")

	// The alias: a proposal of the entry's front matter, applied as the
	// advisor's are.
	alias := byTitle["Add 'Sevrine' as an alias of Séverine Aubrac"]
	require.NotNil(t, alias.Command)
	c.call(protocol.MethodWorkspaceExecuteCommand, protocol.ExecuteCommandParams{Command: alias.Command.Command, Arguments: alias.Command.Arguments}, &res)
	assert.True(t, res.Applied, res.Message)
	sent = c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 2)
	entryEdit := string(sent[1])
	assert.Contains(t, entryEdit, string(c.uri("codex/characters/severine.md")))
	assert.Contains(t, entryEdit, `"newText":"aliases: [Séverine, Sevrine]\n"`)
	assert.True(t, slices.ContainsFunc(c.messages(), func(m string) bool { return strings.Contains(m, "Applied the proposed update of Séverine Aubrac") }), "messages: %v", c.messages())
}
