package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/textdoc"
)

// seriesProgressionBook writes a series whose Mara has progressions and
// a trusted book that overrides her with progressions of its own.
func seriesProgressionBook(t *testing.T) (book, seriesMara, trustFile string) {
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
		"one/manuscript/03-wake.md":  "# Wake\n\n“Come,” said Mara.\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	book = filepath.Join(base, "one")
	trustFile = filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, book)
	return book, filepath.Join(base, "tideward", "codex", "characters", "mara.md"), trustFile
}

// Hover as of a chapter, and the continuity checks, read the series'
// progressions of an entry the book overrides, the book's on top.
func TestSeriesProgressionsUnderTheBookOverTheProtocol(t *testing.T) {
	book, seriesMara, trustFile := seriesProgressionBook(t)
	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	c.initialize(book)

	for _, tc := range []struct {
		rel  string
		has  []string
		hasn []string
	}{
		{"manuscript/01-north.md", []string{"*role:* Deckhand", "In this book she sails north."}, []string{"*role:* Captain"}},
		// Story order: the series' chapter 2 follows the book's chapter 1.
		{"manuscript/02-gull.md", []string{"*role:* Captain", "Takes the Gull.", "series canon"}, []string{"*role:* Deckhand"}},
		// The same chapter, the same field: the book's wins.
		{"manuscript/03-wake.md", []string{"*role:* Ghost", "*Status:* dead", `\(role: Admiral, status: dead, series canon\)`}, []string{"*role:* Admiral"}},
	} {
		h := c.hoverAt(tc.rel, 2, 0)
		if tc.rel == "manuscript/03-wake.md" {
			h = c.hoverAt(tc.rel, 2, 14)
		}
		require.NotNil(t, h, tc.rel)
		for _, s := range tc.has {
			assert.Contains(t, h.Contents.Value, s, tc.rel)
		}
		for _, s := range tc.hasn {
			assert.NotContains(t, h.Contents.Value, s, tc.rel)
		}
	}

	rel := "manuscript/03-wake.md"
	text, err := os.ReadFile(filepath.Join(book, rel))
	require.NoError(t, err)
	c.open(rel, string(text))
	ds := continuityOnly(c.waitDiagnostics(c.uri(rel), "Mara is dead from chapter 3 by the series", hasCode(continuity.CodeAfterDeath)))
	death := ds[continuity.CodeAfterDeath]
	require.Len(t, death, 1)
	assert.Contains(t, death[0].Message, "dead from chapter 3")
	require.Len(t, death[0].RelatedInformation, 1)
	assert.Equal(t, textdoc.PathURI(seriesMara), death[0].RelatedInformation[0].Location.URI, "the progression is in the series file")
	assert.Equal(t, protocol.Position{Line: 9, Character: 4}, death[0].RelatedInformation[0].Location.Range.Start)
}
