package codex

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fallbackRecorder collects what a store says through OnFallback.
type fallbackRecorder struct {
	mu   sync.Mutex
	said []string
}

func (r *fallbackRecorder) record(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.said = append(r.said, why)
}

func (r *fallbackRecorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.said...)
}

// requireWorksInMemory checks that s answers look-ups and searches for
// every name, from an index in memory, and said why exactly once.
func requireWorksInMemory(t *testing.T, s *Store, said *fallbackRecorder, want string, names ...string) {
	t.Helper()
	for _, name := range names {
		require.NotEmpty(t, s.Lookup(name, ""), "look-up of %s", name)
		rs, err := s.Search(context.Background(), name, SearchOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, rs, "search for %s", name)
		assert.Equal(t, name, rs[0].Name)
	}
	rep := s.Report()
	assert.Empty(t, rep.CacheDir, "no cache folder in use")
	assert.Contains(t, rep.Fallback, want)
	assert.Contains(t, rep.Fallback, "in memory")
	assert.Equal(t, []string{rep.Fallback}, said.messages(), "the writer is told once")
}

// A cache that cannot be created or written opens the book with its
// index in memory, and says so, instead of failing (issue 14, item 11).
// These need no mount: a regular file where the cache folder should be
// fails the same way for root as for anyone.
func TestOpenFallsBackToMemoryWhenTheCacheCannotBeWritten(t *testing.T) {
	tests := []struct {
		name  string
		cache func(t *testing.T) string
		want  string
	}{
		{name: "cache folder is a file", want: "is not a folder", cache: func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "cache")
			require.NoError(t, os.WriteFile(f, []byte("not a folder"), 0o600))
			return f
		}},
		{name: "cache folder below a file", want: "is not a folder", cache: func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "cache")
			require.NoError(t, os.WriteFile(f, []byte("not a folder"), 0o600))
			return filepath.Join(f, "quire", "book")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, projectFiles{
				"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
				"codex/locations/brinmouth.md":  entryNamed("Brinmouth"),
			})
			var said fallbackRecorder
			s := openStore(t, root, Options{CacheDir: tt.cache(t), OnFallback: said.record})
			requireWorksInMemory(t, s, &said, tt.want, "Mara Vell", "Brinmouth")
		})
	}
}

// panickyIndex is bleve failing the way it does on a full disk: Batch
// panics (zapx's nil map). The alias names the embedded field, which
// bleve.Index's own Index method would clash with.
type panickyIndex struct{ realIndex }

type realIndex = bleve.Index

func (panickyIndex) Batch(*bleve.Batch) error { panic("assignment to entry in nil map") }

// A panic inside bleve while the store is open costs the disk index, not
// the process: the store rebuilds its index in memory and keeps the
// change (issue 14, item 2).
func TestIndexPanicMovesTheIndexIntoMemory(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	cache := filepath.Join(t.TempDir(), "cache")
	var said fallbackRecorder
	s := openStore(t, root, Options{CacheDir: cache, OnFallback: said.record})
	require.Empty(t, said.messages())
	require.DirExists(t, filepath.Join(cache, indexDir))

	disk := s.index.Load()
	s.index.Store(&bleveIndex{idx: panickyIndex{disk.idx}, disk: true})
	writeFile(t, root, "codex/characters/ilse-dorn.md", entryNamed("Ilse Dorn"))
	_, err := s.Refresh(context.Background(), []string{"codex/characters/ilse-dorn.md"})
	require.NoError(t, err)

	requireWorksInMemory(t, s, &said, "could not be written", "Mara Vell", "Ilse Dorn")
	assert.NoDirExists(t, filepath.Join(cache, indexDir), "the broken index is removed")
	require.NoError(t, s.Save())
}

// A cache folder deleted while the store is open (a cleaner emptied the
// user cache) is a failed write like any other: the store goes on in
// memory.
func TestCacheDeletedWhileOpen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("skipped: Windows deletes no file another program has open, so no cleaner can empty the cache under a running quire")
	}
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	cache := filepath.Join(t.TempDir(), "cache")
	var said fallbackRecorder
	s := openStore(t, root, Options{CacheDir: cache, OnFallback: said.record})
	require.NoError(t, os.RemoveAll(cache))

	writeFile(t, root, "codex/characters/ilse-dorn.md", entryNamed("Ilse Dorn"))
	_, err := s.Refresh(context.Background(), []string{"codex/characters/ilse-dorn.md"})
	require.NoError(t, err)
	require.NoError(t, s.Save())

	requireWorksInMemory(t, s, &said, "was deleted", "Mara Vell", "Ilse Dorn")
	assert.NoDirExists(t, cache, "nothing is written once the cache is gone")
}
