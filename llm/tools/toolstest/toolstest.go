// Package toolstest is the small book the tests of the advisor's tools
// (llm/tools) and of its turn (llm) read: a codex of every entry type, a
// manuscript of three chapters, and files no tool may reach.
package toolstest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// EntryFile is a codex entry's text: its front matter, then body.
func EntryFile(frontMatter, body string) string {
	return "---\n" + strings.TrimSpace(frontMatter) + "\n---\n" + body
}

// Files are the book's files by project-relative path.
func Files() map[string]string {
	style := "codex/" + codex.TypeStyle.Plural() + "/"
	return map[string]string{
		"codex/characters/mara-vell/index.md": EntryFile(
			"name: Mara Vell\naliases: [Mara, the Widow]\nsummary: Smuggler who owes the sea a debt.\ntags: [protagonist]\nstatus: confirmed",
			"# Mara Vell\n\nMara runs contraband through the fog.\n"),
		"codex/characters/mara-vell/soul.md": "# Soul\n\nShe fears still water more than storms.\n",
		"codex/characters/anne-marsh.md": EntryFile("name: Anne Marsh\naliases: [The Widow]\nstatus: tentative",
			"# Anne Marsh\n\nKeeps the lighthouse since her husband drowned.\n"),
		"codex/locations/quay.md": EntryFile("name: Quay of Lanterns\nsummary: The old harbor front.",
			"# Quay of Lanterns\n\nLanterns hang along the quay.\n"),
		"codex/organizations/dockhands.md": EntryFile("name: Dockhands Guild", "# Dockhands Guild\n\nThey load and unload.\n"),
		"codex/items/compass.md":           EntryFile("name: Brass Compass", "# Brass Compass\n\nIt points at whatever you owe.\n"),
		"codex/concepts/tide-debt.md":      EntryFile("name: Tide Debt", "# Tide Debt\n\nWhat the sea lends it takes back.\n"),
		"codex/events/great-storm.md":      EntryFile("name: The Great Storm", "# The Great Storm\n\nThe night the lighthouse failed.\n"),
		style + "voice.md":                 EntryFile("name: Narrative Voice", "# Narrative Voice\n\nClose third person, past tense.\n"),
		"manuscript/01-the-harbor.md":      "# The Harbor\n\nMara Vell walked the quay at dusk.\n\nThe lanterns were already lit.\n",
		"manuscript/02-slack-water.md":     "# Slack Water\n\nThe tide stood still and so did Anne Marsh.\n",
		"manuscript/03-the-storm.md":       "# The Storm\n\nThe Great Storm came in from the west.\n",
		"notes/ideas.md":                   "# Ideas\n\nA second lighthouse?\n",
		"secret.txt":                       "not for the model\n",
	}
}

// WriteProject writes files into a fresh folder and returns the
// project's root.
func WriteProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	root, err := codex.ProjectRoot(dir)
	require.NoError(t, err)
	return root
}

// Open writes files as a project and opens its codex (in memory) and
// manuscript as an advisor turn does; roots are every spelling of the
// project folder no tool's output may hold.
func Open(t *testing.T, files map[string]string) (store *codex.Store, snap *manuscript.Snapshot, roots []string) {
	t.Helper()
	return openRoot(t, WriteProject(t, files))
}

// OpenCopy is Open for a copy of the book in the folder dir (the sample
// book of quire init --sample, say).
func OpenCopy(t *testing.T, dir string) (store *codex.Store, snap *manuscript.Snapshot, roots []string) {
	t.Helper()
	tmp := t.TempDir()
	require.NoError(t, os.CopyFS(tmp, os.DirFS(dir)))
	root, err := codex.ProjectRoot(tmp)
	require.NoError(t, err)
	return openRoot(t, root)
}

func openRoot(t *testing.T, root string) (store *codex.Store, snap *manuscript.Snapshot, roots []string) {
	t.Helper()
	ctx := context.Background()
	store, err := codex.Open(ctx, root, codex.Options{InMemory: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	m, err := manuscript.Open(ctx, root, manuscript.Options{Catalog: store.Catalog()})
	require.NoError(t, err)
	return store, m.Snapshot(), []string{root, filepath.ToSlash(root), store.Root(), m.Root()}
}
