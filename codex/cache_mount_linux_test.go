package codex_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/codex/disktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openOnDisk opens root with its cache on disk and returns the store and
// what it told the writer.
func openOnDisk(t *testing.T, root, cache string) (*codex.Store, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var said []string
	s, err := codex.Open(context.Background(), root, codex.Options{CacheDir: cache, OnFallback: func(why string) {
		mu.Lock()
		defer mu.Unlock()
		said = append(said, why)
	}})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), said...)
	}
}

// A codex too large for the cache disk used to panic inside bleve
// (issue 14, item 2): now the store says the disk is full and keeps its
// index in memory.
func TestFullCacheDiskFallsBackToMemory(t *testing.T) {
	disk := disktest.SmallDisk(t, "256k", false)
	c, err := corpus.Generate(context.Background(), filepath.Join(t.TempDir(), "book"),
		corpus.Options{Entries: 2000, Chapters: 1, ChapterWords: 50})
	require.NoError(t, err)
	s, said := openOnDisk(t, c.Root, filepath.Join(disk, "quire"))
	require.Equal(t, len(c.Entries), s.Catalog().Len())
	for _, e := range []corpus.Entry{c.Entries[0], c.Entries[len(c.Entries)-1]} {
		rs, err := s.Search(context.Background(), e.Name, codex.SearchOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, rs, e.Name)
		assert.Equal(t, e.Name, rs[0].Name)
	}
	rep := s.Report()
	assert.Empty(t, rep.CacheDir)
	assert.Contains(t, rep.Fallback, "full disk")
	assert.Equal(t, []string{rep.Fallback}, said())
}

// A read-only cache disk opens the book in memory (issue 14, item 11).
func TestReadOnlyCacheDiskFallsBackToMemory(t *testing.T) {
	disk := disktest.SmallDisk(t, "1m", true)
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "codex", "characters"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "codex", "characters", "mara-vell.md"),
		[]byte("---\nname: Mara Vell\n---\n# Mara Vell\n"), 0o644))
	s, said := openOnDisk(t, root, filepath.Join(disk, "quire"))
	require.NotEmpty(t, s.Lookup("Mara Vell", ""))
	rs, err := s.Search(context.Background(), "Mara", codex.SearchOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	assert.Contains(t, s.Report().Fallback, "read-only")
	assert.Len(t, said(), 1)
}
