package server

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// slipBook plants one slip of each kind in chapter 3, beside decoys: a
// brown-eyed character next to the green-eyed one, a dead character
// remembered rather than acting.
var slipBook = map[string]string{
	"codex/characters/severine.md": "---\ntype: character\nname: Séverine Aubrac\naliases: [Séverine]\neyes: pale green\n---\n",
	"codex/characters/marek.md":    "---\ntype: character\nname: Marek Dunn\naliases: [Marek]\neyes: brown\n---\n",
	"codex/characters/jory.md":     "---\ntype: character\nname: Jory Vane\naliases: [Jory]\nprogressions:\n  - from: The Drowning\n    status: dead\n    note: Drowned.\n---\n",
	"codex/style/house.md":         "---\ntype: style\nname: House Style\nrules:\n  - {avoid: \"13th\", prefer: thirteenth}\n---\n",
	"manuscript/01-harbor.md":      "---\ntitle: The Harbor\nday: 1\n---\nJory laughed.\n",
	"manuscript/02-drowning.md":    "---\ntitle: The Drowning\nday: 4\n---\nThe sea took him.\n",
	"manuscript/03-after.md": "---\ntitle: After\nday: 2\npov: Nobody Known\n---\n" +
		"😀 Séverine's dark brown eyes were wet.\n\n" + // line 5: trait-contradiction
		"Marek's brown eyes narrowed.\n\n" + // decoy: his eyes are brown
		"“Come,” said Jory.\n\n" + // after-death
		"Séverine remembered Jory.\n\n" + // decoy: remembered, not acting
		"It was the 13th stroke.\n", // style-rule
}

// continuityOnly keeps the continuity diagnostics.
func continuityOnly(ds []protocol.Diagnostic) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, d := range ds {
		if code, ok := d.Code.(string); ok && slices.Contains(continuity.Checks, code) {
			out[code] = append(out[code], d)
		}
	}
	return out
}

// wordsAt is the text a diagnostic's UTF-16 range covers.
func wordsAt(t *testing.T, text string, r protocol.Range) string {
	t.Helper()
	start, end, err := textdoc.NewLines(text).RangeOffsets(r)
	require.NoError(t, err)
	return text[start:end]
}

func TestContinuityDiagnostics(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, slipBook))
	rel := "manuscript/03-after.md"
	uri := c.uri(rel)
	text := slipBook[rel]
	c.open(rel, text)

	all := func(n int) func([]protocol.Diagnostic) bool {
		return func(ds []protocol.Diagnostic) bool { return len(continuityOnly(ds)) == n }
	}
	got := continuityOnly(c.waitDiagnostics(uri, "one diagnostic per slip", all(5)))
	for code, ds := range got {
		require.Len(t, ds, 1, code)
		assert.Equal(t, "quire", ds[0].Source, code)
		assert.NotEmpty(t, ds[0].Message, code)
	}
	trait := got[continuity.CodeTraitContradiction][0]
	// After an emoji (two UTF-16 units) and "Séverine's ".
	assert.Equal(t, protocol.Range{Start: position(5, 14), End: position(5, 29)}, trait.Range)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, trait.Severity)
	require.Len(t, trait.RelatedInformation, 1)
	assert.Equal(t, c.uri("codex/characters/severine.md"), trait.RelatedInformation[0].Location.URI)
	assert.Equal(t, uint32(4), trait.RelatedInformation[0].Location.Range.Start.Line, "the eyes: line")
	assert.Equal(t, "eyes: pale green", trait.RelatedInformation[0].Message)

	assert.Contains(t, wordsAt(t, text, got[continuity.CodeAfterDeath][0].Range), "Jory")
	assert.Equal(t, 9, int(got[continuity.CodeAfterDeath][0].Range.Start.Line), "the line that acts, not the one that remembers")
	assert.Equal(t, "2", wordsAt(t, text, got[continuity.CodeTimelineOrder][0].Range))
	assert.Equal(t, "Nobody Known", wordsAt(t, text, got[continuity.CodeUnknownReference][0].Range))
	style := got[continuity.CodeStyleRule][0]
	assert.Equal(t, "13th", wordsAt(t, text, style.Range))
	assert.Equal(t, protocol.DiagnosticSeverityInformation, style.Severity)

	// The style rule's quick fix writes the preferred form into this
	// version; the slip's canon opens through the lookup command.
	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range:        style.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{style, trait}},
	}, &actions)
	var titles []string
	var fix *codeAction
	for i, a := range actions {
		titles = append(titles, a.Title)
		if a.Edit != nil && fix == nil {
			fix = &actions[i]
		}
	}
	assert.Contains(t, titles, "Open House Style in the codex")
	assert.Contains(t, titles, "Open Séverine Aubrac in the codex")
	require.NotNil(t, fix, "a quick fix with an edit: %v", titles)
	assert.True(t, fix.IsPreferred)
	assert.Equal(t, protocol.QuickFix, fix.Kind)
	raw, err := json.Marshal(fix.Edit)
	require.NoError(t, err)
	var edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version int32                `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	require.NoError(t, json.Unmarshal(raw, &edit))
	require.Len(t, edit.DocumentChanges, 1)
	assert.Equal(t, uri, edit.DocumentChanges[0].TextDocument.URI)
	assert.Equal(t, int32(1), edit.DocumentChanges[0].TextDocument.Version)
	require.Len(t, edit.DocumentChanges[0].Edits, 1)
	assert.Equal(t, style.Range, edit.DocumentChanges[0].Edits[0].Range)
	assert.Equal(t, "thirteenth", edit.DocumentChanges[0].Edits[0].NewText)

	// Fixing the eyes in the editor takes that slip away, and only it.
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"range": trait.Range, "text": "pale green eyes"}},
	})
	got = continuityOnly(c.waitDiagnostics(uri, "the eyes fixed", all(4)))
	assert.NotContains(t, got, continuity.CodeTraitContradiction)
}

// TestUnknownReferenceActions offers, for a pov that names nothing, the
// near entry's name as the preferred fix, that entry to open, and a new
// character entry for the name as written; a location far from every
// name gets only the new entry.
func TestUnknownReferenceActions(t *testing.T) {
	files := maps.Clone(slipBook)
	rel := "manuscript/03-after.md"
	text := "---\ntitle: After\nday: 5\npov: Severine Aubrak\nlocation: The Moon\n---\nProse.\n"
	files[rel] = text
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, files), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	uri := c.uri(rel)
	c.open(rel, text)
	ds := continuityOnly(c.waitDiagnostics(uri, "two unknown references", func(ds []protocol.Diagnostic) bool {
		return len(continuityOnly(ds)[continuity.CodeUnknownReference]) == 2
	}))[continuity.CodeUnknownReference]
	slices.SortFunc(ds, func(a, b protocol.Diagnostic) int { return int(a.Range.Start.Line) - int(b.Range.Start.Line) })
	pov, place := ds[0], ds[1]
	require.Equal(t, "Severine Aubrak", wordsAt(t, text, pov.Range))
	require.Equal(t, "The Moon", wordsAt(t, text, place.Range))

	actionsFor := func(d protocol.Diagnostic) map[string]codeAction {
		var actions []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: d.Range,
			Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
		}, &actions)
		byTitle := map[string]codeAction{} // the quick fixes; the advisor's actions are offered too
		for _, a := range actions {
			if a.Kind == protocol.QuickFix {
				byTitle[a.Title] = a
			}
		}
		return byTitle
	}
	got := actionsFor(pov)
	require.Contains(t, got, `Change to "Séverine Aubrac"`, "titles: %v", slices.Collect(maps.Keys(got)))
	change := got[`Change to "Séverine Aubrac"`]
	assert.True(t, change.IsPreferred)
	raw, err := json.Marshal(change.Edit)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"newText":"Séverine Aubrac"`)
	assert.Contains(t, got, "Open Séverine Aubrac in the codex")
	create, ok := got["Create character entry for Severine Aubrak"]
	require.True(t, ok, "titles: %v", slices.Collect(maps.Keys(got)))
	assert.False(t, create.IsPreferred, "the near name is the likelier fix")
	require.NotNil(t, create.Command)
	assert.Equal(t, wire.CommandCreateEntry, create.Command.Command)

	got = actionsFor(place)
	require.Len(t, got, 1, "titles: %v", slices.Collect(maps.Keys(got)))
	create, ok = got["Create location entry for The Moon"]
	require.True(t, ok, "titles: %v", slices.Collect(maps.Keys(got)))
	assert.True(t, create.IsPreferred)

	// Running it creates the location's entry through the editor.
	var res createEntryResult
	c.call(protocol.MethodWorkspaceExecuteCommand, protocol.ExecuteCommandParams{Command: create.Command.Command, Arguments: create.Command.Arguments}, &res)
	require.True(t, res.Created, res.Reason)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	assert.Contains(t, string(sent[0]), `type: location\nname: The Moon`)
}

func TestContinuityCheckOff(t *testing.T) {
	files := maps2(slipBook, map[string]string{"quire.yaml": "checks: {after-death: off, style-rule: error}\n"})
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	rel := "manuscript/03-after.md"
	c.open(rel, files[rel])
	got := continuityOnly(c.waitDiagnostics(c.uri(rel), "the checks left on", func(ds []protocol.Diagnostic) bool { return len(continuityOnly(ds)) == 4 }))
	assert.NotContains(t, got, continuity.CodeAfterDeath)
	require.Len(t, got[continuity.CodeStyleRule], 1)
	assert.Equal(t, protocol.DiagnosticSeverityError, got[continuity.CodeStyleRule][0].Severity, "re-levelled")

	// quire.yaml itself: traits: and checks: are known keys.
	c.open("quire.yaml", files["quire.yaml"])
	c.waitDiagnostics(c.uri("quire.yaml"), "no unknown keys", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
}

func TestContinuityConfigProblems(t *testing.T) {
	assert.Empty(t, configDiagnostics("traits: [scar]\nchecks: {after-death: off}\n"))
	ds := configDiagnostics("title: T\nchecks:\n  after-dark: off\n")
	require.Len(t, ds, 1)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, ds[0].Severity)
	assert.Contains(t, ds[0].Message, "after-dark")
	assert.Equal(t, uint32(2), ds[0].Range.Start.Line)
}

func maps2(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestHoverAsOfChapter: in the sample book, Jory Fenwick is missing from
// chapter 1 and found in the Vault in chapter 4; hover in a chapter says
// so, hover in a codex file shows the entry as written.
func TestHoverAsOfChapter(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("..", "cmd", "quire", "sample"))))
	c := startServer(t, Options{})
	c.initialize(root)

	hoverOn := func(rel, find string, skip int) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		require.NoError(t, err)
		off := strings.Index(string(data), find)
		require.GreaterOrEqual(t, off, 0, rel)
		p := textdoc.NewLines(string(data)).Position(off + skip + 1)
		h := c.hoverAt(rel, p.Line, p.Character)
		require.NotNil(t, h, rel)
		return h.Contents.Value
	}
	ch4 := hoverOn("manuscript/04-the-vault-beneath-the-light.md", "Jory Fenwick", 0)
	assert.Contains(t, ch4, "**Jory Fenwick**")
	assert.Contains(t, ch4, "2 of 3 progressions apply")
	assert.Contains(t, ch4, "a ledge in the Skerry Vault, with a broken leg")
	ch1 := hoverOn("manuscript/01-thirteen-strokes.md", "Jory", 0)
	assert.Contains(t, ch1, "1 of 3 progression applies")
	assert.Contains(t, ch1, "*whereabouts:* missing")
	light := hoverOn("manuscript/05-salt-debt.md", "stairs in Gannet Light", len("stairs in "))
	assert.Contains(t, light, "*light:* burning")

	codexCard := hoverOn("codex/items/gannet-lens.md", "[[Jory", 2)
	assert.NotContains(t, codexCard, "progressions apply", "the codex shows the entry as written")

	// The sample's eye-colour slip shows in the editor.
	c.open("manuscript/05-salt-debt.md", mustRead(t, filepath.Join(root, "manuscript", "05-salt-debt.md")))
	c.waitDiagnostics(c.uri("manuscript/05-salt-debt.md"), "the sample's slip", hasCode(continuity.CodeTraitContradiction))
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

// TestAskTellsTheContinuityEditorTheChecksAsSet: an ask from a chapter
// puts quire's findings before the continuity editor as quire.yaml's
// checks: set them: a check turned off is not among them.
func TestAskTellsTheContinuityEditorTheChecksAsSet(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	files := maps2(slipBook, map[string]string{"quire.yaml": "checks: {after-death: off}\n"})
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	rel := "manuscript/03-after.md"
	c.open(rel, files[rel])
	var body struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	c.call(wire.MethodPeekPrompt, map[string]any{"message": "Anything off?", "persona": "continuity-editor", "uri": string(c.uri(rel))}, &body)
	var all strings.Builder
	for _, m := range body.Messages {
		all.WriteString(m.Content)
	}
	assert.Contains(t, all.String(), continuity.CodeTraitContradiction, "a check left on is among the findings")
	assert.NotContains(t, all.String(), continuity.CodeAfterDeath, "the check turned off is not")
}

// TestHoverAsOfScene: a scene whose note makes it a flashback sees canon
// as of its day, and hover says which scene it reads canon as of; the
// rest of the chapter sees the chapter's.
func TestHoverAsOfScene(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("..", "cmd", "quire", "sample"))))
	c := startServer(t, Options{})
	c.initialize(root)
	rel := "manuscript/05-salt-debt.md"
	text := mustRead(t, filepath.Join(root, filepath.FromSlash(rel))) +
		"\n\n* * *\n\n<!-- scene\nflashback: true\nday: 1\n-->\n\nJory Fenwick climbed the stair that first night.\n"
	c.open(rel, text)
	lines := textdoc.NewLines(text)
	at := func(off int) string {
		p := lines.Position(off + 1)
		h := c.hoverAt(rel, p.Line, p.Character)
		require.NotNil(t, h)
		return h.Contents.Value
	}
	flash := at(strings.LastIndex(text, "Jory Fenwick"))
	// The sample's chapter 5 has two scenes; the one added is the third.
	assert.Contains(t, flash, `"Salt-Debt", scene 3 \(a flashback to day 1\)`)
	assert.Contains(t, flash, "1 of 3 progression applies")
	present := at(strings.Index(text, "Jory"))
	assert.NotContains(t, present, "flashback")
	assert.Contains(t, present, "3 of 3 progressions apply")
}
