package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// seriesIlseText is the series' Ilse Dorn with links and a name in her
// body: line 7 links [[Mara Vell]] (characters 28-37) and [[Tideward]]
// (46-54), line 9 names Mara.
const seriesIlseText = "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\n" +
	"Ilse keeps the harbor for [[Mara Vell]] and [[Tideward]].\n\nMara calls on her at dusk.\n"

// openBooksInOrder opens the books of base named in order as one
// workspace's folders, trusting those in trusted, and waits until each
// trusted one has loaded and found its chapters' mentions (a hover in
// its chapter lists where the name appears).
func openBooksInOrder(t *testing.T, base string, order, trusted []string) *testClient {
	t.Helper()
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	for _, name := range trusted {
		grantTrust(t, trustFile, filepath.Join(base, name))
	}
	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	var folders []protocol.WorkspaceFolder
	for _, name := range order {
		folders = append(folders, protocol.WorkspaceFolder{URI: string(textdoc.PathURI(filepath.Join(base, name))), Name: name})
	}
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{WorkspaceFolders: folders}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	chapters := map[string]string{"one": "manuscript/01-harbor.md", "two": "manuscript/01-rising.md"}
	for _, name := range trusted {
		c.root = filepath.Join(base, name)
		c.hoverSays(chapters[name], 2, 1, "*Appears in:*")
	}
	c.root = base
	return c
}

// A writer who went to a series file asks there what they ask in a
// book's codex file: the card of a name or [[link]], and where it is
// defined. The first book of the workspace that reads the series
// answers, with its own overrides.
func TestSeriesFileAnswersFromTheFirstBook(t *testing.T) {
	ilse := "tideward/codex/characters/ilse.md"
	seriesMara := "tideward/codex/characters/mara.md"
	seriesCity := "tideward/codex/locations/city.md"
	type want struct {
		says, saysNot []string
		// defs are the files definition goes to, links those the
		// card's [[links]] open, relative to the workspace's folder.
		defs, links []string
	}
	for _, tc := range []struct {
		name  string
		order []string
		// at each place of the series file: what hover and definition say.
		mara, maraLink, cityLink, heading want
	}{
		{
			name:  "book one first",
			order: []string{"one", "two"},
			mara: want{says: []string{"**Mara Vell**", "Older now, and retired.", "*This book's entry over the series canon*"},
				defs: []string{"one/codex/characters/mara.md", seriesMara}},
			maraLink: want{says: []string{"Older now, and retired.", "from the series: aliases, body, role"},
				defs: []string{"one/codex/characters/mara.md", seriesMara}},
			cityLink: want{says: []string{"**Tideward**", "The drowned city.", "*Series canon:* [tideward/codex/locations/city.md]"},
				saysNot: []string{"Risen again"}, defs: []string{seriesCity}},
			heading: want{says: []string{"**Ilse Dorn**", "Harbor master of Tideward.", "*Series canon:*", "*Appears in:* 1. Harbor (1)"},
				defs: []string{ilse}, links: []string{"one/codex/characters/mara.md", seriesCity}},
		},
		{
			name:  "book two first",
			order: []string{"two", "one"},
			mara: want{says: []string{"Smuggler of the Tideward coast.", "*Series canon:* [tideward/codex/characters/mara.md]"},
				saysNot: []string{"Older now"}, defs: []string{seriesMara}},
			maraLink: want{says: []string{"Smuggler of the Tideward coast."}, saysNot: []string{"Older now"},
				defs: []string{seriesMara}},
			cityLink: want{says: []string{"Risen again.", "*This book's entry over the series canon*"},
				defs: []string{"two/codex/locations/city.md", seriesCity}},
			heading: want{says: []string{"**Ilse Dorn**", "*Appears in:* 1. Rising (1)"}, defs: []string{ilse},
				links: []string{seriesMara, "two/codex/locations/city.md"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := seriesWorkspace(t)
			require.NoError(t, os.WriteFile(filepath.Join(base, filepath.FromSlash(ilse)), []byte(seriesIlseText), 0o644))
			lamp := filepath.Join(base, "tideward", "codex", "items", "lamp.md")
			require.NoError(t, os.MkdirAll(filepath.Dir(lamp), 0o755))
			require.NoError(t, os.WriteFile(lamp, []byte("---\nname: Storm Lamp\n---\n# Storm Lamp\n\nLit by [[Ilse Dorn|the harbor master]] each night.\n"), 0o644))
			c := openBooksInOrder(t, base, tc.order, []string{"one", "two"})
			for _, at := range []struct {
				what       string
				line, char uint32
				want       want
			}{
				{"the name Mara", 9, 1, tc.mara},
				{"[[Mara Vell]]", 7, 30, tc.maraLink},
				{"[[Tideward]]", 7, 48, tc.cityLink},
				{"the heading", 5, 4, tc.heading},
			} {
				h := c.hoverAt(ilse, at.line, at.char)
				require.NotNil(t, h, at.what)
				for _, s := range at.want.says {
					assert.Contains(t, h.Contents.Value, s, at.what)
				}
				for _, s := range at.want.saysNot {
					assert.NotContains(t, h.Contents.Value, s, at.what)
				}
				assert.NotContains(t, h.Contents.Value, "As of", "%s: a series file is no chapter", at.what)
				for _, l := range at.want.links {
					assert.Contains(t, h.Contents.Value, "("+string(c.uri(l))+")", "%s: a link of the card", at.what)
				}
				var got []protocol.DocumentURI
				for _, l := range c.definitionAt(ilse, at.line, at.char) {
					got = append(got, l.URI)
				}
				var defs []protocol.DocumentURI
				for _, d := range at.want.defs {
					defs = append(defs, c.uri(d))
				}
				assert.Equal(t, defs, got, "definition of %s", at.what)
			}
			assert.Nil(t, c.hoverAt(ilse, 7, 10), "no name at 'harbor'")

			// An entry whose type its folder gives (no type: in its front
			// matter): its links answer too.
			c.hoverSays("tideward/codex/items/lamp.md", 5, 25, "**Ilse Dorn**")
		})
	}
}

// The other read-only requests of a codex file answer in a series file:
// completion of [[ names from the book's canon, the outline, references;
// on the editor's unsaved text.
func TestSeriesFileCompletionOutlineReferences(t *testing.T) {
	base := seriesWorkspace(t)
	c := openBooksInOrder(t, base, []string{"one", "two"}, []string{"one", "two"})
	ilse := "tideward/codex/characters/ilse.md"
	text := "---\ntype: character\nname: Ilse Dorn\n---\n# Ilse Dorn\n\n## Kin\n\nSister of [[Ma\n"
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: c.uri(ilse), LanguageID: "markdown", Version: 2, Text: text},
	})

	var list protocol.CompletionList
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(ilse)},
			Position:     position(8, 14),
		},
	}, &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	assert.Equal(t, []string{"Mara Vell", "Mara"}, labels)

	var syms []protocol.DocumentSymbol
	c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(ilse)},
	}, &syms)
	require.Len(t, syms, 1)
	assert.Equal(t, "Ilse Dorn", syms[0].Name)
	require.Len(t, syms[0].Children, 1)
	assert.Equal(t, "Kin", syms[0].Children[0].Name)

	var refs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(ilse)},
			Position:     position(4, 4),
		},
		Context: protocol.ReferenceContext{IncludeDeclaration: true},
	}, &refs)
	var uris []protocol.DocumentURI
	for _, l := range refs {
		uris = append(uris, l.URI)
	}
	assert.Contains(t, uris, c.uri("one/manuscript/01-harbor.md"), "the first book's chapter")
	assert.Equal(t, c.uri(ilse), uris[0], "the declaration in the series file")
}

// Only a series an open, trusted book reads is answered, and only its
// own files: not a sibling folder whose name begins as the series'
// does, not a file that lies in the series by name but links out of it.
// A name that reaches the series through a link to its folder is the
// series' file.
func TestSeriesFileConfinement(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []string
		file    string
		answers bool
	}{
		{"a series file", []string{"one"}, "tideward/codex/characters/ilse.md", true},
		{"through a link to the series folder", []string{"one"}, "series-link/codex/characters/ilse.md", true},
		{"an untrusted book's series", nil, "tideward/codex/characters/ilse.md", false},
		{"a sibling whose name begins as the series'", []string{"one"}, "tideward-old/codex/characters/ilse.md", false},
		{"a link in the series to a file outside it", []string{"one"}, "tideward/codex/characters/away.md", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := seriesWorkspace(t)
			for _, dir := range []string{"tideward-old/codex/characters", "elsewhere"} {
				require.NoError(t, os.MkdirAll(filepath.Join(base, filepath.FromSlash(dir)), 0o755))
			}
			for _, rel := range []string{"tideward/codex/characters/ilse.md", "tideward-old/codex/characters/ilse.md", "elsewhere/away.md"} {
				require.NoError(t, os.WriteFile(filepath.Join(base, filepath.FromSlash(rel)), []byte(seriesIlseText), 0o644))
			}
			linktest.Symlink(t, filepath.Join(base, "elsewhere", "away.md"), filepath.Join(base, "tideward", "codex", "characters", "away.md"))
			linktest.Symlink(t, filepath.Join(base, "tideward"), filepath.Join(base, "series-link"))

			trustFile := filepath.Join(t.TempDir(), "trust.json")
			for _, name := range tc.trusted {
				grantTrust(t, trustFile, filepath.Join(base, name))
			}
			c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
			c.initialize(filepath.Join(base, "one"))
			if tc.trusted != nil {
				c.hoverSays("manuscript/01-harbor.md", 2, 12, "*Series canon:*")
			} else {
				// Loaded, without its series: only the book's own Mara.
				var found json.RawMessage
				c.call("quire/lookup", map[string]any{"name": "Mara Vell"}, &found)
				require.Contains(t, string(found), "Older now")
				require.NotContains(t, string(found), "series canon")
			}
			c.root = base
			h := c.hoverAt(tc.file, 7, 30)
			defs := c.definitionAt(tc.file, 7, 30)
			if !tc.answers {
				assert.Nil(t, h)
				assert.Empty(t, defs)
				return
			}
			require.NotNil(t, h)
			assert.Contains(t, h.Contents.Value, "Older now, and retired.")
			require.Len(t, defs, 2)
			assert.Equal(t, c.uri("one/codex/characters/mara.md"), defs[0].URI)
			assert.Equal(t, c.uri("tideward/codex/characters/mara.md"), defs[1].URI, "the series file at its real path")
		})
	}
}

// Renaming a series entry from its series file is the rename a chapter
// asks for: one edit, for the writer to review, over the series file and
// every open book of the series.
func TestSeriesFileRename(t *testing.T) {
	c, base, one, _ := openSeriesBooks(t, nil)
	c.root = one
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "*Series canon:*")
	rename := func(uri protocol.DocumentURI, at protocol.Position) map[protocol.DocumentURI][]protocol.TextEdit {
		var edit workspaceEdit
		c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: at},
			NewName:                    "Varn Dorn",
		}, &edit)
		return edit.Changes
	}
	ilse := textdoc.PathURI(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"))
	fromChapter := rename(c.uri("manuscript/01-harbor.md"), position(2, 12))
	require.Len(t, fromChapter, 4, "the series file and both books' chapters, one of them for her given name alone")
	fromSeries := rename(ilse, position(5, 4))
	require.Len(t, fromSeries, 4)
	for uri, edits := range fromChapter {
		assert.ElementsMatch(t, edits, fromSeries[uri], uri)
	}

	var prep prepareRenameResult
	c.call(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: ilse}, Position: position(5, 4)},
	}, &prep)
	assert.Equal(t, "Ilse Dorn", prep.Placeholder)
	assert.Equal(t, protocol.Range{Start: position(5, 2), End: position(5, 11)}, prep.Range)

	// The series file open in the editor with unsaved changes: its
	// places in the rename are the saved file's, so the rename is
	// refused until it is saved; once the editor's text is the saved
	// one again, it goes ahead.
	saved, err := os.ReadFile(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"))
	require.NoError(t, err)
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: ilse, LanguageID: "markdown", Version: 1, Text: "Unsaved lines above.\n" + string(saved)},
	})
	err = c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-harbor.md")}, Position: position(2, 12)},
		NewName:                    "Varn Dorn",
	}, &json.RawMessage{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "save ilse.md first")
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": ilse, "version": 2},
		"contentChanges": []map[string]any{{"text": string(saved)}},
	})
	assert.Len(t, rename(c.uri("manuscript/01-harbor.md"), position(2, 12)), 4, "saved again, the rename goes ahead")

	// Book one, which answers, has its own Mara over the series': a
	// rename in the series file would rename that entry, not the one
	// the writer is in, so it is refused with the reason.
	mara := textdoc.PathURI(filepath.Join(base, "tideward", "codex", "characters", "mara.md"))
	for _, method := range []string{protocol.MethodTextDocumentPrepareRename, protocol.MethodTextDocumentRename} {
		err := c.callErr(method, protocol.RenameParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: mara}, Position: position(7, 4)},
			NewName:                    "Mara Kell",
		}, &json.RawMessage{})
		require.Error(t, err, method)
		assert.Contains(t, err.Error(), "the book one has its own entry for Mara Vell over the series' (codex/characters/mara.md)", method)
	}
}

// quire/status names the series folder each book reads, so a plugin
// that starts one session per book sends the series' files to a book's
// session; an untrusted book reads none.
func TestStatusNamesTheSeries(t *testing.T) {
	base := seriesWorkspace(t)
	c := openBooksInOrder(t, base, []string{"one", "two"}, []string{"one"})
	series := map[string]string{}
	entries := map[string]int{}
	require.Eventually(t, func() bool {
		var res wire.StatusResult
		c.call(wire.MethodStatus, map[string]any{}, &res)
		for _, b := range res.Books {
			if b.State == "loading" {
				return false
			}
			series[filepath.Base(b.Root)] = b.Series
			entries[filepath.Base(b.Root)] = b.Entries
		}
		return len(res.Books) == 2
	}, 10*time.Second, 20*time.Millisecond, "both books loaded")
	assert.Equal(t, map[string]string{"one": filepath.Join(base, "tideward"), "two": ""}, series)
	// Book one reads the series' three entries, its own Mara over the
	// series'; book two, untrusted, only its own.
	assert.Equal(t, map[string]int{"one": 3, "two": 1}, entries)
}

// An editor started in the series folder opens it as a book of its own
// (it has a codex/), which knows none of a book's entries. Once a
// chapter of a book that reads the series is opened and that book has
// loaded, the series' files answer as the book's series canon, and a
// problem only the series read alone had (a link to the book's entry)
// is gone from them.
func TestSeriesFolderOpenedFirstGivesWayToTheBook(t *testing.T) {
	base := seriesWorkspace(t)
	one := filepath.Join(base, "one")
	ilse := "tideward/codex/characters/ilse.md"
	for rel, text := range map[string]string{
		ilse:                               "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse answers to [[Harbor Watch]].\n",
		"one/codex/organizations/watch.md": "---\ntype: organization\nname: Harbor Watch\nsummary: The book's own watch.\n---\n# Harbor Watch\n",
	} {
		path := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, one)
	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	c.initialize(filepath.Join(base, "tideward"))
	c.root = base
	broken := func(ds []protocol.Diagnostic) bool {
		return slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return strings.Contains(d.Message, "Harbor Watch") })
	}
	c.waitDiagnostics(c.uri(ilse), "the series alone knows no Harbor Watch", broken)
	h := c.hoverAt(ilse, 5, 4)
	require.NotNil(t, h, "the series folder answers as a book of its own")
	assert.NotContains(t, h.Contents.Value, "Series canon")

	chapter, err := os.ReadFile(filepath.Join(one, "manuscript", "01-harbor.md"))
	require.NoError(t, err)
	c.open("one/manuscript/01-harbor.md", string(chapter))
	require.Eventually(t, func() bool {
		h := c.hoverAt(ilse, 5, 4)
		return h != nil && strings.Contains(h.Contents.Value, "Series canon")
	}, 10*time.Second, 20*time.Millisecond, "the series file answers as book one's series canon")
	c.waitDiagnostics(c.uri(ilse), "book one knows its Harbor Watch", func(ds []protocol.Diagnostic) bool { return !broken(ds) })
}

// Workspace symbols list the series' entries too, at their files in the
// series folder, once however many open books read the series; a book's
// own entry of the same name is listed at its own file.
func TestWorkspaceSymbolsListTheSeries(t *testing.T) {
	base := seriesWorkspace(t)
	c := openBooksInOrder(t, base, []string{"one", "two"}, []string{"one", "two"})
	symbols := func(query string) map[protocol.DocumentURI]string {
		var got []protocol.SymbolInformation
		c.call(protocol.MethodWorkspaceSymbol, protocol.WorkspaceSymbolParams{Query: query}, &got)
		out := map[protocol.DocumentURI]string{}
		for _, s := range got {
			_, dup := out[s.Location.URI]
			assert.False(t, dup, "%s listed twice", s.Location.URI)
			out[s.Location.URI] = s.Name
		}
		return out
	}
	ilse := textdoc.PathURI(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"))
	assert.Equal(t, map[protocol.DocumentURI]string{ilse: "Ilse Dorn"}, symbols("Ilse"))
	city := symbols("Tideward")
	for _, book := range []string{"tideward", "two"} {
		assert.Equal(t, "Tideward", city[textdoc.PathURI(filepath.Join(base, book, "codex", "locations", "city.md"))],
			"book one reads the series' city, book two its own over it")
	}
	assert.Equal(t, "Ilse Dorn", symbols("")[ilse])
}
