package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/codex/testhome"
)

// seriesShelf writes two small books of one series and the series folder
// beside them, with a file outside all three that a symlink in the series
// points at, and returns the folder holding them.
func seriesShelf(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	files := map[string]string{
		"tideward/codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler of the Tideward coast.\nrole: Protagonist\n---\n# Mara Vell\n\nMara grew up on the salt flats.\n",
		"tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor.\n",
		"tideward/codex/locations/tide.md":  "---\ntype: location\nname: Tideward\nsummary: The drowned city.\n---\n# Tideward\n\nA city under the sea.\n",
		"outside/secret.md":                 "---\ntype: character\nname: Secret Agent\n---\n# Secret Agent\n",

		"one/quire.yaml":               "title: Book One\nseries: ../tideward\n",
		"one/codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\noverrides: Mara Vell\nsummary: Older now, and retired.\n---\n",
		"one/manuscript/01-harbor.md":  "# Harbor\n\nMara met Ilse Dorn at the harbor of Tideward.\n",

		"two/quire.yaml":              "title: Book Two\nseries: ../tideward\n",
		"two/codex/locations/tide.md": "---\ntype: location\nname: Tideward\nstatus: tentative\n---\n# Tideward\n\nIn this book the city has risen.\n",
		"two/manuscript/01-rising.md": "# Rising\n\nIlse Dorn watched Tideward rise.\n",
		"three/quire.yaml":            "series: ..\n",
		"three/manuscript/01-a.md":    "# A\n\nNobody.\n",
	}
	for rel, text := range files {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	// Links out of the series, which its canon must not follow. Where the
	// system makes no links the shelf has none, and says so: the rest of
	// each series test still runs there.
	if why := linktest.Unsupported(); why != "" {
		t.Logf("no links out of the series made (%s); their confinement is tested where links exist", why)
		return base
	}
	linktest.Symlink(t, filepath.Join(base, "outside"), filepath.Join(base, "tideward", "codex", "escape"))
	linktest.Symlink(t, filepath.Join(base, "outside", "secret.md"), filepath.Join(base, "tideward", "codex", "characters", "secret.md"))
	return base
}

// lookupJSON runs quire lookup --json in book and returns its results.
func lookupJSON(t *testing.T, book, name string) ([]codex.Result, string) {
	t.Helper()
	out, errOut, _ := run(t, "lookup", "--json", "--project", book, "--cache-dir="+filepath.Join(t.TempDir(), "cache"), name)
	var q queryOutput
	require.NoError(t, json.Unmarshal([]byte(out), &q), out+errOut)
	return q.Results, errOut
}

func TestSeriesCanonReachesEveryBookOnceTrusted(t *testing.T) {
	testhome.ConfigDir(t)
	base := seriesShelf(t)
	one, two := filepath.Join(base, "one"), filepath.Join(base, "two")

	// Untrusted: the series is not read, and the writer is told why and
	// what to do.
	rs, errOut := lookupJSON(t, one, "Ilse Dorn")
	assert.Empty(t, rs, "an untrusted book does not read its series")
	assert.Contains(t, errOut, "series: ../tideward")
	assert.Contains(t, errOut, "quire trust "+one)

	out, _, err := run(t, "trust", one)
	require.NoError(t, err)
	assert.Contains(t, out, "read the series canon in the folder ../tideward")
	_, _, err = run(t, "trust", two)
	require.NoError(t, err)

	// A fact set in the series shows in both books.
	for _, book := range []string{one, two} {
		rs, errOut := lookupJSON(t, book, "Ilse Dorn")
		require.NotEmpty(t, rs, errOut)
		assert.Equal(t, "Harbor master of Tideward.", rs[0].Summary)
		assert.Equal(t, codex.CanonSeries, rs[0].Canon)
		assert.Equal(t, filepath.Join(base, "tideward"), rs[0].ProjectPath)
		assert.Equal(t, "codex/characters/ilse.md", rs[0].RelativePath)
		assert.NotContains(t, errOut, "quire trust")
	}

	// A book's override shows only in that book, the series filling what
	// it leaves out.
	rs, _ = lookupJSON(t, one, "Mara")
	require.NotEmpty(t, rs)
	assert.Equal(t, "Older now, and retired.", rs[0].Summary)
	assert.Equal(t, codex.CanonBookOverSeries, rs[0].Canon)
	assert.Equal(t, []string{"Mara"}, rs[0].Aliases)
	assert.Contains(t, rs[0].Excerpt, "salt flats")
	rs, _ = lookupJSON(t, two, "Mara")
	require.NotEmpty(t, rs)
	assert.Equal(t, "Smuggler of the Tideward coast.", rs[0].Summary)
	assert.Equal(t, codex.CanonSeries, rs[0].Canon)

	// list reads both roots, and nothing outside them.
	out, errOut, err = run(t, "list", "--project", one, "--cache-dir="+t.TempDir())
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "Ilse Dorn")
	assert.Contains(t, out, "Tideward")
	assert.NotContains(t, out, "Secret Agent", "a symlink out of the series folder is not followed")

	// search reads both indexes.
	out, errOut, err = run(t, "search", "--project", two, "--cache-dir="+t.TempDir(), "harbor master")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "Ilse Dorn")

	// mentions find series names in the chapters.
	out, errOut, err = run(t, "mentions", "--json", "--project", one, "--cache-dir="+t.TempDir())
	require.NoError(t, err, errOut)
	var table mentionsTableOutput
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	var names []string
	for _, e := range table.Entries {
		names = append(names, e.Name)
	}
	assert.ElementsMatch(t, []string{"Mara Vell", "Ilse Dorn", "Tideward"}, names)

	// The text a writer reads says which canon an entry is.
	out, _, err = run(t, "lookup", "--project", two, "--cache-dir="+t.TempDir(), "Ilse Dorn")
	require.NoError(t, err)
	assert.Contains(t, out, "Series canon: "+filepath.Join(base, "tideward", "codex", "characters", "ilse.md"))
	out, _, err = run(t, "lookup", "--project", one, "--cache-dir="+t.TempDir(), "Mara")
	require.NoError(t, err)
	assert.Contains(t, out, "This book's entry over the series canon (")

	// context reads the chapters as before.
	out, _, err = run(t, "context", "--project", two, "1")
	require.NoError(t, err)
	assert.Contains(t, out, "Ilse Dorn watched Tideward rise.")
}

func TestSeriesCheckWarnsOfAShadowingEntry(t *testing.T) {
	testhome.ConfigDir(t)
	base := seriesShelf(t)
	two := filepath.Join(base, "two")
	_, _, err := run(t, "trust", two)
	require.NoError(t, err)
	out, errOut, _ := run(t, "check", "--project", two, "--cache-dir="+t.TempDir())
	assert.Contains(t, out, "codex/locations/tide.md:3:7: warning: this entry has the name of the series entry "+
		filepath.Join(base, "tideward", "codex/locations/tide.md")+" and replaces it in this book; add `overrides: Tideward` to say so", errOut)
	assert.NotContains(t, out, "one/", "the other book's files are not read")
}

func TestSeriesOutsideTheTwoRootsIsRefused(t *testing.T) {
	testhome.ConfigDir(t)
	base := seriesShelf(t)
	three := filepath.Join(base, "three")
	_, _, err := run(t, "trust", three)
	require.NoError(t, err)
	out, errOut, err := run(t, "list", "--project", three, "--cache-dir="+t.TempDir())
	require.NoError(t, err)
	assert.Contains(t, errOut, "holds the book itself")
	assert.NotContains(t, out, "Mara Vell", "series: .. reads neither the parent folder nor the other books")
	assert.NotContains(t, out, "Secret Agent")

	bad := filepath.Join(base, "one")
	require.NoError(t, os.WriteFile(filepath.Join(bad, "quire.yaml"), []byte("series: [a, b]\n"), 0o644))
	out, _, err = run(t, "check", "--project", bad, "--cache-dir="+t.TempDir())
	require.Error(t, err)
	assert.Contains(t, out, "quire.yaml:1:9: error: series must be the path of the series folder")
}
