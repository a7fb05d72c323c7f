package codex

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldStore opens root with its index built in the background and held
// back until the returned func is called.
func heldStore(t *testing.T, root, cacheDir string) (*Store, func()) {
	t.Helper()
	gate := make(chan struct{})
	s, err := Open(context.Background(), root, Options{CacheDir: cacheDir, BackgroundIndex: true, IndexAfter: gate})
	require.NoError(t, err)
	released := false
	return s, func() {
		if !released {
			released = true
			close(gate)
		}
	}
}

func TestStoreBackgroundIndexAnswersFromCatalogFirst(t *testing.T) {
	files, want := lanternFiles()
	root := newProject(t, files)
	s, release := heldStore(t, root, t.TempDir())
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	ctx := context.Background()

	// The catalog answers while the index is held back.
	require.True(t, s.IndexBuilding())
	assert.Equal(t, 13, s.Catalog().Len())
	rs := s.Lookup("Oil Keeper", "")
	require.NotEmpty(t, rs)
	assert.Equal(t, "codex/characters/keeper.md", rs[0].RelativePath)

	// A search waits for the index: with a context already ended it
	// gives up instead of answering from a half-built index.
	done, cancel := context.WithCancel(ctx)
	cancel()
	_, err := s.Search(done, "lantern", SearchOptions{})
	require.ErrorIs(t, err, context.Canceled)

	// SearchNow answers at once from the catalog's names, and says so.
	now, fromCatalog, err := s.SearchNow(ctx, "Lantern 03", SearchOptions{})
	require.NoError(t, err)
	assert.True(t, fromCatalog)
	require.NotEmpty(t, now)
	assert.Equal(t, "codex/locations/lantern-03.md", now[0].RelativePath)
	now, _, err = s.SearchNow(ctx, "lantern", SearchOptions{Type: TypeLocation, Tags: []string{"Relic"}})
	require.NoError(t, err)
	assert.ElementsMatch(t, want["location+relic"], resultIDs(now))
	_, _, err = s.SearchNow(ctx, "  ", SearchOptions{})
	require.ErrorIs(t, err, ErrEmptyQuery)

	// A change while the index is held follows the build.
	writeFile(t, root, "codex/items/lantern-01.md", entryMD("name: Lantern 01", "# Lantern 01\n\nA lantern that burns zeppelin gas.\n"))
	removeAll(t, root, "codex/items/lantern-02.md")
	_, err = s.Refresh(ctx, []string{"codex/items/lantern-01.md", "codex/items/lantern-02.md"})
	require.NoError(t, err)
	assert.Equal(t, 12, s.Catalog().Len(), "the catalog has the change before the index")

	// A search started before the index is ready answers once it is.
	type answer struct {
		ids []string
		err error
	}
	waiting := make(chan answer, 1)
	go func() {
		rs, err := s.Search(ctx, "zeppelin", SearchOptions{})
		waiting <- answer{resultIDs(rs), err}
	}()
	release()
	got := <-waiting
	require.NoError(t, got.err)
	assert.Equal(t, []string{"codex/items/lantern-01.md"}, got.ids)
	require.NoError(t, s.WaitIndex(ctx))
	assert.False(t, s.IndexBuilding())

	rs, err = s.Search(ctx, "lantern", SearchOptions{Limit: 50})
	require.NoError(t, err)
	assert.Len(t, rs, MaxSearchResults)
	assert.NotContains(t, resultIDs(rs), "codex/items/lantern-02.md")
	count, err := s.index.Load().count()
	require.NoError(t, err)
	assert.Equal(t, uint64(12), count, "the index holds what the catalog holds")

	// Once ready, changes reach the index before the catalog, as before.
	writeFile(t, root, "codex/items/lantern-04.md", entryMD("name: Lantern 04", "# Lantern 04\n\nA lantern of blue glass.\n"))
	_, err = s.Refresh(ctx, []string{"codex/items/lantern-04.md"})
	require.NoError(t, err)
	rs, fromCatalog, err = s.SearchNow(ctx, "blue glass", SearchOptions{})
	require.NoError(t, err)
	assert.False(t, fromCatalog)
	assert.Equal(t, []string{"codex/items/lantern-04.md"}, resultIDs(rs))
}

// assertIndexHoldsEveryLantern holds that s's index answers from, and
// holds, all 13 entries of lanternFiles.
func assertIndexHoldsEveryLantern(t *testing.T, s *Store) {
	t.Helper()
	rs, err := s.Search(context.Background(), "whale oil", SearchOptions{Limit: 50})
	require.NoError(t, err)
	assert.Len(t, rs, MaxSearchResults)
	count, err := s.index.Load().count()
	require.NoError(t, err)
	assert.Equal(t, uint64(13), count)
}

// A store closed (or a process ended) before its index was built leaves
// the entries it parsed, saved as not vouching for the index: the next
// start takes its catalog from them, parsing only files changed since,
// and builds the index again; the answers are those of the files, never
// of the half-built index.
func TestStoreBackgroundIndexInterruptedIsRebuilt(t *testing.T) {
	files, _ := lanternFiles()
	ctx := context.Background()

	t.Run("cold start interrupted", func(t *testing.T) {
		root := newProject(t, files)
		cache := t.TempDir()
		s, _ := heldStore(t, root, cache)
		require.NoError(t, s.Close(), "closing stops the build")
		st, err := readState(cache)
		require.NoError(t, err, "what parsing found is kept")
		assert.False(t, st.Indexed, "the state does not vouch for an index never built")
		assert.Len(t, st.Entries, 13)

		s = reopen(t, root, cache)
		assert.True(t, s.Report().Rebuilt)
		assert.Zero(t, s.Report().Parsed, "the entries come from the state")
		assertIndexHoldsEveryLantern(t, s)
	})

	t.Run("cold start crashed mid-build", func(t *testing.T) {
		root := newProject(t, files)
		cache := t.TempDir()
		s, release := heldStore(t, root, cache)
		crash(t, s, release, s.Catalog().All()[:5])

		s = reopen(t, root, cache)
		assert.True(t, s.Report().Rebuilt)
		assert.Zero(t, s.Report().Parsed, "the entries parsed before the crash are kept")
		assertIndexHoldsEveryLantern(t, s)
		require.NoError(t, s.Close())
		s = reopen(t, root, cache)
		assert.False(t, s.Report().Rebuilt, "the index built from the state is sound; reason: %s", s.Report().Reason)
	})

	t.Run("changes pending when interrupted", func(t *testing.T) {
		root := newProject(t, files)
		cache := t.TempDir()
		s := reopen(t, root, cache)
		require.NoError(t, s.Close())

		// Changed while quire was not running; the next start is closed
		// before its index took the changes.
		writeFile(t, root, "codex/items/lantern-01.md", entryMD("name: Lantern 01", "# Lantern 01\n\nA lantern that burns zeppelin gas.\n"))
		removeAll(t, root, "codex/items/lantern-02.md")
		writeFile(t, root, "codex/items/lantern-99.md", entryMD("name: Lantern 99", "# Lantern 99\n\nA zeppelin lantern.\n"))
		s, release := heldStore(t, root, cache)
		assert.Equal(t, 13, s.Catalog().Len())
		assert.FileExists(t, filepath.Join(cache, stateFile), "the state stays while the index has not changed")
		release()
		require.NoError(t, s.WaitIndex(ctx))
		require.NoError(t, s.Close())
		// The same again, this time interrupted after the index changed.
		writeFile(t, root, "codex/items/lantern-01.md", entryMD("name: Lantern 01", "# Lantern 01\n\nA lantern that burns marsh gas.\n"))
		s, release = heldStore(t, root, cache)
		crash(t, s, release, s.Catalog().All())
		st, err := readState(cache)
		require.NoError(t, err)
		assert.False(t, st.Indexed, "no state vouches for an index that changed")
		// The writer puts back what the state saved before the crash
		// knew the other way.
		writeFile(t, root, "codex/items/lantern-01.md", entryMD("name: Lantern 01", "# Lantern 01\n\nA lantern that burns zeppelin gas.\n"))

		s = reopen(t, root, cache)
		assert.True(t, s.Report().Rebuilt)
		assert.Equal(t, 1, s.Report().Parsed, "only the file changed since the crash is parsed")
		rs, err := s.Search(ctx, "zeppelin", SearchOptions{})
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"codex/items/lantern-01.md", "codex/items/lantern-99.md"}, resultIDs(rs))
		rs, err = s.Search(ctx, "lantern", SearchOptions{Limit: 50})
		require.NoError(t, err)
		assert.NotContains(t, resultIDs(rs), "codex/items/lantern-02.md")
		count, err := s.index.Load().count()
		require.NoError(t, err)
		assert.Equal(t, uint64(13), count)
	})

	t.Run("finished build saves its state", func(t *testing.T) {
		root := newProject(t, files)
		cache := t.TempDir()
		s, release := heldStore(t, root, cache)
		release()
		require.NoError(t, s.WaitIndex(ctx))
		require.NoError(t, s.Close())
		assert.FileExists(t, filepath.Join(cache, stateFile))
		s = reopen(t, root, cache)
		assert.False(t, s.Report().Rebuilt, "a finished background build is a warm start next time")
		assert.Zero(t, s.Report().Parsed)
	})
}

// crash leaves s, opened by heldStore, as a process that died mid-build
// would: the build begun, part of the index written, nothing saved, the
// index and the lock let go.
func crash(t *testing.T, s *Store, release func(), written []*Entry) {
	t.Helper()
	s.mu.Lock()
	b := s.build
	s.mu.Unlock()
	require.NotNil(t, b, "the build is still running")
	reached := make(chan struct{})
	s.beforeIndexOp = func(ctx context.Context) {
		close(reached)
		<-ctx.Done()
	}
	release()
	<-reached
	require.NoError(t, s.index.Load().applyAt(context.Background(), lean, written, nil))
	b.cancel()
	<-b.done
	require.NoError(t, s.index.Load().close())
	require.NoError(t, s.lock.Close())
}

func TestStoreBackgroundIndexCrashMidBuildIsRebuilt(t *testing.T) {
	files, _ := lanternFiles()
	root := newProject(t, files)
	cache := t.TempDir()
	s, release := heldStore(t, root, cache)
	crash(t, s, release, s.Catalog().All()[:5])

	s = reopen(t, root, cache)
	assert.True(t, s.Report().Rebuilt, "an index without its state is rebuilt")
	count, err := s.index.Load().count()
	require.NoError(t, err)
	assert.Equal(t, uint64(13), count)
	rs, err := s.Search(context.Background(), "whale oil", SearchOptions{Limit: 50})
	require.NoError(t, err)
	assert.Len(t, rs, MaxSearchResults)
	rs, err = s.Search(context.Background(), "Oil Keeper", SearchOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	assert.Equal(t, "codex/characters/keeper.md", rs[0].RelativePath)
}

// A warm start with nothing to index has its index ready at once, gate
// or not.
func TestStoreBackgroundIndexWarmIsReadyAtOnce(t *testing.T) {
	files, _ := lanternFiles()
	root := newProject(t, files)
	cache := t.TempDir()
	s := reopen(t, root, cache)
	require.NoError(t, s.Close())
	s, _ = heldStore(t, root, cache)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	assert.False(t, s.IndexBuilding())
	rs, err := s.Search(context.Background(), "whale oil", SearchOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, rs)
}

// What a catalog builds on first use (its ranks and typo index) waits
// for the caller's first work too, cold and warm; a lookup that needs it
// meanwhile builds it itself.
func TestCatalogWarmsAfterTheFirstAnswers(t *testing.T) {
	files, _ := lanternFiles()
	root := newProject(t, files)
	cache := t.TempDir()
	for _, start := range []string{"cold", "warm"} {
		t.Run(start, func(t *testing.T) {
			s, release := heldStore(t, root, cache)
			defer func() { assert.NoError(t, s.Close()) }()
			// Long past what warming this catalog takes.
			time.Sleep(200 * time.Millisecond)
			assert.False(t, s.Catalog().warmed.Load(), "warmed before the first answers")
			release()
			require.Eventually(t, s.Catalog().warmed.Load, 5*time.Second, 5*time.Millisecond)
		})
	}
}
