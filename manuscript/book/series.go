package book

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/manuscript"
)

// seriesToRead is the real path of the series folder the book's
// quire.yaml names, once the writer trusts the book; "" when the book
// reads no series. It is known before either codex opens, so the two
// open side by side. A series setting that does not read is an error,
// as a bad codex: glob is; a series folder that cannot be found leaves
// the book alone, and OnSeriesFailed says why.
func (b *Book) seriesToRead() (string, error) {
	path, err := codex.SeriesOf(b.Settings)
	if err != nil || path == "" {
		return "", err
	}
	if b.Globs.SetAside || !b.seriesTrusted() {
		return "", nil
	}
	root, err := codex.SeriesRoot(b.Root, path)
	if err != nil {
		b.seriesFailed(err)
		return "", nil
	}
	return root, nil
}

// seriesTrusted says whether the writer trusted exactly what the book's
// quire.yaml asks beyond the book, its series folder among it: the hash
// the trust record keeps covers every such setting, the advisor's too,
// so a changed provider key is a new question for the series as well.
// A setting the reading cannot make out trusts nothing; its own owner
// reports it.
func (b *Book) seriesTrusted() bool {
	asks, err := trust.AsksOf(b.Settings.Book)
	if err != nil || asks.Series == "" {
		return false
	}
	// A nil store trusts nothing, and the writer hears so all the same.
	ok, err := b.opts.Trust.Allows(b.Root, asks.Wants())
	if !ok && b.opts.OnSeriesUntrusted != nil {
		b.opts.OnSeriesUntrusted(b.Root, asks.Series, err)
	}
	return ok
}

func (b *Book) seriesFailed(err error) {
	if b.opts.OnSeriesFailed != nil {
		b.opts.OnSeriesFailed(err)
	}
}

// openSeries opens the codex of the series folder at root (seriesToRead),
// as a codex store of its own on the folder's real path, so that every
// confinement rule of a codex applies to it exactly and its index lives
// once in the cache, keyed by that path. It sets b.SeriesRoot and
// b.SeriesCatalogs with the store; a store that cannot be opened leaves
// the book alone, and OnSeriesFailed says why.
func (b *Book) openSeries(ctx context.Context, root string) *codex.Store {
	if root == "" {
		return nil
	}
	cache, _ := CacheFor(root, CacheOptions{Base: b.opts.Cache.Base})
	if b.opts.Cache.Dir != "" {
		// The book's own cache folder (--cache-dir) holds the series'
		// beside it, under its key.
		cache.Dir = filepath.Join(b.opts.Cache.Dir, "series", cacheKey(root))
	}
	open := func(ctx context.Context, cats *codex.SeriesCatalogs) (*codex.Store, error) {
		// Read like the book's own codex: the language server answers
		// from the series' entries while their search index is built.
		copts := codex.Options{CacheDir: cache.Dir, Logger: b.opts.Logger, OnFallback: b.opts.OnFallback, OnWatchFallback: b.opts.OnWatchFallback,
			BackgroundIndex: b.opts.BackgroundIndex, IndexAfter: b.opts.IndexAfter, OnParseAll: b.opts.OnParseAll}
		if b.opts.Parts&Chapters != 0 {
			// A warm start begins the series' name matcher from its
			// saved state while the store checks its files.
			copts.OnLoaded = func(entries []*codex.Entry) { manuscript.BeginSeries(cats, entries) }
		}
		store, err := codex.Open(ctx, root, copts)
		if errors.Is(err, codex.ErrIndexLocked) {
			// Another quire process reads the series (a server for
			// another book of it): this one reads it in memory.
			copts.InMemory = true
			store, err = codex.Open(ctx, root, copts)
		}
		return store, err
	}
	var store *codex.Store
	var cats *codex.SeriesCatalogs
	var err error
	if b.opts.Shelf != nil {
		store, cats, err = b.opts.Shelf.take(ctx, root, open)
	} else {
		cats = codex.NewSeriesCatalogs(root)
		store, err = open(ctx, cats)
	}
	if err != nil {
		b.seriesFailed(fmt.Errorf("the series canon in %s could not be read: %w", root, err))
		return nil
	}
	b.SeriesRoot, b.SeriesCatalogs = root, cats
	return store
}

// CloseSeries lets go of the series store: closes it, or hands it back
// to the shelf that the books of a workspace share.
func (b *Book) CloseSeries() error {
	if b.Series == nil {
		return nil
	}
	s := b.Series
	b.Series = nil
	if b.SeriesCatalogs != nil {
		// The series may live on for the workspace's other books.
		b.SeriesCatalogs.Forget(b.Root)
	}
	return b.letGo(s, b.SeriesRoot)
}

// letGo closes the series store s of the folder root, or hands it back
// to the shelf.
func (b *Book) letGo(s *codex.Store, root string) error {
	if b.opts.Shelf != nil {
		return b.opts.Shelf.release(root)
	}
	return s.Close()
}

// ReloadSeries reads the series the settings l name now, after the
// writer changed quire.yaml's series: or trusted the book (or took the
// trust back) while it was open: the book reads the new series, or
// none, without being opened again. The series read until now is not let
// go of here: release does that, once the caller no longer reads it (a
// shelf waits for its watcher to stop, which may be telling the caller
// of a change). A series the book reads on, under the same real path,
// stays open on the shelf. An error says why the new series is not
// read; the book then reads none.
func (b *Book) ReloadSeries(ctx context.Context, l *settings.Loaded) (release func() error, err error) {
	old, oldRoot, oldCats := b.Series, b.SeriesRoot, b.SeriesCatalogs
	release = func() error {
		if old == nil {
			return nil
		}
		if oldCats != nil {
			// The merge kept for this book is rebuilt on demand.
			oldCats.Forget(b.Root)
		}
		return b.letGo(old, oldRoot)
	}
	// The caller hands over settings it reads as in force.
	b.Settings, b.Globs.SetAside = l, false
	b.Series, b.SeriesRoot, b.SeriesCatalogs = nil, "", nil
	root, err := b.seriesToRead()
	b.Series = b.openSeries(ctx, root)
	if b.Store != nil {
		b.View = codex.NewSharedView(b.Store, b.Series, b.SeriesCatalogs)
	}
	return release, err
}

// FollowSeries tells fn of each change of the book's series folder, as
// the shelf's one watcher of it applies them, until stop is called; a
// book read without a shelf or without a series follows nothing.
func (b *Book) FollowSeries(fn func(codex.Change), onErr func(error)) (stop func()) {
	if b.opts.Shelf == nil || b.Series == nil {
		return func() {}
	}
	return b.opts.Shelf.Follow(b.SeriesRoot, fn, onErr)
}
