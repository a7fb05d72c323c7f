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

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/server/textdoc"
)

// seriesWorkspace writes a series folder and two books naming it, and
// returns the folder holding them.
func seriesWorkspace(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for rel, text := range map[string]string{
		"tideward/codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler of the Tideward coast.\nrole: Protagonist\n---\n# Mara Vell\n\nMara grew up on the salt flats.\n",
		"tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor.\n",
		"one/quire.yaml":                    "series: ../tideward\n",
		"one/codex/characters/mara.md":      "---\ntype: character\nname: Mara Vell\noverrides: Mara Vell\nsummary: Older now, and retired.\n---\n",
		"one/manuscript/01-harbor.md":       "# Harbor\n\nMara met Ilse Dorn.\n",
		"tideward/codex/locations/city.md":  "---\ntype: location\nname: Tideward\nsummary: The drowned city.\n---\n# Tideward\n",
		"two/codex/locations/city.md":       "---\ntype: location\nname: Tideward\n---\n# Tideward\n\nRisen again.\n",
		"two/quire.yaml":                    "series: ../tideward\n",
		"two/manuscript/01-rising.md":       "# Rising\n\nMara met Ilse Dorn.\n",
		"two/manuscript/02-ebb.md":          "# Ebb\n\nIlse waited on the quay.\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return base
}

// grantTrust records that the writer trusts what the book at root asks.
func grantTrust(t *testing.T, trustFile, root string) {
	t.Helper()
	reach, err := endpoint.ReadBookReach(root)
	require.NoError(t, err)
	require.NoError(t, trust.Open(trustFile).Grant(root, reach.Wants().Hash(), reach.Wants().Lines()))
}

// openSeriesBooks opens the two trusted books of seriesWorkspace in one
// session, as one workspace's two folders; shelf, when given, is the
// server's shelf of series stores.
func openSeriesBooks(t *testing.T, shelf *mbook.Shelf) (c *testClient, base, one, two string) {
	t.Helper()
	base = seriesWorkspace(t)
	one, two = filepath.Join(base, "one"), filepath.Join(base, "two")
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, one)
	grantTrust(t, trustFile, two)
	opts := Options{TrustFile: trustFile, CacheDir: t.TempDir()}
	if shelf != nil {
		opts.shelf = shelf
	}
	c = startServer(t, opts)
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{
			{URI: string(textdoc.PathURI(one)), Name: "one"},
			{URI: string(textdoc.PathURI(two)), Name: "two"},
		},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	return c, base, one, two
}

// Two books of one series in one session: a series fact shows in both,
// an override only in its book, hover says where each comes from,
// definition goes to the file that holds it, and the series is read
// once.
func TestSeriesOverTheProtocol(t *testing.T) {
	shelf := mbook.NewShelf()
	c, base, one, two := openSeriesBooks(t, shelf)
	seriesIlse := filepath.Join(base, "tideward", "codex", "characters", "ilse.md")
	seriesMara := filepath.Join(base, "tideward", "codex", "characters", "mara.md")

	for _, book := range []string{one, two} {
		c.root = book
		rel := "manuscript/01-harbor.md"
		if book == two {
			rel = "manuscript/01-rising.md"
		}
		h := c.hoverAt(rel, 2, 12) // Ilse Dorn
		require.NotNil(t, h, book)
		assert.Contains(t, h.Contents.Value, "**Ilse Dorn**")
		assert.Contains(t, h.Contents.Value, "Harbor master of Tideward.")
		assert.Contains(t, h.Contents.Value, "*Series canon:* [tideward/codex/characters/ilse.md]("+string(textdoc.PathURI(seriesIlse))+")")
		locs := c.definitionAt(rel, 2, 12)
		require.Len(t, locs, 1)
		assert.Equal(t, textdoc.PathURI(seriesIlse), locs[0].URI, "definition opens the series file")
	}
	assert.Equal(t, 1, shelf.Len(), "the two books read one series store")

	// References of a series entry: its mentions in this book's chapters,
	// and its declaration in the series file.
	c.root = one
	var refs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
			Position:     protocol.Position{Line: 2, Character: 12},
		},
		Context: protocol.ReferenceContext{IncludeDeclaration: true},
	}, &refs)
	require.Len(t, refs, 4)
	assert.Equal(t, textdoc.PathURI(seriesIlse), refs[0].URI)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 2, Character: 6}, End: protocol.Position{Line: 2, Character: 15}}, refs[0].Range)
	assert.Equal(t, c.uri("manuscript/01-harbor.md"), refs[1].URI)
	assert.Equal(t, textdoc.PathURI(seriesIlse), refs[2].URI, "the series file's own heading names it too")
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 7, Character: 0}, End: protocol.Position{Line: 7, Character: 4}}, refs[3].Range,
		"and its body, by her given name: Ilse keeps the harbor")

	c.root = one
	h := c.hoverAt("manuscript/01-harbor.md", 2, 1) // Mara
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Older now, and retired.")
	assert.Contains(t, h.Contents.Value, "salt flats", "the body the book leaves out is the series'")
	assert.Contains(t, h.Contents.Value, "*This book's entry over the series canon*")
	assert.Contains(t, h.Contents.Value, "from the series: aliases, body, role")
	locs := c.definitionAt("manuscript/01-harbor.md", 2, 1)
	require.Len(t, locs, 2)
	assert.Equal(t, c.uri("codex/characters/mara.md"), locs[0].URI)
	assert.Equal(t, textdoc.PathURI(seriesMara), locs[1].URI)

	c.root = two
	h = c.hoverAt("manuscript/01-rising.md", 2, 1)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Smuggler of the Tideward coast.")
	assert.NotContains(t, h.Contents.Value, "Older now", "the override is the other book's alone")

	var found json.RawMessage
	c.call("quire/lookup", map[string]any{"name": "Ilse Dorn"}, &found)
	assert.Contains(t, string(found), `"canon":"series canon"`)

	// Book two's Tideward takes the series entry's name without saying
	// overrides: a warning on its name line.
	params := c.waitFor(protocol.MethodTextDocumentPublishDiagnostics, "replaces it in this book")
	var diags protocol.PublishDiagnosticsParams
	require.NoError(t, json.Unmarshal(params, &diags))
	assert.Equal(t, c.uri("codex/locations/city.md"), diags.URI)
	require.Len(t, diags.Diagnostics, 1)
	d := diags.Diagnostics[0]
	assert.Equal(t, protocol.DiagnosticSeverityWarning, d.Severity)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 2, Character: 6}, End: protocol.Position{Line: 2, Character: 14}}, d.Range)
	assert.Contains(t, d.Message, "add `overrides: Tideward` to say so")
}

func TestSeriesOfAnUntrustedBookIsNotRead(t *testing.T) {
	base := seriesWorkspace(t)
	one := filepath.Join(base, "one")
	c := startServer(t, Options{TrustFile: filepath.Join(t.TempDir(), "trust.json"), CacheDir: t.TempDir()})
	c.initialize(one)
	var found json.RawMessage
	c.call("quire/lookup", map[string]any{"name": "Mara Vell"}, &found)
	assert.Contains(t, string(found), "Older now", "the book's own entry answers")
	assert.NotContains(t, string(found), "series canon")
	assert.Nil(t, c.hoverAt("manuscript/01-harbor.md", 2, 12), "Ilse Dorn is the series' only")
	c.waitFor(protocol.MethodTextDocumentPublishDiagnostics, "read the series canon in the folder ../tideward")
}

// A change in the series folder reaches every open book of it, through
// the one watcher they share.
func TestSeriesChangesReachEveryBook(t *testing.T) {
	c, base, one, two := openSeriesBooks(t, nil)
	for _, book := range []string{one, two} {
		c.root = book
		require.NotNil(t, c.hoverAt("manuscript/01-"+map[string]string{one: "harbor", two: "rising"}[book]+".md", 2, 12))
	}
	require.NoError(t, os.WriteFile(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"),
		[]byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master, now of the new port.\n---\n# Ilse Dorn\n"), 0o644))
	for _, book := range []string{one, two} {
		c.root = book
		rel := "manuscript/01-" + map[string]string{one: "harbor", two: "rising"}[book] + ".md"
		require.Eventually(t, func() bool {
			h := c.hoverAt(rel, 2, 12)
			return h != nil && strings.Contains(h.Contents.Value, "now of the new port")
		}, 10*time.Second, 50*time.Millisecond, book)
	}
}

// Renaming a series entry from one book renames it in the series folder
// and in every open book of the series, each place once, and so does its
// given name alone, wherever the series' books use it.
func TestSeriesRenameReachesEveryBook(t *testing.T) {
	c, base, one, two := openSeriesBooks(t, nil)
	c.root = one
	rename := func(newName string) map[protocol.DocumentURI][]protocol.TextEdit {
		var edit workspaceEdit
		c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")},
				Position:     protocol.Position{Line: 2, Character: 12},
			},
			NewName: newName,
		}, &edit)
		return edit.Changes
	}
	seriesIlse := textdoc.PathURI(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"))
	ebb := textdoc.PathURI(filepath.Join(two, "manuscript", "02-ebb.md"))
	byFile := map[protocol.DocumentURI][]protocol.Range{}
	line := func(l, from, to uint32) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: l, Character: from}, End: protocol.Position{Line: l, Character: to}}
	}
	for uri, edits := range rename("Varn Dorn") {
		for _, e := range edits {
			if e.Range == line(7, 0, 4) || uri == ebb {
				assert.Equal(t, "Varn", e.NewText, "Ilse alone, her given name, is given the new one")
			} else {
				assert.Equal(t, "Varn Dorn", e.NewText)
			}
			byFile[uri] = append(byFile[uri], e.Range)
		}
	}
	assert.ElementsMatch(t, []protocol.Range{line(2, 6, 15), line(5, 2, 11), line(7, 0, 4)}, byFile[seriesIlse], "the series file's name, heading and given name, once each")
	assert.Equal(t, []protocol.Range{line(2, 9, 18)}, byFile[textdoc.PathURI(filepath.Join(one, "manuscript", "01-harbor.md"))])
	assert.Equal(t, []protocol.Range{line(2, 9, 18)}, byFile[textdoc.PathURI(filepath.Join(two, "manuscript", "01-rising.md"))], "the other book of the series")
	assert.Equal(t, []protocol.Range{line(2, 0, 4)}, byFile[ebb], "the other book's chapter that calls her Ilse")
	assert.Len(t, byFile, 4)
	c.waitMessage("Renamed Ilse Dorn to Varn Dorn in 6 places in 4 files. 2 places that called Ilse Dorn “Ilse” alone now say “Varn”.")

	// A new name with no given name leaves those places, and says how
	// many there are in the whole series, the series file counted once.
	assert.NotContains(t, rename("Captain Dorn"), ebb)
	c.waitMessage("Renamed Ilse Dorn to Captain Dorn in 4 places in 3 files. 2 places calling Ilse Dorn “Ilse” alone are left as written: Captain Dorn has no first name quire finds alone, so add “Ilse” as an alias if they still mean Captain Dorn.")
}
