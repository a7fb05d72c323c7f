package codex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quire-ink/quire/codex/filelock"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// CacheDir overrides where the index and state live; the default is
	// CacheDirFor(root). It must not lie inside the project.
	CacheDir string
	// InMemory keeps the index in memory and writes nothing anywhere.
	InMemory bool
	// BoltTimeout bounds the wait for an index another process holds
	// open; the default is one second.
	BoltTimeout time.Duration
	// Debounce is how long the watcher lets a burst of file events settle
	// before applying them; the default is 50 ms.
	Debounce time.Duration
	// SaveDelay is how long the watcher waits after a change before
	// saving state to the cache; the default is two seconds.
	SaveDelay time.Duration
	// PollInterval is how often the project is scanned when its folders
	// cannot be watched (watch_poll.go); default 2 s.
	PollInterval time.Duration
	// OnWatchFallback, when set, is called once if the system will not
	// watch the project's folders (out of file descriptors or watches)
	// and the store scans them every PollInterval instead, with a
	// sentence for the writer saying so.
	OnWatchFallback func(reason string)
	// Logger receives paths and counts, never file contents. The default
	// discards everything.
	Logger *slog.Logger
	// Progress, when set, is called as files are read during a sync, one
	// call at a time, with done rising from 1 to total.
	Progress func(done, total int)
	// Globs, when set, are the only places codex entries are looked for
	// (quire.yaml's codex:); a soul.md goes with its entry.
	Globs []string
	// OnFallback, when set, is called once if the cache cannot be used
	// (a full, read-only or vanished disk, a failing index library) and
	// the store moves its index into memory, with a sentence for the
	// writer saying why. It may be called during Open, and later from the
	// watcher's goroutine, while the store is busy: it must not call the
	// store back. Report and Fallback say the same afterwards.
	OnFallback func(reason string)
	// BackgroundIndex makes Open return as soon as the catalog holds
	// every entry: the full-text index is built afterwards on a goroutine
	// of its own (store_build.go), WaitIndex returns once it is done, and
	// Search waits for it. Without it Open returns with the index built,
	// as `quire index` needs.
	BackgroundIndex bool
	// OnLoaded, when set, is given the entries of a saved state as soon
	// as it is read, in the order the state lists them (the catalog's
	// when it was saved), before Open has checked the files: a caller may
	// start work on them that it checks against the catalog Open returns.
	// It must not keep Open waiting.
	OnLoaded func(entries []*Entry)
	// IndexAfter, when set, holds the background build until it closes,
	// and the building of what a catalog otherwise builds on first use
	// (warmLater): the language server lets its first answers go first,
	// and tests hold the index back with it.
	IndexAfter <-chan struct{}
	// CheckAfter makes a warm Open (a saved state read) answer first and
	// check after: Open returns with the catalog as the last session
	// left it, and the files are walked and compared behind it (Check,
	// or the watcher's catch-up). Without it Open returns with every file
	// checked, as the command line needs. A cold start reads every file
	// before it returns either way.
	CheckAfter bool
	// OnParseAll, when set, is called once when Open found no saved
	// state and is about to read and parse every file (a book's first
	// opening, or one whose cache was cleared): quire serve holds its
	// heap tighter through such a start (cmd/quire/memory_limit.go).
	OnParseAll func()
}

func (o Options) withDefaults() Options {
	if o.BoltTimeout <= 0 {
		o.BoltTimeout = time.Second
	}
	if o.Debounce <= 0 {
		o.Debounce = 50 * time.Millisecond
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 2 * time.Second
	}
	if o.SaveDelay <= 0 {
		o.SaveDelay = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// OpenReport says what opening a store found and did.
type OpenReport struct {
	// CacheDir is where the index lives; empty in memory.
	CacheDir string `json:"cacheDir,omitempty"`
	// Fallback, when set, says why the index is in memory although a
	// cache folder was asked for (see Options.OnFallback).
	Fallback string `json:"fallback,omitempty"`
	// Rebuilt is true when the index was built from scratch, and Reason
	// says why (missing, stale schema, corrupt, …).
	Rebuilt bool   `json:"rebuilt"`
	Reason  string `json:"reason,omitempty"`
	// Unchecked says the files were left to compare with the saved state
	// after Open (Options.CheckAfter): Check does it.
	Unchecked bool `json:"unchecked,omitempty"`
	SyncStats
}

// SyncStats count the work of bringing the catalog up to date.
type SyncStats struct {
	Files    int           `json:"files"`
	Entries  int           `json:"entries"`
	Parsed   int           `json:"parsed"`
	Removed  int           `json:"removed"`
	Duration time.Duration `json:"durationNs"`
}

// Change is one applied batch of file changes.
type Change struct {
	// Updated lists the IDs of entries added or changed (a soul.md change
	// updates its character); Removed the IDs of entries that are gone.
	Updated []string
	Removed []string
	Catalog *Catalog
	// Paths lists every project-relative path the watcher saw change in
	// this batch, codex entry or not, so other readers of the project
	// (the manuscript) can follow the same watcher; Resynced says the
	// whole project was read again instead (after an event overflow).
	Paths    []string
	Resynced bool
}

// Store keeps a project's codex current: the catalog in memory, the
// bleve index on disk (or in memory), and what it knew of every file.
// Reads are lock-free on an immutable catalog; changes are serialized.
type Store struct {
	root string
	opts Options
	// globs restrict where entries are (Options.Globs); guarded by mu.
	globs []Glob
	// watching closes when Watch has begun (Watching).
	watching  chan struct{}
	watchOnce sync.Once
	log       *slog.Logger
	// index is swapped for one in memory when the cache fails; searches
	// read it without the lock.
	index    atomic.Pointer[bleveIndex]
	fallback atomic.Pointer[string] // why the index moved into memory
	catalog  atomic.Pointer[Catalog]
	report   OpenReport
	// indexReady closes once the index has caught up with the catalog
	// Open published (store_build.go).
	indexReady chan struct{}
	// closing closes when Close begins: work waiting behind the first
	// answers (warmLater) is then not done.
	closing     chan struct{}
	closingOnce sync.Once

	mu        sync.Mutex     // guards everything below
	cacheDir  string         // empty when the index is in memory
	lock      *filelock.Lock // held while the cache folder is open
	ignore    *Ignore
	files     map[string]fileState
	entries   map[string]*Entry // attached to their souls
	souls     map[string]*Soul  // by soul ID
	soulOwner map[string]string // soul ID → entry ID
	entrySoul map[string]string // entry ID → soul ID
	skipped   map[string][]Problem
	links     []linkPair // symlinks inside the project
	unsaved   bool
	// stateIndexed says the state file on disk vouches for the index
	// (savedState.Indexed); reindex says the state was taken without
	// the index, emptied to be built again from it.
	stateIndexed bool
	reindex      bool
	// sources are the mappings the entries' texts live in, whose pages
	// are dropped from the process once read (source_arena.go).
	sources mappedSources
	closed  bool
	loaded  bool // state came from the cache; no catalog built yet
	// loadedOrder are the entries as the state listed them, and
	// loadedCatalog the catalog's keys and words it saved of them, until
	// Open has built its first catalog from them.
	loadedOrder   []*Entry
	loadedCatalog savedCatalog
	// build is the background build of the index while it runs: changes
	// then queue behind it instead of reaching the index directly.
	build *indexBuild
	// indexErr says why the background build could not finish.
	indexErr error
	// beforeIndexOp, set by tests before the build starts, runs before
	// the build writes each change to the index.
	beforeIndexOp func(context.Context)
	saveMu        sync.Mutex // serializes writes of the state file
}

// Open loads or builds the codex of the project at root and brings it up
// to date with the files on disk. A second process opening the same
// project while the first holds the index gets ErrIndexLocked.
func Open(ctx context.Context, root string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	real, err := ProjectRoot(root)
	if err != nil {
		return nil, err
	}
	globs, err := compileCodexGlobs(opts.Globs)
	if err != nil {
		return nil, err
	}
	walkCtx, stopWalk := context.WithCancel(ctx)
	defer stopWalk()
	// The walk goes beside the state's reading, unless a saved state
	// may spare it (CheckAfter): then it waits to be needed.
	var walked <-chan walk
	if !opts.CheckAfter {
		walked = walkAhead(walkCtx, real)
	}
	s := &Store{
		watching:   make(chan struct{}),
		indexReady: make(chan struct{}),
		closing:    make(chan struct{}),
		globs:      globs,
		root:       real,
		opts:       opts,
		log:        opts.Logger,
		files:      map[string]fileState{},
		entries:    map[string]*Entry{},
		souls:      map[string]*Soul{},
		soulOwner:  map[string]string{},
		entrySoul:  map[string]string{},
		skipped:    map[string][]Problem{},
	}
	if opts.InMemory {
		ix, err := newMemoryIndex()
		if err != nil {
			return nil, err
		}
		s.index.Store(ix)
		s.report.Rebuilt, s.report.Reason = true, "in memory"
	} else if err := s.openCache(); err != nil {
		// Another quire holding the cache, and a cache folder inside the
		// book, are the caller's to settle; any other failure is the
		// disk's, and the book opens with its index in memory.
		if errors.Is(err, ErrIndexLocked) || errors.As(err, new(cacheInProjectError)) {
			s.closeCache()
			return nil, err
		}
		if err := s.toMemory(ctx, err); err != nil {
			return nil, err
		}
		s.report.Rebuilt, s.report.Reason = true, "in memory"
	} else {
		s.log.Debug("codex cache opened", "rebuild", s.report.Rebuilt)
	}
	if !s.loaded && opts.OnParseAll != nil {
		opts.OnParseAll()
	}
	// A warm start builds the saved catalog while the walk checks the
	// files; a sync that changes anything publishes its own catalog.
	var build *indexBuild
	if opts.BackgroundIndex {
		build = newIndexBuild()
		s.build = build
	}
	var warm *Catalog
	var building sync.WaitGroup
	if s.loaded {
		entries, saved, skipped := s.loadedSnapshot()
		s.loadedOrder, s.loadedCatalog = nil, savedCatalog{}
		building.Go(func() { warm = newCatalog(entries, skipped, saved) })
	}
	var stats SyncStats
	if s.loaded && opts.CheckAfter && !s.reindex {
		// The files are compared behind the first answers: the caller's
		// Check, or the watcher's catch-up.
		s.report.Unchecked = true
		s.log.Debug("codex files left to check after the first answers")
	} else {
		if walked == nil {
			walked = walkAhead(walkCtx, real)
		}
		waitStart := time.Now()
		w := <-walked
		waited := time.Since(waitStart)
		stats, err = s.openSync(ctx, w, waitStart)
		s.log.Debug("codex files checked", "files", stats.Files, "parsed", stats.Parsed, "ms", stats.Duration.Milliseconds(), "walkWaitMs", waited.Milliseconds())
	}
	building.Wait()
	if err == nil && s.reindex {
		err = s.indexAll(ctx, build)
	}
	if err != nil {
		_ = s.index.Load().close()
		s.closeCache()
		return nil, err
	}
	if warm == nil {
		warm = NewCatalog(nil, nil)
	}
	if s.catalog.CompareAndSwap(nil, warm) {
		s.warmLater(warm)
	}
	s.report.SyncStats = stats
	if build != nil && len(build.pending) == 0 {
		// Nothing to index: a warm start with the index current.
		s.build, build = nil, nil
	}
	if build != nil {
		s.startBuild(build)
		return s, nil
	}
	close(s.indexReady)
	if err := s.Save(); err != nil {
		s.log.Warn("codex state not saved", "err", err)
	}
	return s, nil
}

// ProjectRoot resolves root to an absolute folder path without symlinks,
// the form every package compares paths against.
func ProjectRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", root, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", root, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("project %s: not a folder", root)
	}
	return real, nil
}

// Root is the project folder, absolute and without symlinks.
func (s *Store) Root() string { return s.root }

// Report says what Open found and did, and whether the index has moved
// into memory since.
func (s *Store) Report() OpenReport {
	r := s.report
	if why := s.Fallback(); why != "" {
		r.CacheDir, r.Fallback = "", why
	}
	return r
}

// Catalog is the current immutable snapshot of every entry.
func (s *Store) Catalog() *Catalog { return s.catalog.Load() }

// Lookup finds entries by name, best first, with bounded excerpts.
func (s *Store) Lookup(name string, t Type) []Result {
	ms := s.Catalog().Lookup(name, t)
	out := make([]Result, len(ms))
	for i, m := range ms {
		out[i] = lookupResult(s.root, m)
	}
	return out
}

// List describes every entry of a type (all types when empty).
func (s *Store) List(t Type) []Result {
	es := s.Catalog().OfType(t)
	out := make([]Result, len(es))
	for i, e := range es {
		out[i] = NewResult(s.root, e)
	}
	return out
}

// Search runs a full-text query over names, aliases, titles, types,
// paths, summaries and bodies; at most MaxSearchResults come back. While
// the index is being built (Options.BackgroundIndex) it waits for it.
func (s *Store) Search(ctx context.Context, q string, opt SearchOptions) ([]Result, error) {
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	if err := s.WaitIndex(ctx); err != nil {
		return nil, err
	}
	cat := s.Catalog()
	hits, err := s.index.Load().search(ctx, q, opt)
	if err != nil {
		return nil, err
	}
	terms := strings.Fields(q)
	out := make([]Result, 0, len(hits))
	for _, h := range hits {
		e, ok := cat.Get(h.id)
		if !ok {
			continue // removed between the search and now
		}
		r := NewResult(s.root, e)
		r.Score = h.score
		r.Excerpt = windowExcerpt(e.BodyText(), terms, SearchExcerptBytes)
		out = append(out, r)
	}
	return out, nil
}

var errClosed = errors.New("codex store is closed")

// Close saves state and releases the index. Stop Watch first.
func (s *Store) Close() error {
	s.closingOnce.Do(func() { close(s.closing) })
	s.stopBuild()
	saveErr := s.Save()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	start := time.Now()
	defer func() { s.log.Debug("codex index closed", "ms", time.Since(start).Milliseconds()) }()
	indexErr := s.index.Load().close()
	if err := s.lock.Close(); err != nil && indexErr == nil {
		indexErr = err
	}
	s.lock = nil
	if indexErr != nil {
		return fmt.Errorf("close codex index: %w", indexErr)
	}
	return saveErr
}

// warmLater builds what c otherwise builds on first use (its ranks and
// typo index) in the background, once the caller's first work is done
// (Options.IndexAfter): at a warm start of a large codex that took some
// 10 ms of CPU from the first hover's path on a 2-core machine. A
// request that needs them first builds them itself.
func (s *Store) warmLater(c *Catalog) {
	go func() {
		if after := s.opts.IndexAfter; after != nil {
			select {
			case <-after:
			case <-s.closing:
				return
			}
		}
		c.warm()
	}()
}
