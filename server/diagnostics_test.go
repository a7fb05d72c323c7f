package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
)

// latestDiagnostics is the last publishDiagnostics the client received
// for uri.
func (c *testClient) latestDiagnostics(uri protocol.DocumentURI) (protocol.PublishDiagnosticsParams, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.notes) - 1; i >= 0; i-- {
		n := c.notes[i]
		if n.Method() != protocol.MethodTextDocumentPublishDiagnostics {
			continue
		}
		var p protocol.PublishDiagnosticsParams
		if json.Unmarshal(n.Params(), &p) == nil && p.URI == uri {
			return p, true
		}
	}
	return protocol.PublishDiagnosticsParams{}, false
}

// waitDiagnostics waits until the latest diagnostics of uri satisfy ok.
func (c *testClient) waitDiagnostics(uri protocol.DocumentURI, what string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	var got []protocol.Diagnostic
	require.Eventually(c.t, func() bool {
		p, found := c.latestDiagnostics(uri)
		got = p.Diagnostics
		return found && ok(p.Diagnostics)
	}, 10*time.Second, 10*time.Millisecond, what)
	return got
}

func hasCode(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if d.Code == code {
				return true
			}
		}
		return false
	}
}

func TestDiagnostics(t *testing.T) {
	files := map[string]string{
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n\nSee [[Port Caddow]].\n",
		"codex/characters/broken.md":    "---\nname: [unclosed\n---\n# Broken\n",
		"codex/characters/jory.md":      "---\nname: Jory Fenwick\naliases: [the Lantern]\n---\n# Jory Fenwick\n",
		"codex/locations/gannet.md":     "---\nname: Gannet Light\naliases: [the Lantern]\n---\n# Gannet Light\n",
		"manuscript/01-a.md":            "# One\n\nMara met Hesper at dawn. Later, Hesper left.\n",
		"manuscript/02-b.md":            "# Two\n\nAgain, Hesper came back, and Hesper smiled.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))

	// Codex files on disk, not open.
	c.waitDiagnostics(c.uri("codex/characters/mara-vell.md"), "a broken link on disk", hasCode("broken-link"))
	c.waitDiagnostics(c.uri("codex/characters/broken.md"), "broken front matter on disk", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	c.waitDiagnostics(c.uri("codex/locations/gannet.md"), "an alias two entries claim", hasCode("duplicate-name"))

	// An open chapter: the first use of an untracked name.
	c.open("manuscript/01-a.md", files["manuscript/01-a.md"])
	ds := c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked name", hasCode(codeUntrackedName))
	require.Len(t, ds, 1)
	assert.Equal(t, protocol.DiagnosticSeverityInformation, ds[0].Severity)
	assert.Equal(t, protocol.Range{Start: position(2, 9), End: position(2, 15)}, ds[0].Range)
	assert.Contains(t, ds[0].Message, "Hesper")

	// The code action creates an entry from a template.
	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-a.md")},
		Range:        ds[0].Range,
		Context:      protocol.CodeActionContext{Diagnostics: ds},
	}, &actions)
	require.NotEmpty(t, actions)
	assert.Equal(t, "Create character entry for Hesper", actions[0].Title)
	assert.True(t, actions[0].IsPreferred)
	require.NotNil(t, actions[0].Command, "the fix is a command, which reports what it did")
	raw, err := json.Marshal(actions[0].Command.Arguments)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"name":"Hesper","type":"character"`)

	// Editing a codex file: problems follow the editor's text.
	c.open("codex/characters/mara-vell.md", files["codex/characters/mara-vell.md"])
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": c.uri("codex/characters/mara-vell.md"), "version": 2},
		"contentChanges": []map[string]any{{"text": "---\nname: Mara Vell\n---\n# Mara Vell\n\nSee [[Mara Vell]].\n"}},
	})
	c.waitDiagnostics(c.uri("codex/characters/mara-vell.md"), "the link fixed in the editor", func(ds []protocol.Diagnostic) bool {
		return !hasCode("broken-link")(ds)
	})

	// A codex entry created on disk tracks the name: the hint goes.
	require.NoError(t, writeFileErr(c.root, "codex/characters/hesper.md", "---\nname: Hesper\n---\n# Hesper\n"))
	c.waitDiagnostics(c.uri("manuscript/01-a.md"), "hint gone once Hesper has an entry", func(ds []protocol.Diagnostic) bool {
		return !hasCode(codeUntrackedName)(ds)
	})
}

// A known name after a form of address its entry is never given is
// someone else of the family: the hint offers the whole name, title and
// all, as an entry of its own.
func TestUntrackedHintOffersAnotherTitle(t *testing.T) {
	files := map[string]string{
		"codex/characters/leonce.md": "---\nname: Léonce Pontellier\naliases: [Mr. Pontellier, Pontellier]\n---\n# Léonce Pontellier\n",
		"manuscript/01-a.md":         "# One\n\nMrs. Pontellier sewed. Later, Mrs. Pontellier slept, and Mrs. Pontellier woke; Pontellier read.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	c.open("manuscript/01-a.md", files["manuscript/01-a.md"])
	ds := c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked name", hasCode(codeUntrackedName))
	require.Len(t, ds, 1)
	assert.Equal(t, protocol.Range{Start: position(2, 0), End: position(2, 15)}, ds[0].Range)
	assert.Contains(t, ds[0].Message, "Mrs. Pontellier")
	actions := actionsFor(t, c, "manuscript/01-a.md", ds)
	require.NotEmpty(t, actions)
	assert.Equal(t, "Create character entry for Mrs. Pontellier", actions[0].Title)
}

// A quotation's first word is capitalized as its sentence's: the hint
// offers the name after it, first used where the book first uses it,
// not the article's pair (issue 41).
func TestUntrackedHintLeavesAQuotedArticle(t *testing.T) {
	text := "# One\n\nThen the Moonstone came, the Moonstone went, the Moonstone stayed, and he said--\"The Moonstone will go.\"\n"
	files := map[string]string{"codex/characters/mara.md": "---\nname: Mara Vell\n---\n# Mara Vell\n", "manuscript/01-a.md": text}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	c.open("manuscript/01-a.md", text)
	ds := c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked name", hasCode(codeUntrackedName))
	require.Len(t, ds, 1)
	at := strings.Index(text, "Moonstone")
	assert.Equal(t, textdoc.NewLines(text).RangeOf(at, at+len("Moonstone")), ds[0].Range)
	assert.Equal(t, `"Moonstone" is used 4 times in 1 chapter and has no codex entry`, ds[0].Message)
	actions := actionsFor(t, c, "manuscript/01-a.md", ds)
	require.NotEmpty(t, actions)
	assert.Equal(t, "Create character entry for Moonstone", actions[0].Title)
}

func TestDiagnosticsWarnOfAChangeToALockedField(t *testing.T) {
	entry := "---\nname: Mara Vell\nrole: Protagonist\nlocked: [role]\n---\n# Mara Vell\n"
	files := map[string]string{"codex/characters/mara-vell.md": entry, "manuscript/01-a.md": "# A\n"}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	uri := c.uri("codex/characters/mara-vell.md")
	c.open("codex/characters/mara-vell.md", entry)
	c.waitDiagnostics(uri, "no problem while the text is as saved", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })

	// A proposal applied in the editor (or the writer) changes the role.
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{
			"range": protocol.Range{Start: position(2, 6), End: position(2, 17)},
			"text":  "Antagonist",
		}},
	})
	ds := c.waitDiagnostics(uri, "the locked role changed", hasCode(codeLockedChange))
	require.Len(t, ds, 1)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, ds[0].Severity)
	assert.Equal(t, uint32(2), ds[0].Range.Start.Line, "on the role line")
	assert.Contains(t, ds[0].Message, `"role" is locked`)

	// Changing an unlocked field is fine.
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []map[string]any{{"text": "---\nname: Mara Vell\nrole: Protagonist\nlocked: [role]\nsummary: New.\n---\n# Mara Vell\n"}},
	})
	c.waitDiagnostics(uri, "an unlocked change", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
}
