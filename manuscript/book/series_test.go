package book

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/manuscript"
)

// twoBooksOfASeries writes a series folder and two books naming it, and
// returns the two books' folders.
func twoBooksOfASeries(t *testing.T) (one, two string) {
	t.Helper()
	base := writeBook(t, map[string]string{
		"tideward/codex/people/ilse.md": "---\ntype: character\nname: Ilse Dorn\n---\n# Ilse Dorn\n",
		"one/quire.yaml":                "series: ../tideward\n",
		"one/manuscript/01-a.md":        "# A\n\nIlse Dorn came.\n",
		"two/quire.yaml":                "series: ../tideward\n",
		"two/manuscript/01-b.md":        "# B\n\nIlse Dorn left.\n",
	})
	return filepath.Join(base, "one"), filepath.Join(base, "two")
}

// trusted is a record of trusted books in which the writer trusted
// what each of books asks beyond itself, as quire trust records it.
func trusted(t *testing.T, books ...string) *trust.Store {
	t.Helper()
	store := trust.Open(filepath.Join(t.TempDir(), trust.FileName))
	for _, book := range books {
		f, err := settings.ReadBook(os.DirFS(book))
		require.NoError(t, err)
		asks, err := trust.AsksOf(f)
		require.NoError(t, err)
		wants := asks.Wants()
		require.NoError(t, store.Grant(book, wants.Hash(), wants.Lines()))
	}
	return store
}

func TestBooksOfAWorkspaceShareOneSeriesStore(t *testing.T) {
	one, two := twoBooksOfASeries(t)
	shelf := NewShelf()
	opts := Options{Cache: CacheOptions{Base: t.TempDir()}, Trust: trusted(t, one, two), Shelf: shelf}
	b1, err := Open(context.Background(), one, opts)
	require.NoError(t, err)
	b2, err := Open(context.Background(), two, opts)
	require.NoError(t, err)
	require.NotNil(t, b1.Series)
	assert.Same(t, b1.Series, b2.Series, "one series store in memory for both books")
	assert.Equal(t, 1, shelf.Len())
	_, ok := b2.View.Catalog().Resolve("Ilse Dorn")
	assert.True(t, ok)
	assert.Len(t, b1.Manuscript.Snapshot().Mentions().Table().Rows, 1, "series names are found in the chapters")

	series := b1.Series
	require.NoError(t, b1.Close())
	assert.Equal(t, 1, shelf.Len(), "the other book still reads it")
	assert.Equal(t, 1, series.Catalog().Len())
	require.NoError(t, b2.Close())
	assert.Equal(t, 0, shelf.Len(), "the last book closes it")
}

func TestASeriesIsReadOnlyWhenTrusted(t *testing.T) {
	one, two := twoBooksOfASeries(t)
	for name, store := range map[string]*trust.Store{
		"no trust record":   nil,
		"not trusted":       trust.Open(filepath.Join(t.TempDir(), trust.FileName)),
		"another book only": trusted(t, two),
	} {
		t.Run(name, func(t *testing.T) {
			var told []string
			b, err := Open(context.Background(), one, Options{Cache: CacheOptions{Dir: t.TempDir()}, Trust: store,
				OnSeriesUntrusted: func(_, series string, err error) {
					assert.NoError(t, err)
					told = append(told, series)
				}})
			require.NoError(t, err)
			defer b.Close()
			assert.Nil(t, b.Series)
			assert.Equal(t, 0, b.View.Catalog().Len())
			assert.Equal(t, []string{"../tideward"}, told, "the caller hears why the series is not read")
		})
	}
	t.Run("the book's settings changed since", func(t *testing.T) {
		store := trusted(t, one)
		write(t, one, "quire.yaml", "series: ../tideward\nprovider: {base_url: \"http://x/v1\", api_key_env: K}\n")
		b, err := Open(context.Background(), one, Options{Cache: CacheOptions{Dir: t.TempDir()}, Trust: store})
		require.NoError(t, err)
		defer b.Close()
		assert.Nil(t, b.Series, "a new key to send is a new question, for the series too")
	})
	t.Run("a record that cannot be read", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), trust.FileName)
		require.NoError(t, os.WriteFile(bad, []byte("{"), 0o600))
		var got error
		b, err := Open(context.Background(), one, Options{Cache: CacheOptions{Dir: t.TempDir()}, Trust: trust.Open(bad),
			OnSeriesUntrusted: func(_, _ string, err error) { got = err }})
		require.NoError(t, err)
		defer b.Close()
		assert.Nil(t, b.Series)
		assert.ErrorIs(t, got, trust.ErrRecord)
	})
}

// A layer that sets the book's settings aside (the language server with
// a quire.yaml that has errors) opens the book without its series, as
// with the defaults, until the caller hands over settings in force.
func TestSettingsSetAsideReadNoSeries(t *testing.T) {
	one, _ := twoBooksOfASeries(t)
	setAside := func(*settings.Loaded) (Globs, error) { return Globs{SetAside: true}, nil }
	b, err := Open(context.Background(), one, Options{Cache: CacheOptions{Dir: t.TempDir()}, Trust: trusted(t, one), Layer: setAside})
	require.NoError(t, err)
	defer b.Close()
	assert.Nil(t, b.Series, "trusted, but the file is set aside")

	l, err := settings.Load(settings.Disk(b.Root))
	require.NoError(t, err)
	release, err := b.ReloadSeries(context.Background(), l)
	require.NoError(t, err)
	require.NoError(t, release())
	assert.NotNil(t, b.Series, "settings in force name a trusted series")
}

func TestTheShelfWatchesASeriesOnceForAllItsBooks(t *testing.T) {
	one, two := twoBooksOfASeries(t)
	shelf := NewShelf()
	opts := Options{Cache: CacheOptions{Base: t.TempDir()}, Trust: trusted(t, one, two), Shelf: shelf}
	b1, err := Open(context.Background(), one, opts)
	require.NoError(t, err)
	b2, err := Open(context.Background(), two, opts)
	require.NoError(t, err)
	var mu sync.Mutex
	told := map[string]int{}
	follow := func(name string) func(codex.Change) {
		return func(codex.Change) {
			mu.Lock()
			defer mu.Unlock()
			told[name]++
		}
	}
	stop1 := b1.FollowSeries(follow("one"), nil)
	stop2 := b2.FollowSeries(follow("two"), nil)
	<-b1.Series.Watching()
	seriesDir := filepath.Join(filepath.Dir(one), "tideward")
	require.NoError(t, os.WriteFile(filepath.Join(seriesDir, "codex", "people", "bel.md"), []byte("---\ntype: character\nname: Bel Morrow\n---\n# Bel Morrow\n"), 0o644))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return told["one"] > 0 && told["two"] > 0
	}, 10*time.Second, 20*time.Millisecond, "both books are told")
	_, ok := b2.View.Catalog().Resolve("Bel Morrow")
	assert.True(t, ok, "the new series entry reaches the book")
	stop1()
	stop2()
	require.NoError(t, b1.Close())
	require.NoError(t, b2.Close())
	assert.Equal(t, 0, shelf.Len())
}

// A series book's warm start begins the series' name matcher from the
// series' saved state while its files are checked (BeginSeries); the
// book's matcher is the one a cold reading of the same canon builds,
// whether the series changed while quire was closed or not, and the
// series' names are found in the chapters.
func TestSeriesWarmStartMatcher(t *testing.T) {
	for _, change := range []bool{false, true} {
		t.Run(map[bool]string{false: "nothing changed", true: "series changed offline"}[change], func(t *testing.T) {
			one, _ := twoBooksOfASeries(t)
			series := filepath.Join(filepath.Dir(one), "tideward")
			opts := Options{Cache: CacheOptions{Base: t.TempDir()}, Trust: trusted(t, one), Shelf: NewShelf(), LaterMentions: true}
			cold, err := Open(context.Background(), one, opts)
			require.NoError(t, err)
			require.NoError(t, cold.Close())
			if change {
				write(t, series, "codex/people/ilse.md", "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse]\n---\n# Ilse Dorn\n")
				write(t, series, "codex/people/oren.md", "---\ntype: character\nname: Oren Vail\n---\n# Oren Vail\n")
			}
			warm, err := Open(context.Background(), one, opts)
			require.NoError(t, err)
			defer warm.Close()
			fresh := codex.MergeSeries(warm.Root, warm.Store.Catalog(), warm.SeriesRoot, warm.Series.Catalog()).Catalog
			assert.Equal(t, manuscript.NewMatcher(fresh), warm.Matcher)
			warm.Manuscript.SetMatcher(warm.Matcher)
			assert.Len(t, warm.Manuscript.Snapshot().Mentions().Table().Rows, 1)
		})
	}
}
