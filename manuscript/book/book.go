// Package book opens a book project for the command line and the language
// server alike: its settings (read once, codex/settings), its codex store
// with the in-memory fallback when the index is locked or the cache fails,
// its manuscript, its paragraph index and its cache layout.
package book

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/manuscript"
)

// Parts say what of a book to open beyond its settings.
type Parts int

const (
	// Codex opens the codex store.
	Codex Parts = 1 << iota
	// Chapters opens the manuscript.
	Chapters
	// Whole opens both.
	Whole = Codex | Chapters
)

// Globs are where a book's codex entries and chapters are.
type Globs struct {
	Codex, Manuscript []string
	// SetAside says the layer set the book's own settings aside, the
	// defaults in their place (the language server opens a book whose
	// quire.yaml has errors so, until it is fixed): the series folder
	// the file names is then not read either, trusted or not.
	SetAside bool
}

// Options say how to open a book.
type Options struct {
	// Parts is what to open; zero opens the whole book.
	Parts Parts
	// Settings are where the settings files are read from; a nil Book
	// reads the book's folder and the writer's config.yaml on disk.
	Settings settings.Sources
	// Layer turns the loaded settings into the globs to open with; nil
	// is LayerGlobs. The language server passes its own, which keeps the
	// advisor's sections of the same reading.
	Layer func(*settings.Loaded) (Globs, error)
	Cache CacheOptions
	// Logger receives counts and timings; nil discards them.
	Logger *slog.Logger
	// Progress is told how the codex's first reading goes.
	Progress func(done, total int)
	// FailWhenLocked makes another quire process holding the index an
	// error (`quire index`); otherwise this book's index lives in memory
	// and OnLocked is told.
	FailWhenLocked bool
	OnLocked       func()
	// OnFallback is told why the codex index moved into memory when the
	// cache failed (full, read-only or deleted disk).
	OnFallback func(why string)
	// OnWatchFallback is told, once per codex, when the system will not
	// watch the book's folders and they are scanned instead.
	OnWatchFallback func(why string)
	// LaterMentions leaves finding the codex's names in the chapters to
	// the caller (the language server does it once the book answers).
	LaterMentions bool
	// Trust is the record of the books the writer trusts: the series
	// folder of a book's quire.yaml lies outside the book, so it is read
	// only once the writer trusted exactly what the book's settings ask
	// beyond it (trust.AsksOf). nil trusts no book, and reads no series.
	Trust *trust.Store
	// OnSeriesUntrusted is told when the book at root names a series
	// folder (series, as quire.yaml names it) that is not read because
	// the writer has not trusted the book; err says why the record of
	// trusted books could not be read, if it could not.
	OnSeriesUntrusted func(root, series string, err error)
	// OnSeriesFailed is told why a trusted series folder could not be
	// read; the book opens alone.
	OnSeriesFailed func(error)
	// Shelf, when set, holds the series stores of several books (the
	// language server's workspace): a series is opened once, keyed by
	// its real path, and each book lets go of it on Close.
	Shelf *Shelf
	// BackgroundIndex opens the codex as soon as its entries are parsed
	// and builds its search index afterwards, once IndexAfter closes
	// (codex.Options): the language server answers canon meanwhile.
	BackgroundIndex bool
	IndexAfter      <-chan struct{}
	// OnParseAll is called when a codex, the book's or its series', opens
	// with no saved state and parses every file (codex.Options).
	OnParseAll func()
	// OnCodexOpened, when set, is called with the book's codex store and
	// the names matcher of its catalog as soon as both are ready, while
	// the chapters may still be being read, for work that needs only
	// the codex (the language server's continuity canon); Open waits
	// for it before it waits for the chapters. Not called for a book
	// that reads a series: its catalog is laid over the series' once
	// Open returns.
	OnCodexOpened func(*codex.Store, *manuscript.Matcher)
	// CheckAfter answers first and checks after: the book's codex opens
	// from its saved state and its chapters take their cached records by
	// their files' size and time; the caller then compares the codex's
	// files (Store.Check) and hashes the chapters (Manuscript.Verify)
	// behind the first answers. The series' codex is checked before the
	// book opens either way.
	CheckAfter bool
}

// Book is an opened book.
type Book struct {
	// Root is the book's folder, symlinks resolved.
	Root string
	// Settings are the settings files as read for this opening.
	Settings *settings.Loaded
	Globs    Globs
	Store    *codex.Store
	// Series is the codex store of the book's series folder (series: in
	// quire.yaml, once trusted); nil when the book reads none. View reads
	// the two together.
	Series     *codex.Store
	SeriesRoot string
	// SeriesCatalogs are the series' entries as the books of a workspace
	// merge them, shared through the Shelf; nil without one.
	SeriesCatalogs *codex.SeriesCatalogs
	View           *codex.View
	// Matcher finds the names of View's catalog as Open found it: built
	// while the chapters are still being read.
	Matcher    *manuscript.Matcher
	Manuscript *manuscript.Manuscript
	Cache      Cache
	Data       Data
	// Locked says another quire process holds the cache: the indexes
	// live in memory.
	Locked bool

	opts  Options
	early earlyMatcher
}

// Open reads the settings of the book at dir once, then opens the codex
// and the chapters side by side where the settings say they are.
func Open(ctx context.Context, dir string, opts Options) (*Book, error) {
	if opts.Parts == 0 {
		opts.Parts = Whole
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts = opts.oneAtATime()
	root, err := codex.ProjectRoot(dir)
	if err != nil {
		return nil, err
	}
	src := opts.Settings
	if src.Book == nil {
		src = settings.Disk(root)
	}
	loaded, err := settings.Load(src)
	if err != nil {
		return nil, err
	}
	layer := opts.Layer
	if layer == nil {
		layer = LayerGlobs
	}
	globs, err := layer(loaded)
	if err != nil {
		return nil, err
	}
	// No user cache folder leaves Dir empty: the codex then says why
	// (codex.Options.OnFallback) and keeps its index in memory.
	cache, _ := CacheFor(root, opts.Cache)
	data, _ := DataFor(root, opts.Cache)
	b := &Book{Root: root, Settings: loaded, Globs: globs, Cache: cache, Data: data, opts: opts}
	var msErr error
	var reading sync.WaitGroup
	if opts.Parts&Chapters != 0 {
		reading.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					msErr = fmt.Errorf("quire failed while reading the chapters: %v", r)
				}
			}()
			b.Manuscript, msErr = manuscript.Open(ctx, root, manuscript.Options{Globs: globs.Manuscript, Logger: opts.Logger, ChapterCache: chapterCache(root, cache), MatcherCache: namesCache(root, cache), CheckAfter: opts.CheckAfter})
		})
	}
	if opts.Parts&Codex != 0 {
		var seriesRoot string
		seriesRoot, err = b.seriesToRead()
		if err == nil {
			// The series' codex opens beside the book's own, not after it.
			var series sync.WaitGroup
			series.Go(func() { b.Series = b.openSeries(ctx, seriesRoot) })
			b.Store, err = b.openCodex(ctx, seriesRoot == "")
			series.Wait()
			if err != nil && b.Series != nil {
				_ = b.CloseSeries()
			}
		}
		if err == nil {
			b.View = codex.NewSharedView(b.Store, b.Series, b.SeriesCatalogs)
			if opts.Parts&Chapters != 0 {
				// The name automaton needs only the codex: build it while
				// the chapters are read, not after.
				start := time.Now()
				b.Matcher = b.early.matcherFor(b.View.Catalog())
				opts.Logger.Debug("names matcher built", "ms", time.Since(start).Milliseconds(), "early", b.early.used, "read", b.early.read)
				if b.early.readErr != nil {
					opts.Logger.Debug("names matcher file not read", "err", b.early.readErr)
				}
				if opts.OnCodexOpened != nil && b.Series == nil {
					opts.OnCodexOpened(b.Store, b.Matcher)
				}
			}
		}
	}
	waitStart := time.Now()
	reading.Wait()
	opts.Logger.Debug("chapters waited for", "ms", time.Since(waitStart).Milliseconds())
	if err != nil {
		return nil, err
	}
	if msErr != nil {
		b.Close()
		return nil, fmt.Errorf("open manuscript of %s: %w", root, msErr)
	}
	if b.Store != nil && b.Manuscript != nil {
		if b.early.used && b.early.read {
			b.Manuscript.MatcherSaved(b.Matcher)
		}
		switch {
		case !opts.LaterMentions:
			b.Manuscript.SetMatcher(b.Matcher)
			b.SaveChapters()
		case b.Manuscript.CachedScan(b.Matcher, cachedScanFew):
			// A warm start with the chapters' scans in the cache: taking
			// them costs milliseconds, so the book answers with its
			// chapter counts from the first hover.
			start := time.Now()
			b.Manuscript.SetMatcherAtOpen(b.Matcher)
			opts.Logger.Debug("chapter scans taken from the cache", "ms", time.Since(start).Milliseconds())
		}
	}
	return b, nil
}

// cachedScanFew is how many chapters a warm start may scan again while
// the book opens (book.Options.LaterMentions): a few chapters edited
// since the last session cost a few milliseconds each.
const cachedScanFew = 8

// openCodex opens the codex store in the book's cache folder, or in
// memory when another quire process holds it. alone says the book reads
// no series: its matcher may then be begun from the codex's saved state
// (earlyMatcher); a series book's lies over its series' (BeginSeries).
func (b *Book) openCodex(ctx context.Context, alone bool) (*codex.Store, error) {
	copts := codex.Options{CacheDir: b.Cache.Dir, Logger: b.opts.Logger, Progress: b.opts.Progress,
		Globs: b.Globs.Codex, OnFallback: b.opts.OnFallback, OnWatchFallback: b.opts.OnWatchFallback,
		BackgroundIndex: b.opts.BackgroundIndex, IndexAfter: b.opts.IndexAfter, CheckAfter: b.opts.CheckAfter, OnParseAll: b.opts.OnParseAll}
	if b.opts.Parts&Chapters != 0 && alone {
		b.early.path = namesCache(b.Root, b.Cache)
		copts.OnLoaded = b.early.start
	}
	store, err := codex.Open(ctx, b.Root, copts)
	if !b.opts.FailWhenLocked && errors.Is(err, codex.ErrIndexLocked) {
		// The caller that asks to hear of the lock tells the writer
		// itself (the CLI on stderr, the server in its status); a log
		// line besides would say it twice.
		if b.opts.OnLocked != nil {
			b.opts.Logger.Debug("index in use by another quire process; indexing in memory", "root", b.Root)
			b.opts.OnLocked()
		} else {
			b.opts.Logger.Warn("index in use by another quire process; indexing in memory", "root", b.Root)
		}
		b.Locked = true
		copts.InMemory = true
		store, err = codex.Open(ctx, b.Root, copts)
	}
	if err != nil {
		return nil, fmt.Errorf("open codex of %s: %w", b.Root, err)
	}
	return store, nil
}

// chapterCache is the chapter cache file of the book at root, none when
// the cache folder lies inside the book: quire writes nothing there.
func chapterCache(root string, c Cache) string { return outsideBook(root, c.Chapters()) }

// namesCache is the names matcher's file of the book at root, by the
// same rule.
func namesCache(root string, c Cache) string { return outsideBook(root, c.Names()) }

// outsideBook is file, a file of the cache, or none when it lies inside
// the book at root.
func outsideBook(root, file string) string {
	// The codex's rule for its own cache: links followed either way.
	if file == "" || codex.InsideProject(root, filepath.Dir(file)) {
		return ""
	}
	return file
}

// SaveChapters keeps what reading and scanning the chapters found for
// the next opening (manuscript.Manuscript.SaveCache); a failure only
// costs that opening a full reading, and is logged.
func (b *Book) SaveChapters() {
	if b.Manuscript == nil {
		return
	}
	if err := b.Manuscript.SaveCache(); err != nil {
		b.opts.Logger.Warn("chapter cache not saved", "root", b.Root, "err", err)
	}
}

// Close saves and releases the codex indexes.
func (b *Book) Close() error {
	err := b.CloseSeries()
	if b.Store == nil {
		return err
	}
	return errors.Join(b.Store.Close(), err)
}

// LayerGlobs are the codex and manuscript globs of loaded settings: the
// book's where it sets them, else the writer's. A file that does not read
// is an error naming it.
func LayerGlobs(l *settings.Loaded) (Globs, error) {
	var g Globs
	for _, f := range []*settings.File{l.Book, l.User} {
		if f.Err != nil {
			return g, f.Err
		}
		if p := f.NotMapping(); p != nil {
			return g, p
		}
	}
	var err error
	if g.Codex, err = codex.GlobsFromNode(l.Layer("codex")); err != nil {
		return g, err
	}
	if g.Manuscript, err = manuscript.GlobsFromNode(l.Layer("manuscript")); err != nil {
		return g, err
	}
	return g, nil
}
