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
	"github.com/quire-ink/quire/server/textdoc"
)

// A chapter pasted from a word processor, a paragraph a line: over the
// protocol, one warning at its first line that runs on, and the quick
// fix whose edit puts a blank line between its paragraphs; the chapter
// so edited has nothing more to say.
func TestParagraphBreaksOverProtocol(t *testing.T) {
	long := strings.Repeat("Teodora counted the hulls as the tide turned under the harbor light. ", 3)
	rel := "manuscript/02-pasted.md"
	text := "# Pasted\n\n" + long + "\n" + long + "\n— Who rang the bell?\n" + long + "\n"
	files := map[string]string{
		"quire.yaml":           "title: The Tideward\n",
		"manuscript/01-one.md": "# One\n\nThe harbor was quiet.\n",
		rel:                    text,
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	uri := c.uri(rel)
	c.open(rel, text)
	ds := continuityOnly(c.waitDiagnostics(uri, "paragraphs a line", func(ds []protocol.Diagnostic) bool {
		return len(continuityOnly(ds)[continuity.CodeParagraphBreaks]) == 1
	}))[continuity.CodeParagraphBreaks]
	require.Len(t, ds, 1)
	d := ds[0]
	assert.Equal(t, protocol.DiagnosticSeverityWarning, d.Severity)
	assert.Equal(t, strings.TrimSpace(long), strings.TrimSpace(wordsAt(t, text, d.Range)))
	assert.Contains(t, d.Message, "3 places")

	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	}, &actions)
	var fix *codeAction
	for i, a := range actions {
		if a.Title == "Put a blank line between this chapter's paragraphs" {
			fix = &actions[i]
		}
	}
	require.NotNil(t, fix, "actions: %+v", actions)
	assert.True(t, fix.IsPreferred)
	require.NotNil(t, fix.Edit)
	raw, err := json.Marshal(fix.Edit.DocumentChanges)
	require.NoError(t, err)
	var changes []struct {
		Edits []protocol.TextEdit `json:"edits"`
	}
	require.NoError(t, json.Unmarshal(raw, &changes))
	require.Len(t, changes, 1)
	require.Len(t, changes[0].Edits, 1)
	e := changes[0].Edits[0]
	start, end, err := textdoc.NewLines(text).RangeOffsets(e.Range)
	require.NoError(t, err)
	fixed := text[:start] + e.NewText + text[end:]
	assert.Equal(t, "# Pasted\n\n"+long+"\n\n"+long+"\n\n— Who rang the bell?\n\n"+long+"\n", fixed)

	// Neovim 0.7 sends the diagnostic back with its columns in bytes,
	// which the accent in the line moves: the fix is offered still.
	long8 := strings.Repeat("Séverine counted the hulls as the tide turned under the harbor light. ", 3)
	text8 := "# Pasted\n\n" + long8 + "\n" + long8 + "\n" + long8 + "\n"
	c.replaceText(rel, 2, text8)
	ds = continuityOnly(c.waitVersion(rel, 2))[continuity.CodeParagraphBreaks]
	require.Len(t, ds, 1)
	d = ds[0]
	byBytes := d
	byBytes.Range.End.Character = uint32(len(strings.TrimRight(long8, " ")) + 1)
	require.NotEqual(t, d.Range, byBytes.Range, "the line holds an accent")
	actions = nil
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: byBytes.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{byBytes}},
	}, &actions)
	assert.True(t, slices.ContainsFunc(actions, func(a codeAction) bool { return a.Title == "Put a blank line between this chapter's paragraphs" }), "actions: %+v", actions)

	c.replaceText(rel, 3, fixed)
	c.waitDiagnostics(uri, "no more warning", func(ds []protocol.Diagnostic) bool {
		return len(continuityOnly(ds)[continuity.CodeParagraphBreaks]) == 0
	})
}
