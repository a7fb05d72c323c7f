package book

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// A warm start takes the matcher of the saved state's entries, read from
// the names file the last session saved, while the codex checked its
// files, when the catalog has exactly those entries;
// an entry added, edited or removed offline has it built again. Either
// way it is the matcher of the catalog the book opened with.
func TestWarmStartMatcher(t *testing.T) {
	files := map[string]string{
		"codex/people/ana.md":    "---\ntype: character\nname: Ana Brisk\naliases: [Ana]\n---\n# Ana Brisk\n",
		"codex/people/bo.md":     "---\ntype: character\nname: Bo Hale\n---\n# Bo Hale\n",
		"codex/places/quay.md":   "---\ntype: location\nname: The Quay\n---\n# The Quay\n",
		"manuscript/01-storm.md": "# Storm\n\nAna Brisk watched the storm from The Quay. Bo Hale did not.\n",
	}
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		early  bool
	}{
		{name: "nothing changed", early: true},
		{name: "entry added", change: func(t *testing.T, root string) {
			write(t, root, "codex/people/cy.md", "---\ntype: character\nname: Cy Moor\n---\n# Cy Moor\n")
		}},
		{name: "alias added", change: func(t *testing.T, root string) {
			write(t, root, "codex/people/bo.md", "---\ntype: character\nname: Bo Hale\naliases: [Bo]\n---\n# Bo Hale\n")
		}},
		{name: "entry removed", change: func(t *testing.T, root string) {
			require.NoError(t, os.Remove(filepath.Join(root, "codex/places/quay.md")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeBook(t, files)
			cache := t.TempDir()
			open := func() *Book {
				b, err := Open(context.Background(), root, Options{Cache: CacheOptions{Dir: cache}, LaterMentions: true})
				require.NoError(t, err)
				return b
			}
			cold := open()
			assert.False(t, cold.early.used, "no state on a cold start")
			// Scanning the chapters and saving them saves the names too.
			cold.Manuscript.SetMatcher(cold.Matcher)
			cold.SaveChapters()
			require.FileExists(t, cold.Cache.Names())
			require.NoError(t, cold.Close())
			if tt.change != nil {
				tt.change(t, root)
			}
			warm := open()
			defer warm.Close()
			assert.Equal(t, tt.early, warm.early.used)
			// The state holds the names of the last session, which its
			// file holds too; a change offline then has it built again.
			assert.True(t, warm.early.read, "read from the names file, not built")
			assert.NoError(t, warm.early.readErr)
			assert.Equal(t, manuscript.NewMatcher(warm.View.Catalog()), warm.Matcher)
		})
	}
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}
