package server

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// initializeCaps is initialize with the client's capabilities and its
// answers to the server's requests.
func (c *testClient) initializeCaps(root string, caps protocol.ClientCapabilities, answers map[string]any) {
	c.t.Helper()
	c.mu.Lock()
	c.answers = answers
	c.mu.Unlock()
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          textdoc.PathURI(root),
		Capabilities:     caps,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
}

// messages are the texts of the window/showMessage notifications sent.
func (c *testClient) messages() []string {
	var out []string
	for _, raw := range c.sent(protocol.MethodWindowShowMessage) {
		var m protocol.ShowMessageParams
		if json.Unmarshal(raw, &m) == nil {
			out = append(out, m.Message)
		}
	}
	return out
}

// waitMessage waits for a showMessage containing want and returns it.
func (c *testClient) waitMessage(want string) string {
	c.t.Helper()
	var got string
	require.Eventually(c.t, func() bool {
		for _, m := range c.messages() {
			if strings.Contains(m, want) {
				got = m
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "a message with %q; got %q", want, c.messages())
	return got
}

func actionsFor(t *testing.T, c *testClient, rel string, ds []protocol.Diagnostic) []codeAction {
	t.Helper()
	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
		Range:        ds[0].Range,
		Context:      protocol.CodeActionContext{Diagnostics: ds},
	}, &actions)
	return actions
}

var createEntryBook = map[string]string{
	"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n\nShe sails for [[Tidewardens]] and knows [[Ilse Dorn#Nowhere]].\n",
	"codex/characters/ilse-dorn.md": "---\nname: Ilse Dorn\n---\n# Ilse Dorn\n",
	"codex/places/brinmouth.md":     "---\nname: Brinmouth\n---\n# Brinmouth\n",
	"manuscript/01-a.md":            "# One\n\nMara boarded Hesper at dawn. Later, Hesper left.\n",
	"manuscript/02-b.md":            "# Two\n\nAgain, Hesper came back, and Hesper sank.\n",
}

var createCaps = protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
	ApplyEdit:     true,
	WorkspaceEdit: &protocol.WorkspaceClientCapabilitiesWorkspaceEdit{DocumentChanges: true, ResourceOperations: []string{"create", "rename", "delete"}},
}}

func TestCreateEntryFixesOfferEveryTypeAndReportTheOutcome(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, createEntryBook), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	c.open("manuscript/01-a.md", createEntryBook["manuscript/01-a.md"])
	ds := c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked name", hasCode(codeUntrackedName))

	actions := actionsFor(t, c, "manuscript/01-a.md", ds)
	var want []string
	for _, ty := range codex.Types {
		want = append(want, "Create "+string(ty)+" entry for Hesper")
	}
	require.Equal(t, want, titles(actions)[:len(want)], "every type: Hesper is a ship")
	item := actions[3]
	assert.Equal(t, protocol.QuickFix, item.Kind)
	require.NotNil(t, item.Command)
	assert.Equal(t, wire.CommandCreateEntry, item.Command.Command)

	// Running it creates the file through the editor and says so.
	var res createEntryResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": item.Command.Command, "arguments": item.Command.Arguments}, &res)
	assert.True(t, res.Created)
	assert.Equal(t, c.uri("codex/items/hesper.md"), res.URI)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	assert.Contains(t, string(sent[0]), `"kind":"create"`)
	assert.Contains(t, string(sent[0]), "codex/items/hesper.md")
	assert.Contains(t, string(sent[0]), `type: item\nname: Hesper`)
	msg := c.waitMessage("Created codex/items/hesper.md")
	assert.Contains(t, msg, "the item entry for Hesper")
}

func TestCreateEntryFixForABrokenLink(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, createEntryBook), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": false, "failureReason": "read-only"}})
	rel := "codex/characters/mara-vell.md"
	c.open(rel, createEntryBook[rel])
	ds := c.waitDiagnostics(c.uri(rel), "two broken links", func(ds []protocol.Diagnostic) bool { return len(ds) == 2 })

	tide := actionsFor(t, c, rel, ds[:1])
	require.NotEmpty(t, tide)
	assert.Equal(t, "Create character entry for Tidewardens", tide[0].Title)
	assert.Contains(t, titles(tide), "Create organization entry for Tidewardens")
	var place createEntryResult
	for _, a := range tide {
		if a.Title == "Create location entry for Tidewardens" {
			c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, &place)
		}
	}
	assert.Equal(t, c.uri("codex/places/tidewardens.md"), place.URI, "beside the book's other locations")
	for _, a := range actionsFor(t, c, rel, ds[1:]) {
		assert.NotContains(t, a.Title, "Create", "Ilse Dorn exists; only the section is missing")
	}

	// The editor refuses: the writer is told, and nothing claims success.
	var org codeAction
	for _, a := range tide {
		if a.Title == "Create organization entry for Tidewardens" {
			org = a
		}
	}
	var res createEntryResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": org.Command.Command, "arguments": org.Command.Arguments}, &res)
	assert.False(t, res.Created)
	msg := c.waitMessage("codex/organizations/tidewardens.md")
	assert.Contains(t, msg, "No entry created for Tidewardens")
	assert.Contains(t, msg, "read-only")
}

func TestCreateEntryWithoutFileCreationInsertsTheText(t *testing.T) {
	c := startServer(t, Options{})
	files := maps.Clone(createEntryBook)
	c.initializeCaps(writeProject(t, files), protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{ApplyEdit: true}},
		map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	c.waitDiagnostics(c.uri("codex/characters/mara-vell.md"), "the book is loaded", hasCode(codex.CodeBrokenLink))
	var res createEntryResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandCreateEntry,
		"arguments": []any{createEntryArgs{Name: "Hesper", Type: codex.TypeItem, URI: c.uri("manuscript/01-a.md")}}}, &res)
	assert.True(t, res.Created)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	assert.NotContains(t, string(sent[0]), `"kind":"create"`, "eglot 1.9 cannot create files; it opens a new buffer")
	assert.Contains(t, string(sent[0]), `"changes"`)

	// An entry that exists is not made again.
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandCreateEntry,
		"arguments": []any{createEntryArgs{Name: "Mara Vell", Type: codex.TypeCharacter, URI: c.uri("manuscript/01-a.md")}}}, &res)
	assert.False(t, res.Created)
	c.waitMessage("Mara Vell already has an entry")
}
