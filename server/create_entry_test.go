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

// untrackedNamed is the untracked-name diagnostic for name, if any.
func untrackedNamed(ds []protocol.Diagnostic, name string) (protocol.Diagnostic, untrackedData, bool) {
	for _, d := range ds {
		if d.Code != codeUntrackedName {
			continue
		}
		var data untrackedData
		if raw, err := json.Marshal(d.Data); err == nil && json.Unmarshal(raw, &data) == nil && data.Name == name {
			return d, data, true
		}
	}
	return protocol.Diagnostic{}, untrackedData{}, false
}

// The quick fix for an untracked name creates the entry its hint
// counted: the name the prose uses most, its other forms as aliases, and
// the other names it keeps apart excluded.
func TestCreateEntryFixCarriesTheFormsCounted(t *testing.T) {
	files := map[string]string{
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-a.md": "# One\n\nMara rode to Netherfield at dawn; Netherfield House was dark. " +
			"She met Catherine there, and Catherine, and Catherine." + strings.Repeat(" Then Lady Catherine came.", 30) + "\n",
		"manuscript/02-b.md": "# Two\n\nAgain, Netherfield slept, and Netherfield woke.\n",
	}
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, files), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	c.open("manuscript/01-a.md", files["manuscript/01-a.md"])
	ds := c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked names", func(ds []protocol.Diagnostic) bool {
		_, _, ok := untrackedNamed(ds, "Catherine")
		return ok
	})

	d, data, ok := untrackedNamed(ds, "Netherfield")
	require.True(t, ok, "%v", ds)
	assert.Equal(t, []string{"Netherfield House"}, data.Aliases)
	assert.Equal(t, `"Netherfield" (also written "Netherfield House") is used 4 times in 2 chapters and has no codex entry`, d.Message)
	actions := actionsFor(t, c, "manuscript/01-a.md", []protocol.Diagnostic{d})
	require.NotEmpty(t, actions)
	assert.Equal(t, "Create character entry for Netherfield", actions[0].Title)
	var location codeAction
	for _, a := range actions {
		if a.Title == "Create location entry for Netherfield" {
			location = a
		}
	}
	require.NotNil(t, location.Command)
	args, err := json.Marshal(location.Command.Arguments)
	require.NoError(t, err)
	assert.Contains(t, string(args), `"aliases":["Netherfield House"]`)

	// Run as the client runs it: the arguments as they came.
	var res createEntryResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": location.Command.Command, "arguments": json.RawMessage(args)}, &res)
	require.True(t, res.Created)
	assert.Equal(t, c.uri("codex/locations/netherfield.md"), res.URI)
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	assert.Contains(t, string(sent[0]), `type: location\nname: Netherfield\naliases: [Netherfield House]\n`)

	// Catherine is not Lady Catherine: her entry excludes her.
	d, data, _ = untrackedNamed(ds, "Catherine")
	assert.Equal(t, []string{"Lady Catherine"}, data.Exclude)
	actions = actionsFor(t, c, "manuscript/01-a.md", []protocol.Diagnostic{d})
	require.NotEmpty(t, actions)
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": actions[0].Command.Command, "arguments": actions[0].Command.Arguments}, &res)
	require.True(t, res.Created)
	sent = c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 2)
	assert.Contains(t, string(sent[1]), `name: Catherine\naliases: []\nexclude: [Lady Catherine]\n`)
}

func TestCreateEntryRefusesFormsThatAreNoNames(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, createEntryBook), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	c.waitDiagnostics(c.uri("codex/characters/mara-vell.md"), "the book is loaded", hasCode(codex.CodeBrokenLink))
	for i, args := range []createEntryArgs{
		{Name: "Hesper", Aliases: []string{"two\nlines"}},
		{Name: "Hesper", Exclude: []string{" "}},
		{Name: "Hesper", Aliases: make([]string, maxEntryForms+1)},
	} {
		args.Type, args.URI = codex.TypeItem, c.uri("manuscript/01-a.md")
		// A refused command answers null and tells the writer why.
		assert.Nil(t, c.callRaw(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandCreateEntry, "arguments": []any{args}}))
		require.Eventually(t, func() bool {
			n := 0
			for _, m := range c.messages() {
				if strings.Contains(m, "at most 32 aliases and 32 exclusions, each one short line of text") {
					n++
				}
			}
			return n == i+1
		}, 10*time.Second, 10*time.Millisecond, "refusal %d: %q", i, c.messages())
	}
	assert.Empty(t, c.sent(protocol.MethodWorkspaceApplyEdit))
}

// TestCreateEntryNamesTheFileInTheNamesScript: entries named in Cyrillic
// each get a file of their own name; the file name was made of ASCII
// letters only, so every one was "entry.md" and the second was refused
// as already there.
func TestCreateEntryNamesTheFileInTheNamesScript(t *testing.T) {
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, createEntryBook), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	for _, tt := range []struct{ name, file string }{
		{"Бетси Тверская", "codex/characters/бетси-тверская.md"},
		{"Петрицкий", "codex/characters/петрицкий.md"},
	} {
		var res createEntryResult
		c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandCreateEntry, "arguments": []any{
			createEntryArgs{Name: tt.name, Type: codex.TypeCharacter, URI: c.uri("manuscript/01-a.md")},
		}}, &res)
		assert.True(t, res.Created, "%s: %s", tt.name, res.Reason)
		assert.Equal(t, c.uri(tt.file), res.URI)
	}
}
