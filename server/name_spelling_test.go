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

// Issue 41's name-spelling cases over the protocol: a word entries share
// names each with its own count and offers the alias to the most named;
// a name that is an everyday word, and an everyday word after a title,
// are checked; two slips in a short name count on the book's evidence.
func TestNameSpellingOnTheBooksEvidence(t *testing.T) {
	tests := []struct {
		name    string
		codex   map[string]string
		text    string
		flag    []string
		message string
		fix     string // the preferred fix's title
		alias   string // the alias fix's title
	}{
		{name: "a word two entries share",
			codex: map[string]string{
				"charles.md":  "---\nname: Charles Bingley\naliases: [Mr. Bingley]\n---\n# Charles Bingley\n",
				"caroline.md": "---\nname: Caroline Bingley\naliases: [Caroline]\n---\n# Caroline Bingley\n",
			},
			text: strings.Repeat("Mr. Bingley came. ", 10) + "Caroline sang. Then Mr. Bingly left.",
			flag: []string{"Bingly"},
			message: "“Bingly” may be a misspelling of Bingley: the book names Charles Bingley 10 times and Caroline Bingley once, " +
				"and writes “Bingly” once",
			fix: "Change to Bingley", alias: "Add 'Bingly' as an alias of Charles Bingley"},
		{name: "a name that is an everyday word, and a word after a title",
			codex: map[string]string{
				"kitty.md":  "---\nname: Kitty Bennet\naliases: [Kitty]\n---\n# Kitty Bennet\n",
				"louisa.md": "---\nname: Louisa Hurst\naliases: [Mrs. Hurst]\n---\n# Louisa Hurst\n",
			},
			text:    strings.Repeat("Kitty came. ", 8) + strings.Repeat("Mrs. Hurst came. ", 8) + "Then Kittty left, and Mrs. Hurts. It hurts.",
			flag:    []string{"Kittty", "Hurts"},
			message: "“Kittty” may be a misspelling of Kitty: the book names Kitty Bennet 8 times, and writes “Kittty” once",
			fix:     "Change to Kitty", alias: "Add 'Kittty' as an alias of Kitty Bennet"},
		{name: "two slips in a short name",
			codex:   map[string]string{"lydia.md": "---\nname: Lydia Bennet\naliases: [Lydia]\n---\n# Lydia Bennet\n"},
			text:    strings.Repeat("Lydia came. ", 6) + "Then Lidya left.",
			flag:    []string{"Lidya"},
			message: "“Lidya” may be a misspelling of Lydia: the book names Lydia Bennet 6 times, and writes “Lidya” once",
			fix:     "Change to Lydia", alias: "Add 'Lidya' as an alias of Lydia Bennet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for rel, src := range tt.codex {
				files["codex/characters/"+rel] = src
			}
			rel := "manuscript/01-one.md"
			text := "# One\n\n" + tt.text + "\n"
			files[rel] = text
			c := startServer(t, Options{})
			c.initialize(writeProject(t, files))
			c.open(rel, text)
			ds := continuityOnly(c.waitDiagnostics(c.uri(rel), "the misspelled names", func(ds []protocol.Diagnostic) bool {
				return len(continuityOnly(ds)[continuity.CodeNameSpelling]) == len(tt.flag)
			}))[continuity.CodeNameSpelling]
			var words []string
			for _, d := range ds {
				words = append(words, wordsAt(t, text, d.Range))
			}
			assert.Equal(t, tt.flag, words)
			require.NotEmpty(t, ds)
			assert.Equal(t, tt.message, ds[0].Message)
			var titles []string
			for _, a := range actionsFor(t, c, rel, ds[:1]) {
				if a.Kind == protocol.QuickFix {
					titles = append(titles, a.Title)
				}
			}
			require.NotEmpty(t, titles)
			assert.Equal(t, tt.fix, titles[0])
			assert.Contains(t, titles, tt.alias)
		})
	}
}
