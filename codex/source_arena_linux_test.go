//go:build linux

package codex

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A book's first opening keeps its entries' texts out of the heap, in a
// mapped file of the cache, and their names in the heap; the texts read
// the same after their pages were dropped from the process, and the
// book opens again from its saved state as before.
func TestAFirstOpeningKeepsEntryTextOutOfTheHeap(t *testing.T) {
	files := projectFiles{}
	body := strings.Repeat("A line of their history, told once and kept. ", 70)
	for i := range 400 {
		files[fmt.Sprintf("codex/characters/person-%03d.md", i)] = entryMD(
			fmt.Sprintf("name: Person %d\naliases: [P%d, The %dth]\ntags: [kin]", i, i, i), fmt.Sprintf("# Person\n\n%s\n\nBorn at Farholm%03d.\n", body, i))
	}
	root := newProject(t, files)
	cache := t.TempDir()
	s, err := Open(context.Background(), root, Options{CacheDir: cache})
	require.NoError(t, err)
	mappings := s.sources.list
	require.Len(t, mappings, 1, "one arena for the first opening's %d files", len(files))

	all := s.Catalog().All()
	require.Len(t, all, 400)
	for _, e := range all {
		assert.True(t, inMapping(e.Source, mappings), "%s: text in the arena", e.ID)
		assert.Equal(t, files[e.ID], e.Source, e.ID)
		assert.False(t, inMapping(e.Name, mappings), "%s: its name in the heap", e.ID)
		for _, a := range e.Aliases {
			assert.False(t, inMapping(a, mappings), "%s: its alias %q in the heap", e.ID, a)
		}
	}
	s.sources.release()
	for _, e := range all {
		require.Equal(t, files[e.ID], e.Source, "%s read again after its pages were dropped", e.ID)
	}
	for _, i := range []int{0, 150, 399} {
		res, err := s.Search(context.Background(), fmt.Sprintf("Farholm%03d", i), SearchOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, res, "the search index built from the arena's texts")
		assert.Equal(t, fmt.Sprintf("codex/characters/person-%03d.md", i), res[0].RelativePath)
	}
	require.NoError(t, s.Close())

	warm := reopen(t, root, cache)
	assert.Equal(t, 400, warm.Catalog().Len())
	e, ok := warm.Catalog().Get("codex/characters/person-007.md")
	require.True(t, ok)
	assert.Equal(t, files[e.ID], e.Source)
}

// A small book's texts stay in the heap, and so do the texts of files a
// later change brings, however many.
func TestArenasAreForAFirstOpeningOfSize(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/ann.md": entryNamed("Ann")})
	s := openStore(t, root, Options{})
	assert.Empty(t, s.sources.list, "a codex under %d bytes", minArenaBytes)
}

// keep copies into the arena while it has room and into the heap after;
// a nil arena keeps nothing.
func TestSourceArenaKeep(t *testing.T) {
	a := &sourceArena{data: make([]byte, 10)}
	in := a.keep([]byte("abcdef"))
	over := a.keep([]byte("ghijk"))
	assert.Equal(t, "abcdef", in)
	assert.Equal(t, "ghijk", over)
	assert.True(t, inMapping(in, [][]byte{a.data}))
	assert.False(t, inMapping(over, [][]byte{a.data}), "no room left: the heap")
	assert.Equal(t, "", a.keep(nil))
	var none *sourceArena
	assert.Equal(t, "xyz", none.keep([]byte("xyz")))
}
