package server

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	llmactions "github.com/quire-ink/quire/llm/actions"
	"github.com/quire-ink/quire/server/wire"
)

func codeActionsAt(t testing.TB, c *testClient, rel string, r protocol.Range, only ...protocol.CodeActionKind) []codeAction {
	t.Helper()
	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
		Range:        r,
		Context:      protocol.CodeActionContext{Only: only},
	}, &actions)
	return actions
}

func titles(actions []codeAction) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.Title
	}
	return out
}

func span(line, from, to uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: line, Character: from}, End: protocol.Position{Line: line, Character: to}}
}

// coreActionLabels are the code action titles of the core advisor
// actions of the given scopes, in the order the server lists them.
func coreActionLabels(scopes ...string) []string {
	var out []string
	for _, a := range llmactions.Core() {
		if slices.Contains(scopes, a.Scope) {
			out = append(out, a.Label())
		}
	}
	return out
}

// harborSynopsisTitle is the outline's action in the one-scene chapter
// "Harbor" (outline_action.go).
const harborSynopsisTitle = "Ask the Developmental Editor for a synopsis of the chapter Harbor"

func TestCodeActionsOnASelection(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")

	// "Mara's boat slid out." in the chapter.
	actions := codeActionsAt(t, c, "manuscript/01-harbor.md", span(2, 0, 21))
	assert.Equal(t, append([]string{
		"Ask Developmental Editor about this", "Ask Character Psychologist about this", "Ask Continuity Editor about this",
		"Ask Worldbuilding Auditor about this", "Ask First-Time Reader about this", "Ask Writing Coach about this",
		"Propose codex update from selection", "Peek prompt",
	}, append(coreActionLabels(llmactions.ScopeSelection), doctorActionTitle, wordCountsActionTitle, harborSynopsisTitle)...), titles(actions))
	for _, a := range actions {
		assert.Empty(t, a.Kind)
		assert.Nil(t, a.Edit)
		require.NotNil(t, a.Command)
		require.Len(t, a.Command.Arguments, 1)
	}
	raw, err := json.Marshal(actions[2].Command.Arguments[0])
	require.NoError(t, err)
	var ask wire.AskParams
	require.NoError(t, json.Unmarshal(raw, &ask))
	assert.Equal(t, "quire.ask", actions[2].Command.Command)
	selected := span(2, 0, 21)
	assert.Equal(t, wire.AskParams{Persona: "continuity-editor", URI: c.uri("manuscript/01-harbor.md"), Range: &selected,
		Message: "What do you think of this passage?", SelectionHash: codex.HashText("Mara's boat slid out.")}, ask)
	assert.Equal(t, "quire.ask", actions[6].Command.Command)
	assert.Equal(t, "quire.peekPrompt", actions[7].Command.Command)

	// Kindless actions stay out of a request for quick fixes only.
	assert.Empty(t, codeActionsAt(t, c, "manuscript/01-harbor.md", span(2, 0, 21), protocol.QuickFix))
}

func TestCodeActionsOnAMention(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")

	actions := codeActionsAt(t, c, "manuscript/01-harbor.md", span(2, 25, 25))
	// At the cursor in a chapter: the actions on the chapter and the book,
	// the lookup, then the health report and the word counts.
	// On a character's name, its lines too.
	require.Equal(t, append(coreActionLabels(llmactions.ScopeFile, llmactions.ScopeProject), "Look up Ilse Dorn", "Lines of Ilse Dorn", doctorActionTitle, wordCountsActionTitle, harborSynopsisTitle), titles(actions))
	lookup := actions[len(actions)-5]
	assert.Equal(t, "quire.lookup", lookup.Command.Command)
	raw, _ := json.Marshal(lookup.Command.Arguments[0])
	assert.JSONEq(t, `{"name":"Ilse Dorn","uri":"`+string(c.uri("manuscript/01-harbor.md"))+`"}`, string(raw))

	// After the emoji, in UTF-16; a selection inside a mention offers both.
	actions = codeActionsAt(t, c, "manuscript/01-harbor.md", span(2, 43, 47))
	assert.Contains(t, titles(actions), "Look up Mara Vell")
	assert.Contains(t, titles(actions), "Ask Writing Coach about this")

	assert.Equal(t, append(coreActionLabels(llmactions.ScopeFile, llmactions.ScopeProject), doctorActionTitle, wordCountsActionTitle, harborSynopsisTitle), titles(codeActionsAt(t, c, "manuscript/01-harbor.md", span(4, 2, 2))),
		"on a plain word, only the actions on the chapter and the book, the health report and the word counts")
}

func TestCodeActionsOnCodexText(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")

	// "She keeps a ledger of [[Ilse Dorn]]'s debts." in Mara's entry.
	actions := codeActionsAt(t, c, "codex/characters/mara-vell.md", span(7, 0, 44))
	var where *codeAction
	for i := range actions {
		if actions[i].Title == "Where is this established?" {
			where = &actions[i]
		}
	}
	require.NotNil(t, where, "%v", titles(actions))
	assert.Equal(t, "quire.explicate", where.Command.Command)
	raw, _ := json.Marshal(where.Command.Arguments[0])
	assert.JSONEq(t, `{"quote":"She keeps a ledger of [[Ilse Dorn]]'s debts.","uri":"`+string(c.uri("codex/characters/mara-vell.md"))+`"}`, string(raw))

	assert.NotContains(t, titles(codeActionsAt(t, c, "manuscript/01-harbor.md", span(2, 0, 21))), "Where is this established?",
		"only on codex text")
}

func TestBoundQuote(t *testing.T) {
	long := ""
	for len(long) < maxQuoteBytes+10 {
		long += "é"
	}
	long = "a" + long
	q := boundQuote(long)
	assert.LessOrEqual(t, len(q), maxQuoteBytes)
	assert.True(t, json.Valid([]byte(`"`+q+`"`)))
	assert.Equal(t, "x", boundQuote("  x \n"))
}

// A range that covers no whole word is the cursor: Helix sends the
// cursor's one-character selection, eglot point..point+1.
func TestCodeActionsTakeANarrowRangeForTheCursor(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")
	atCursor := coreActionLabels(llmactions.ScopeFile, llmactions.ScopeProject)
	tests := []struct {
		name      string
		r         protocol.Range
		selection bool
		lookup    bool
	}{
		{name: "one character of a word (eglot, Helix)", r: span(2, 22, 23), lookup: true},
		{name: "one character of a space", r: span(4, 6, 7)},
		{name: "part of a word", r: span(4, 1, 4)},
		{name: "the ends of two words", r: span(4, 4, 9)},
		{name: "one letter after a space", r: span(4, 7, 8)},
		{name: "a whole word", r: span(4, 0, 6), selection: true},
		{name: "a sentence", r: span(2, 0, 21), selection: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := titles(codeActionsAt(t, c, "manuscript/01-harbor.md", tt.r))
			if tt.selection {
				assert.Contains(t, got, "Ask Writing Coach about this")
				assert.NotContains(t, got, atCursor[0])
				return
			}
			want := slices.Clone(atCursor)
			if tt.lookup {
				want = append(want, "Look up Ilse Dorn", "Lines of Ilse Dorn")
			}
			want = append(want, doctorActionTitle, wordCountsActionTitle, harborSynopsisTitle)
			assert.Equal(t, want, got)
		})
	}
}
