package codex_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallDisk mounts a tmpfs of size (as mount's size= takes it) on a new
// temporary folder, read-only when ro. Mounting needs root and a kernel
// or container that allows it; without them the test is skipped and
// says why, unless QUIRE_REQUIRE_MOUNT is set, where it fails.
func smallDisk(t *testing.T, size string, ro bool) string {
	t.Helper()
	cannot := func(why string) {
		t.Helper()
		if os.Getenv("QUIRE_REQUIRE_MOUNT") != "" {
			t.Fatalf("QUIRE_REQUIRE_MOUNT is set but %s", why)
		}
		t.Skipf("skipped: %s; run the tests as root where mount works to fill a real disk", why)
	}
	if os.Geteuid() != 0 {
		cannot("mounting a small disk needs root")
	}
	dir := t.TempDir()
	var flags uintptr
	if ro {
		flags = syscall.MS_RDONLY
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, "size="+size); err != nil {
		cannot(fmt.Sprintf("this machine refuses to mount a tmpfs (%v)", err))
	}
	// Runs before TempDir's own clean-up, which then removes the folder.
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

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
	disk := smallDisk(t, "256k", false)
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
	disk := smallDisk(t, "1m", true)
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
