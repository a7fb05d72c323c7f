package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// replaceText sends the whole new text of an open document.
func (c *testClient) replaceText(rel string, version int32, text string) {
	c.t.Helper()
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(rel), "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// waitVersion waits for the diagnostics of rel at version and returns them.
func (c *testClient) waitVersion(rel string, version uint32) []protocol.Diagnostic {
	c.t.Helper()
	var got protocol.PublishDiagnosticsParams
	require.Eventually(c.t, func() bool {
		var ok bool
		got, ok = c.latestDiagnostics(c.uri(rel))
		return ok && got.Version == version
	}, 10*time.Second, 10*time.Millisecond, "diagnostics of %s at version %d", rel, version)
	return got.Diagnostics
}

func TestDuplicateAliasWarningStaysWhileAnEntryHasUnsavedEdits(t *testing.T) {
	files := map[string]string{
		"codex/characters/jory.md":  "---\nname: Jory Fenwick\naliases: [the Lantern]\n---\n# Jory Fenwick\n",
		"codex/locations/gannet.md": "---\nname: Gannet Light\naliases: [the Lantern]\n---\n# Gannet Light\n\nSee [[Nowhere]].\n",
		"manuscript/01-a.md":        "# One\n\nThe Lantern burned.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	rel := "codex/locations/gannet.md"
	c.open(rel, files[rel])
	ds := c.waitVersion(rel, 1)
	assert.True(t, hasCode("duplicate-name")(ds), "%v", ds)

	c.replaceText(rel, 2, files[rel]+"\nA lighthouse on the cape.\n")
	ds = c.waitVersion(rel, 2)
	assert.True(t, hasCode("duplicate-name")(ds), "the alias is still claimed twice: %v", ds)
	assert.True(t, hasCode("broken-link")(ds), "%v", ds)

	// Fixed in the editor, unsaved: the warning goes.
	c.replaceText(rel, 3, strings.Replace(files[rel], "the Lantern", "the Lamp", 1))
	ds = c.waitVersion(rel, 3)
	assert.False(t, hasCode("duplicate-name")(ds), "%v", ds)
}

func TestHoverShowsTheUnsavedCodexText(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	rel := "codex/characters/ilse-dorn.md"
	c.open(rel, bookFiles[rel])
	// A proposal applied in the editor, not saved.
	c.replaceText(rel, 2, strings.Replace(bookFiles[rel], "Harbormistress of Brinmouth.", "Harbormistress of Port Caddow.", 1))
	h := c.hoverAt("manuscript/01-harbor.md", 2, 25)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Harbormistress of Port Caddow.")

	// Closed without saving: the saved text again.
	c.notifyServer(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}})
	h = c.hoverAt("manuscript/01-harbor.md", 2, 25)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Harbormistress of Brinmouth.")
}

func TestAnUnsavedRenameLeavesNoUntrackedHint(t *testing.T) {
	files := map[string]string{
		"codex/characters/moss.md": "---\nname: Moss Kettering\n---\n# Moss Kettering\n",
		"manuscript/01-a.md":       "# One\n\nMoss Kettering came. Later, Moss Kettering left.\n",
		"manuscript/02-b.md":       "# Two\n\nAgain Moss Kettering came, and Moss Kettering sat.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	for rel, text := range files {
		c.open(rel, text)
	}
	c.waitVersion("manuscript/01-a.md", 1)

	// The rename's edit, applied by the editor and not saved.
	for rel, text := range files {
		c.replaceText(rel, 2, strings.ReplaceAll(text, "Moss Kettering", "Kettleby"))
	}
	ds := c.waitVersion("manuscript/01-a.md", 2)
	assert.False(t, hasCode(codeUntrackedName)(ds), "no hint for the unsaved name: %v", ds)
	h := c.hoverAt("manuscript/01-a.md", 2, 3)
	require.NotNil(t, h, "Kettleby is the entry's name in the editor")
	assert.Contains(t, h.Contents.Value, "**Kettleby**")

	require.Never(t, func() bool {
		p, _ := c.latestDiagnostics(c.uri("manuscript/01-a.md"))
		return hasCode(codeUntrackedName)(p.Diagnostics)
	}, time.Second, 20*time.Millisecond, "nor once the book has been scanned again")
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/02-b.md", 2, 8)
		return h != nil && strings.Contains(h.Contents.Value, "*Appears in:* 1. One (2), 2. Two (2)")
	}, 10*time.Second, 10*time.Millisecond, "the chapters counted with the unsaved name")
}

func TestAnUnsavedNewEntryTracksItsName(t *testing.T) {
	files := map[string]string{
		"codex/characters/mara.md": "---\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-a.md":       "# One\n\nMara boarded Hesper at dawn. Later, Hesper left.\n",
		"manuscript/02-b.md":       "# Two\n\nAgain, Hesper came back, and Hesper sank.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	c.open("manuscript/01-a.md", files["manuscript/01-a.md"])
	c.waitDiagnostics(c.uri("manuscript/01-a.md"), "untracked name", hasCode(codeUntrackedName))

	// eglot makes the quick fix's file an unsaved buffer: no file yet.
	src, err := codex.NewEntrySource(codex.EntryDraft{Type: codex.TypeItem, Name: "Hesper"})
	require.NoError(t, err)
	c.open("codex/items/hesper.md", src)
	c.waitDiagnostics(c.uri("manuscript/01-a.md"), "Hesper has an entry in the editor", func(ds []protocol.Diagnostic) bool {
		return !hasCode(codeUntrackedName)(ds)
	})
	h := c.hoverAt("manuscript/01-a.md", 2, 15)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Hesper** · item")
}

// Every publication of an open codex file's diagnostics is of the text
// of the version it names: a publication computed while a change came in
// (the republication after the names changed) once read the newer text
// against the catalog of the older and sent it without the entry's
// duplicate-alias warning (seen under Wine in CI). The aliases change
// back and forth, so the names change on every version.
func TestCodexDiagnosticsAreOfTheirVersionsText(t *testing.T) {
	files := map[string]string{
		"codex/characters/jory.md":  "---\nname: Jory Fenwick\naliases: [the Lantern]\n---\n# Jory Fenwick\n",
		"codex/locations/gannet.md": "---\nname: Gannet Light\naliases: [the Lantern]\n---\n# Gannet Light\n",
		"manuscript/01-a.md":        "# One\n\nThe Lantern burned. The Lamp too.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	rel := "codex/locations/gannet.md"
	c.open(rel, files[rel])
	c.waitVersion(rel, 1)

	claimed := map[uint32]bool{1: true}
	// Each version is sent as soon as the one before is published: the
	// republication for the names it changed is under way then.
	const last = 20
	for v := 2; v <= last; v++ {
		text := files[rel]
		if v%2 == 0 {
			text = strings.Replace(text, "the Lantern", "the Lamp", 1)
		}
		claimed[uint32(v)] = v%2 != 0
		c.replaceText(rel, int32(v), text)
		c.waitVersion(rel, uint32(v))
	}
	// The last republication settles.
	time.Sleep(200 * time.Millisecond)

	c.mu.Lock()
	defer c.mu.Unlock()
	seen := 0
	for _, n := range c.notes {
		var p protocol.PublishDiagnosticsParams
		if n.method != protocol.MethodTextDocumentPublishDiagnostics || json.Unmarshal(n.params, &p) != nil || p.URI != c.uri(rel) {
			continue
		}
		seen++
		assert.Equal(t, claimed[p.Version], hasCode("duplicate-name")(p.Diagnostics), "version %d: %v", p.Version, p.Diagnostics)
	}
	t.Logf("%d publications checked", seen)
}
