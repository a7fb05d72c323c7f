package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// seriesOfTwoBooks writes a series whose Ilse Dorn links to no entry
// (in either book) and has two progressions, one from chapter 2 (which
// only book two has) and one from chapter 9 (which neither has). Book
// one is titled The Salt Road; book two, known by its folder, has an
// entry whose alias is Ilse Dorn, and an entry that takes a series
// entry's name without saying `overrides:`. Both books are open in one
// trusted session.
func seriesOfTwoBooks(t *testing.T) (c *testClient, ilse, one, two string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for rel, text := range map[string]string{
		"tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master.\n" +
			"progressions:\n  - from: 2\n    role: Exile\n  - from: 9\n    role: Ghost\n---\n# Ilse Dorn\n\nIlse keeps the harbor. See [[Nobody Here]].\n",
		"tideward/codex/locations/city.md": "---\ntype: location\nname: Tideward\nsummary: The drowned city.\n---\n# Tideward\n",
		"one/quire.yaml":                   "title: The Salt Road\nseries: ../tideward\n",
		"one/manuscript/01-harbor.md":      "# Harbor\n\nIlse Dorn waited.\n",
		"two/quire.yaml":                   "series: ../tideward\n",
		"two/manuscript/01-rising.md":      "# Rising\n\nIlse Dorn waited.\n",
		"two/manuscript/02-exile.md":       "# Exile\n\nIlse Dorn left.\n",
		"two/codex/characters/harbor.md":   "---\ntype: character\nname: The Harbor Master\naliases: [Ilse Dorn]\n---\n# The Harbor Master\n",
		"two/codex/locations/city.md":      "---\ntype: location\nname: Tideward\n---\n# Tideward\n\nRisen again.\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	one, two = filepath.Join(base, "one"), filepath.Join(base, "two")
	c = openTwoBooks(t, one, two)
	return c, filepath.Join(base, "tideward", "codex", "characters", "ilse.md"), one, two
}

// openTwoBooks trusts the books one and two and opens them in one
// session, as one workspace's two folders.
func openTwoBooks(t *testing.T, one, two string) *testClient {
	t.Helper()
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, one)
	grantTrust(t, trustFile, two)
	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{
			{URI: string(textdoc.PathURI(one)), Name: "one"},
			{URI: string(textdoc.PathURI(two)), Name: "two"},
		},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	return c
}

// A problem of a series file that only one of the open books finds says
// which book, by its title or else its folder, and points at what in
// that book causes it; a problem both books find names neither.
func TestSeriesFileProblemsSayWhichBook(t *testing.T) {
	c, ilse, one, two := seriesOfTwoBooks(t)
	byMessage := func(ds []protocol.Diagnostic, part string) (protocol.Diagnostic, bool) {
		for _, d := range ds {
			if strings.Contains(d.Message, part) {
				return d, true
			}
		}
		return protocol.Diagnostic{}, false
	}
	ds := c.waitDiagnostics(textdoc.PathURI(ilse), "the series file's problems, from both books", func(ds []protocol.Diagnostic) bool {
		_, dup := byMessage(ds, "is also the alias")
		_, from2 := byMessage(ds, "`from: 2`")
		return len(ds) == 4 && dup && from2
	})

	for _, tc := range []struct {
		name, part, code, book string
	}{
		{"a link to no entry of either book", "Nobody Here", codex.CodeBrokenLink, ""},
		{"a chapter neither book has", "`from: 9`", codex.CodeProgression, ""},
		{"a chapter book two has and The Salt Road lacks", "`from: 2`", codex.CodeProgression, "The Salt Road"},
		{"a name book two's own entry claims too", "is also the alias", codex.CodeDuplicateName, "two"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := byMessage(ds, tc.part)
			require.True(t, ok, "%q among %v", tc.part, ds)
			assert.Equal(t, tc.code, d.Code)
			if tc.book == "" {
				assert.NotContains(t, d.Message, "(in the book", "both books find it: it is the series file's own")
				assert.Empty(t, d.RelatedInformation)
				return
			}
			assert.True(t, strings.HasSuffix(d.Message, " (in the book "+tc.book+")"), d.Message)
			assert.NotContains(t, d.Message, "(in the book one)", "a titled book goes by its title")
		})
	}

	// What in the book causes it.
	d, _ := byMessage(ds, "`from: 2`")
	require.Len(t, d.RelatedInformation, 1)
	assert.Equal(t, textdoc.PathURI(filepath.Join(one, "quire.yaml")), d.RelatedInformation[0].Location.URI)
	assert.Equal(t, protocol.Range{Start: position(1, 0), End: position(1, 6)}, d.RelatedInformation[0].Location.Range)
	assert.Contains(t, d.RelatedInformation[0].Message, "The Salt Road reads the series against its own 1 chapter")
	d, _ = byMessage(ds, "is also the alias")
	require.Len(t, d.RelatedInformation, 1)
	assert.Equal(t, textdoc.PathURI(filepath.Join(two, "codex", "characters", "harbor.md")), d.RelatedInformation[0].Location.URI)
	assert.Equal(t, protocol.Range{Start: position(3, 10), End: position(3, 19)}, d.RelatedInformation[0].Location.Range)
	assert.Contains(t, d.RelatedInformation[0].Message, `the alias "Ilse Dorn" of The Harbor Master`)

	// The book's entry that takes the series' Tideward keeps its warning;
	// the series file shows none.
	c.root = two
	shadow := c.waitDiagnostics(c.uri("codex/locations/city.md"), "the shadow warning on book two's entry", hasCode(codex.CodeSeriesShadow))
	assert.Len(t, shadow, 1)
	city, ok := c.latestDiagnostics(textdoc.PathURI(filepath.Join(filepath.Dir(filepath.Dir(ilse)), "locations", "city.md")))
	if ok {
		assert.Empty(t, city.Diagnostics)
	}

	// Book two's entry lets go of the name: the duplicate is gone, and
	// the problem of book one alone still names it. (A codex change, not
	// a new chapter: the watcher's first look catches up the codex only.)
	require.NoError(t, os.WriteFile(filepath.Join(two, "codex", "characters", "harbor.md"),
		[]byte("---\ntype: character\nname: The Harbor Master\n---\n# The Harbor Master\n"), 0o644))
	ds = c.waitDiagnostics(textdoc.PathURI(ilse), "the duplicate gone", func(ds []protocol.Diagnostic) bool {
		_, dup := byMessage(ds, "is also the alias")
		return len(ds) == 3 && !dup
	})
	d, _ = byMessage(ds, "`from: 2`")
	assert.True(t, strings.HasSuffix(d.Message, " (in the book The Salt Road)"), d.Message)
}
