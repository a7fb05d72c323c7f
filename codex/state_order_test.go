package codex

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state lists the entries in the catalog's order, so that a warm
// start sorts a sorted list; the warm catalog is the cold one, in order,
// and a state in another order (an older quire's) gives the same catalog.
func TestStateListsEntriesInCatalogOrder(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/zed.md":       entryNamed("Zed Orlo"),
		"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
		"codex/locations/harbor.md":     entryNamed("The Harbor"),
		"codex/items/anchor.md":         entryNamed("Anchor"),
		"codex/characters/ilse.md":      entryNamed("Ilse Dorn"),
	})
	cache := t.TempDir()
	s, err := Open(context.Background(), root, Options{CacheDir: cache})
	require.NoError(t, err)
	cold := order(s.Catalog())
	require.NoError(t, s.Close())

	st, err := readState(cache)
	require.NoError(t, err)
	var saved []string
	for _, e := range st.Entries {
		saved = append(saved, e.ID)
	}
	assert.Equal(t, cold, saved)

	warm := reopen(t, root, cache)
	assert.Equal(t, cold, order(warm.Catalog()))
	require.NoError(t, warm.Close())

	// The same state listed backwards, as an older quire may have left
	// it: the catalog's order does not depend on it.
	for i, j := 0, len(st.Entries)-1; i < j; i, j = i+1, j-1 {
		st.Entries[i], st.Entries[j] = st.Entries[j], st.Entries[i]
	}
	require.NoError(t, writeState(cache, st))
	again := reopen(t, root, cache)
	assert.Equal(t, cold, order(again.Catalog()))
}

func order(c *Catalog) []string {
	var ids []string
	for _, e := range c.All() {
		ids = append(ids, e.ID)
	}
	return ids
}
