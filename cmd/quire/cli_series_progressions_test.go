package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

// progressionShelf is a series whose Mara has progressions and a book
// that overrides her with progressions of its own.
func progressionShelf(t *testing.T) (base, book string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for rel, text := range map[string]string{
		"tideward/codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\naliases: [Mara]\nrole: Smuggler\n" +
			"progressions:\n  - from: 2\n    role: Captain\n    note: Takes the Gull.\n  - from: 3\n    role: Admiral\n    status: dead\n---\n# Mara Vell\n",
		"one/quire.yaml": "series: ../tideward\n",
		"one/codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\noverrides: Mara Vell\nsummary: In this book she sails north.\n" +
			"progressions:\n  - from: 1\n    role: Deckhand\n  - from: 3\n    role: Ghost\n---\n",
		"one/manuscript/01-north.md": "# North\n\nMara coiled the rope.\n",
		"one/manuscript/02-gull.md":  "# Gull\n\nMara took the helm.\n",
		"one/manuscript/03-wake.md":  "# Wake\n\nMara said nothing.\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return base, filepath.Join(base, "one")
}

// A book entry over a series entry keeps the series' progressions, its
// own applying on top: in story order, the book's winning a field both
// set from the same chapter; and the output says which come from the
// series.
func TestSeriesProgressionsUnderTheBooks(t *testing.T) {
	testhome.ConfigDir(t)
	base, book := progressionShelf(t)
	_, _, err := run(t, "trust", book)
	require.NoError(t, err)
	seriesMara := filepath.Join(base, "tideward", "codex", "characters", "mara.md")
	cache := "--cache-dir=" + filepath.Join(t.TempDir(), "cache")

	for _, tc := range []struct {
		asOf, role, status string
		series             []string // seriesPath of each applied progression
	}{
		{"1", "Deckhand", "", []string{""}},
		{"2", "Captain", "", []string{"", seriesMara}},
		{"3", "Ghost", "dead", []string{"", seriesMara, seriesMara, ""}},
	} {
		out, errOut, err := run(t, "lookup", "--project", book, cache, "--json", "--as-of", tc.asOf, "Mara")
		require.NoError(t, err, errOut)
		var got asOfOutput
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		assert.Equal(t, "In this book she sails north.", got.Entry.Summary, tc.asOf)
		fields := map[string]string{}
		for _, f := range got.Fields {
			fields[f.Key] = f.Value
		}
		assert.Equal(t, tc.role, fields["role"], "chapter %s", tc.asOf)
		if tc.status != "" {
			assert.Equal(t, tc.status, got.Status, "chapter %s", tc.asOf)
		}
		var files []string
		for _, a := range got.Applied {
			files = append(files, a.File)
		}
		assert.Equal(t, tc.series, files, "chapter %s", tc.asOf)
	}

	out, errOut, err := run(t, "lookup", "--project", book, cache, "--as-of", "2", "Mara")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, `from chapter 2, "Gull" (role: Captain, note, series canon)`)
	assert.Contains(t, out, "note: Takes the Gull.")

	// The continuity checks read the series' death under the book's entry.
	out, _, _ = run(t, "check", "--project", book, cache, "--json")
	assert.Contains(t, out, "after-death", out)
	assert.Contains(t, out, "dead from chapter 3")
}
