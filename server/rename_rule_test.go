package server

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

var ketteringBook = map[string]string{
	"codex/characters/moss-kettering.md": "---\nname: Moss Kettering\naliases: [Kettering, the Lamplighter]\n---\n# Moss\n",
	"manuscript/01-a.md":                 "# One\n\nMoss Kettering came in. Kettering sat.\n",
	"manuscript/02-b.md":                 "# Two\n\nThe Lamplighter left with Moss Kettering.\n",
}

var prepareCaps = protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
	Rename: &protocol.RenameClientCapabilities{PrepareSupport: true},
}}

func renameAt(t *testing.T, c *testClient, rel string, pos protocol.Position, newName string) (protocol.WorkspaceEdit, error) {
	t.Helper()
	var edit protocol.WorkspaceEdit
	err := c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Position: pos},
		NewName:                    newName,
	}, &edit)
	return edit, err
}

// newTexts lists an edit's new texts, file by file in path order, each
// file's in position order.
func newTexts(c *testClient, edit protocol.WorkspaceEdit) map[string][]string {
	out := map[string][]string{}
	for _, rel := range []string{"codex/characters/moss-kettering.md", "manuscript/01-a.md", "manuscript/02-b.md"} {
		es := edit.Changes[c.uri(rel)]
		sort.Slice(es, func(i, j int) bool { return es[i].Range.Start.Line < es[j].Range.Start.Line })
		for _, e := range es {
			out[rel] = append(out[rel], e.NewText)
		}
	}
	return out
}

func TestRenameWithoutPrepareReplacesOnlyTheWordShown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, ketteringBook)) // eglot 1.9: no prepareSupport
	require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-a.md", 2, 8) != nil }, 10e9, 10e6)

	tests := []struct {
		name  string
		rel   string
		pos   protocol.Position
		typed string
		want  string
	}{
		{"the surname in the full name", "manuscript/01-a.md", position(2, 8), "Kettleby", "Moss Kettleby"},
		{"on the last letter", "manuscript/01-a.md", position(2, 13), "Kettleby", "Moss Kettleby"},
		{"just after the name", "manuscript/01-a.md", position(2, 14), "Kettleby", "Moss Kettleby"},
		{"the surname as an alias", "manuscript/01-a.md", position(2, 26), "Kettleby", "Moss Kettleby"},
		{"the first name", "manuscript/02-b.md", position(2, 27), "Ash", "Ash Kettering"},
		{"the whole new name typed", "manuscript/01-a.md", position(2, 8), "Moss Kettleby", "Moss Kettleby"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edit, err := renameAt(t, c, tt.rel, tt.pos, tt.typed)
			require.NoError(t, err)
			assert.Equal(t, map[string][]string{
				"codex/characters/moss-kettering.md": {tt.want},
				"manuscript/01-a.md":                 {tt.want},
				"manuscript/02-b.md":                 {tt.want},
			}, newTexts(c, edit), "no word of the name is lost; the alias stays")
		})
	}
	msg := c.waitMessage("Renamed Moss Kettering to Ash Kettering in 3 places in 3 files.")
	assert.Contains(t, msg, `showed the word "Moss"`)

	// A word of an alias that is not in the name is refused.
	_, err := renameAt(t, c, "manuscript/02-b.md", position(2, 6), "Lamp")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"Lamplighter" is not a word of the name Moss Kettering`)
}

func TestRenameWithPrepareReplacesTheWholeName(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, ketteringBook), prepareCaps, nil)
	require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-a.md", 2, 8) != nil }, 10e9, 10e6)
	edit, err := renameAt(t, c, "manuscript/01-a.md", position(2, 8), "Kettleby")
	require.NoError(t, err)
	assert.Equal(t, []string{"Kettleby"}, newTexts(c, edit)["manuscript/01-a.md"], "the client showed the whole name")
	c.waitMessage("Renamed Moss Kettering to Kettleby in 3 places in 3 files.")
}

// TestRenameLeavesDeclinedNames: a Russian name in another case is found
// as the entry's mention but not renamed (its endings are the writer's
// to choose), and the message says how many places were left.
func TestRenameLeavesDeclinedNames(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, map[string]string{
		"codex/characters/vronsky.md": "---\nname: Вронский\n---\n# Вронский\n",
		"manuscript/01-a.md":          "# Один\n\nВронский вошёл. Она ждала Вронского и думала о Вронском.\n",
	}), prepareCaps, nil)
	require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-a.md", 2, 2) != nil }, 10e9, 10e6)
	require.NotNil(t, c.hoverAt("manuscript/01-a.md", 2, 27), "the genitive shows the card")
	edit, err := renameAt(t, c, "manuscript/01-a.md", position(2, 2), "Воронцов")
	require.NoError(t, err)
	assert.Len(t, edit.Changes[c.uri("manuscript/01-a.md")], 1, "the name as written only")
	c.waitMessage("Renamed Вронский to Воронцов in 3 places in 2 files. 2 places write the name in another grammatical case and are left as written: give them the new name's endings yourself.")
}

// applyEdits applies one file's edits, all on one line, to that line.
func applyEdits(line string, edits []protocol.TextEdit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Range.Start.Character > edits[j].Range.Start.Character })
	for _, e := range edits {
		line = line[:e.Range.Start.Character] + e.NewText + line[e.Range.End.Character:]
	}
	return line
}

// TestRenameGivesTheGivenNameItsNewOne: the places that call a character
// by the given name alone, which the codex does not list, take the new
// name's ("Teodora sat" becomes "Dora sat"); where the new name has none,
// they are left and the message says what to do.
func TestRenameGivesTheGivenNameItsNewOne(t *testing.T) {
	const line = "Teodora Quill came in. Teodora sat, and Teodora's pen moved. Teo smiled. TEODORA!"
	book := map[string]string{
		"codex/characters/teodora.md": "---\nname: Teodora Quill\naliases: [Teo]\n---\n# Teodora Quill\n",
		"manuscript/01-a.md":          "# One\n\n" + line + "\n",
	}
	for _, tt := range []struct {
		newName, want, message string
	}{
		{"Dora Quill", "Dora Quill came in. Dora sat, and Dora's pen moved. Teo smiled. DORA!",
			"Renamed Teodora Quill to Dora Quill in 6 places in 2 files. 3 places that called Teodora Quill “Teodora” alone now say “Dora”."},
		{"Teodora Vane", "Teodora Vane came in. Teodora sat, and Teodora's pen moved. Teo smiled. TEODORA!",
			"Renamed Teodora Quill to Teodora Vane in 3 places in 2 files."},
		{"Captain Quill", "Captain Quill came in. Teodora sat, and Teodora's pen moved. Teo smiled. TEODORA!",
			"Renamed Teodora Quill to Captain Quill in 3 places in 2 files. 3 places calling Teodora Quill “Teodora” alone are left as written: Captain Quill has no first name quire finds alone, so add “Teodora” as an alias if they still mean Captain Quill."},
	} {
		t.Run(tt.newName, func(t *testing.T) {
			c := startServer(t, Options{})
			c.initializeCaps(writeProject(t, book), prepareCaps, nil)
			require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-a.md", 2, 24) != nil }, 10e9, 10e6, "Teodora alone is hers")
			edit, err := renameAt(t, c, "manuscript/01-a.md", position(2, 2), tt.newName)
			require.NoError(t, err)
			assert.Equal(t, tt.want, applyEdits(line, edit.Changes[c.uri("manuscript/01-a.md")]))
			c.waitMessage(tt.message)
		})
	}
}
