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

	"github.com/quire-ink/quire/server/wire"
)

// snapshotCommand runs a snapshot command through workspace/executeCommand.
func snapshotCommand[R any](t *testing.T, c *testClient, command string, arg any) R {
	t.Helper()
	var r R
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": command, "arguments": []any{arg}}, &r)
	return r
}

// waitVersions waits until the chapter has n versions kept.
func waitVersions(t *testing.T, c *testClient, rel string, n int) wire.SnapshotListResult {
	t.Helper()
	var l wire.SnapshotListResult
	require.Eventually(t, func() bool {
		l = snapshotCommand[wire.SnapshotListResult](t, c, wire.CommandSnapshotList, map[string]any{"uri": c.uri(rel)})
		return len(l.Versions) >= n
	}, 15*time.Second, 50*time.Millisecond, "%d versions of %s", n, rel)
	return l
}

// TestSnapshotsKeepWhatWasSavedAndRestoreIt is the writer: a
// paragraph deleted and saved is in the chapter's snapshots; restored
// over the protocol as a workspace edit, of that paragraph alone or of
// the whole chapter; a deleted chapter is found and made again.
func TestSnapshotsKeepWhatWasSavedAndRestoreIt(t *testing.T) {
	const lost = "The bell rang a thirteenth time, and nobody on the quay said a word.\n\n"
	original := "# Harbor\n\nTeo walked to the Tally.\n\n" + lost + "Moss followed her.\n"
	caps := protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		WorkspaceEdit: &protocol.WorkspaceClientCapabilitiesWorkspaceEdit{DocumentChanges: true, ResourceOperations: []string{"create"}}}}
	c, proj := proposalSessionOf(t, map[string]string{
		"manuscript/01-harbor.md": original,
		"manuscript/02-light.md":  "# Light\n\nThe lantern was dark.\n",
	}, map[string]any{"applied": true}, caps)
	first := waitVersions(t, c, "manuscript/01-harbor.md", 1)
	assert.Equal(t, "manuscript/01-harbor.md", first.Chapter)
	kept := first.Versions[0]

	// The paragraph is deleted and saved: the watcher sees it, and the
	// new text is kept.
	chapter := filepath.Join(proj.real, "manuscript", "01-harbor.md")
	edited := strings.Replace(original, lost, "", 1)
	require.NoError(t, os.WriteFile(chapter, []byte(edited), 0o644))
	// Kept on its own, with no command asking: the watcher's change.
	require.Eventually(t, func() bool {
		vs, err := proj.snaps.storeNow().Versions("manuscript/01-harbor.md")
		return err == nil && len(vs) == 2
	}, 15*time.Second, 20*time.Millisecond, "the save is kept without a command")
	l := waitVersions(t, c, "manuscript/01-harbor.md", 2)
	assert.Equal(t, 14, l.Versions[0].Removed)
	assert.Contains(t, l.Versions[0].Label, "+0 −14 words")
	assert.Equal(t, kept.ID, l.Versions[1].ID)

	text := snapshotCommand[wire.SnapshotTextResult](t, c, wire.CommandSnapshotText, map[string]any{"id": kept.ID})
	assert.Equal(t, original, text.Text)

	// Restore the paragraph, from the open chapter, the cursor where it was.
	c.open("manuscript/01-harbor.md", edited)
	at := strings.Count(edited[:strings.Index(edited, "Moss")], "\n")
	res := snapshotCommand[wire.SnapshotRestoreResult](t, c, wire.CommandSnapshotRestore, map[string]any{
		"uri": c.uri("manuscript/01-harbor.md"), "id": kept.ID, "position": map[string]any{"line": at, "character": 0}})
	assert.True(t, res.Applied)
	assert.Contains(t, res.Message, "Restored a paragraph of manuscript/01-harbor.md")
	e := lastEdit(t, c)
	require.Len(t, e.Edit.DocumentChanges, 1)
	var change struct {
		TextDocument struct {
			Version *int32 `json:"version"`
		} `json:"textDocument"`
		Edits []protocol.TextEdit `json:"edits"`
	}
	require.NoError(t, json.Unmarshal(e.Edit.DocumentChanges[0], &change))
	require.NotNil(t, change.TextDocument.Version, "the open document's version: a changed one refuses the edit")
	require.Len(t, change.Edits, 1)
	assert.Equal(t, lost, change.Edits[0].NewText)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4}}, change.Edits[0].Range)

	// The text it replaced was kept first.
	l = waitVersions(t, c, "manuscript/01-harbor.md", 3)
	assert.Equal(t, "before restoring "+kept.ID, l.Versions[0].Name)

	// A named snapshot of the chapter.
	saved := snapshotCommand[wire.SnapshotSaveResult](t, c, wire.CommandSnapshotSave, map[string]any{"uri": c.uri("manuscript/01-harbor.md"), "name": "before the big rewrite"})
	require.Len(t, saved.Versions, 1)
	c.waitMessage(`as the snapshot "before the big rewrite"`)

	// A chapter deleted by mistake is listed, and restored as a new file.
	require.NoError(t, os.Remove(filepath.Join(proj.real, "manuscript", "02-light.md")))
	var deleted []wire.SnapshotVersion
	require.Eventually(t, func() bool {
		deleted = snapshotCommand[wire.SnapshotListResult](t, c, wire.CommandSnapshotList, map[string]any{}).Deleted
		return len(deleted) == 1
	}, 15*time.Second, 50*time.Millisecond)
	assert.Equal(t, "manuscript/02-light.md", deleted[0].Chapter)
	// Offered at a chapter's title, for editors that reach it only so.
	var titleActions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
	}, &titleActions)
	offered := false
	for _, a := range titleActions {
		offered = offered || strings.HasPrefix(a.Title, "quire: Restore the deleted chapter manuscript/02-light.md (as of ")
	}
	assert.True(t, offered, "the deleted chapter at the title: %v", titleActions)
	res = snapshotCommand[wire.SnapshotRestoreResult](t, c, wire.CommandSnapshotRestore, map[string]any{"id": deleted[0].ID})
	assert.True(t, res.Applied)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 2)
	var create sentEdit
	require.NoError(t, json.Unmarshal(sent[1], &create))
	require.Len(t, create.Edit.DocumentChanges, 2)
	assert.Contains(t, string(create.Edit.DocumentChanges[0]), `"kind":"create"`)
	assert.Contains(t, string(create.Edit.DocumentChanges[1]), "The lantern was dark.")
	// Nothing was written in the book by quire.
	_, err := os.Stat(filepath.Join(proj.real, "manuscript", "02-light.md"))
	assert.True(t, os.IsNotExist(err), "the editor makes the file, not quire")
}

// TestSnapshotCodeActions: what Helix and Emacs reach the snapshots by.
// At the title: keep the chapter or the book, show the list, restore
// the chapter; where a paragraph was deleted: restore it.
func TestSnapshotCodeActions(t *testing.T) {
	const lost = "The bell rang a thirteenth time, and nobody on the quay said a word.\n\n"
	original := "# Harbor\n\nTeo walked to the Tally.\n\n" + lost + "Moss followed her.\n"
	c, proj := proposalSessionOf(t, map[string]string{"manuscript/01-harbor.md": original}, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	waitVersions(t, c, "manuscript/01-harbor.md", 1)
	edited := strings.Replace(original, lost, "", 1)
	require.NoError(t, os.WriteFile(filepath.Join(proj.real, "manuscript", "01-harbor.md"), []byte(edited), 0o644))
	waitVersions(t, c, "manuscript/01-harbor.md", 2)
	c.open("manuscript/01-harbor.md", edited)

	titles := func(line uint32) map[string]codeAction {
		var actions []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Range:        protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}},
		}, &actions)
		out := map[string]codeAction{}
		for _, a := range actions {
			out[a.Title] = a
		}
		return out
	}
	atTitle := titles(0)
	for _, want := range []string{snapshotChapterTitle, snapshotBookTitle, snapshotShowTitle} {
		assert.Contains(t, atTitle, want)
	}
	restoreChapter := false
	for title := range atTitle {
		restoreChapter = restoreChapter || strings.HasPrefix(title, "quire: Restore this chapter as of ")
	}
	assert.True(t, restoreChapter, "the chapter as it was: %v", atTitle)

	var paragraph *codeAction
	for title, a := range titles(4) {
		if strings.HasPrefix(title, "quire: Restore the paragraph here as of ") {
			paragraph = &a
		}
	}
	require.NotNil(t, paragraph, "where the paragraph was")
	var r any
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": paragraph.Command.Command, "arguments": paragraph.Command.Arguments}, &r)
	e := lastEdit(t, c)
	assert.Contains(t, string(e.Edit.DocumentChanges[0]), "The bell rang a thirteenth time")

	// Show: the list as a document the writer reads.
	show := atTitle[snapshotShowTitle]
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": show.Command.Command, "arguments": show.Command.Arguments}, &r)
	msg := c.waitMessage("manuscript/01-harbor.md has 3 snapshots")
	path := msg[strings.LastIndex(msg, " ")+1 : len(msg)-1]
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "# Snapshots of manuscript/01-harbor.md")
	assert.Contains(t, string(doc), "~~The bell rang a thirteenth time, and nobody on the quay said a word.~~")
}
