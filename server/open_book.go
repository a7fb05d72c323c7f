package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/actions"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
	"go.lsp.dev/protocol"
)

// openBook is one book the session has open: a workspace folder with its
// codex and manuscript, its caches, watchers and advisor state.
type openBook struct {
	root string
	// book says root is a book's folder (book_root.go), not a workspace
	// root in which no book was found.
	book bool
	// ready closes when loading ends; err then says whether it failed.
	ready chan struct{}
	err   error
	real  string
	store *codex.Store
	ms    *manuscript.Manuscript
	// cache is where the book's indexes and records live outside it.
	cache mbook.Cache
	// data is where what outlives a cleared cache lives: the writing
	// history, the snapshots.
	data mbook.Data
	// chapterSaves writes the chapter cache as the session learns it
	// (chapter_saves.go); set with ms.
	chapterSaves *chapterSaves
	// inMemory says the book's indexes live in memory: another quire
	// process holds the cache (locked), or the cache failed (a full,
	// read-only or deleted disk) and the codex moved its index into
	// memory, the writer told through onCacheFailure.
	inMemory       atomic.Bool
	locked         bool
	onCacheFailure func(why string)
	// onWatchFallback tells the writer that the book's files are scanned
	// rather than watched (codex.Options.OnWatchFallback).
	onWatchFallback func(why string)
	// speech is the last attribution of each chapter asked about
	// (dialogue.go).
	speech speechCache
	// narrators are the chapters' votes for the book's narrator, kept
	// across the Books of its versions (dialogue.Narrators).
	narrators dialogue.Narrators
	// proposals are the advisor's proposals for this book, kept in memory
	// until the writer applies or forgets them.
	proposals proposal.Store
	// passages is the manuscript's paragraph index for explicate, opened
	// on first use (explicate.go).
	passages passageIndex
	// matcher finds the current codex's names. The mention index catches
	// up with it in the background (indexed closes the first time), so
	// the first hover need not wait for the whole book to be scanned.
	matcher atomic.Pointer[manuscript.Matcher]
	indexed chan struct{}
	// lastScan is the last text scanned for a request while the index
	// could not answer for it (scanText).
	lastScan atomic.Pointer[textScan]
	// startedCh closes once the book has loaded and found its names, or
	// failed to load (markStarted).
	startedCh   chan struct{}
	startedOnce sync.Once
	// settledCh closes once the start's background work is over too:
	// the search index is built or could not be, or the book did not
	// load (markSettled).
	settledCh   chan struct{}
	settledOnce sync.Once
	// indexGate closes when the codex's search index may be built
	// (index_build.go).
	indexGate chan struct{}
	// followMu orders the changes follow applies.
	followMu sync.Mutex
	// config is quire.yaml as last read without errors (config.go), and
	// userConfigErr why the user's config.yaml under it was left out.
	config        atomic.Pointer[bookConfig]
	userConfigErr atomic.Pointer[string]
	// settingsSources, when set, say where the settings files are read
	// from (Options.settingsSources).
	settingsSources func(root string) settings.Sources

	// lastStatus is the status the client was last sent (status.go).
	statusMu   sync.Mutex
	lastStatus *wire.BookStatus

	// actions are the book's advisor actions as of actionsStamp (actions.go).
	actionsMu    sync.Mutex
	actions      []actions.Prepared
	actionsStamp string

	// mcp is the pool of MCP servers for mcpServers (config.go).
	mcpMu      sync.Mutex
	mcp        *llm.MCPClients
	mcpServers map[string]llm.MCPServer

	// codexMu guards codexScan, the codex's own mentions, built lazily,
	// and published, the codex files whose problems the client was sent
	// and what those problems were (problems_sent.go), as the books
	// reading the series (seriesReaders) were then.
	codexMu          sync.Mutex
	codexScan        *codexMentions
	published        map[string]sentProblems
	publishedReaders string

	// story is the book's continuity canon and timeline (continuity.go).
	story storyTime

	// overlay is the editor's text of open codex files (codex_overlay.go).
	overlay codexOverlay
	// series is how the book follows its series folder and reads it
	// again when quire.yaml or the writer's trust changes (series.go).
	series seriesLink
	// edits are the editor's texts not yet taken (edit_queue.go).
	edits editQueue
	// words follows the book's counts into its history (word_counts.go).
	words wordCounts
	// snaps keeps the chapters' versions (snapshots.go); nil until the
	// book has loaded, or when there is no data folder.
	snaps *snapshots

	// trust is the record of trusted books; trustAsked is the hash of
	// the settings the writer was last asked to trust (trust.go).
	trust      *trust.Store
	trustMu    sync.Mutex
	trustAsked string
	// names writes the book's file URIs as the client does (textdoc.Names);
	// nil writes textdoc.PathURI's.
	names *textdoc.Names
	// spellings are paths inside the book as given and as on disk, where
	// the file system does not tell case apart (path_case.go).
	spellings     sync.Map
	spellingCount atomic.Int64
	// gate is the server's: background work yields to requests
	// (yield.go). Nil never waits.
	gate *requestGate
}

// newOpenBook resolves root now, so that the paths requests compare
// against never change while the project loads.
func newOpenBook(root string) *openBook {
	p := &openBook{root: root, real: root, ready: make(chan struct{}), indexed: make(chan struct{}), startedCh: make(chan struct{}), settledCh: make(chan struct{}), indexGate: make(chan struct{})}
	if real, err := codex.ProjectRoot(root); err == nil {
		p.real = real
	}
	return p
}

// load opens the codex (its index in the cache, or in memory when
// another quire holds it) and the manuscript, and finds the codex's names
// in the prose.
//
// beforeReady runs once the project has loaded, just before requests may
// use it; it does not run when loading fails.
func (p *openBook) load(ctx context.Context, opts Options, log *slog.Logger, onProgress func(done, total int), beforeReady func()) {
	loaded := false
	defer func() {
		if loaded && beforeReady != nil {
			beforeReady()
			return
		}
		close(p.ready)
	}()
	// Loading runs library code (bleve, YAML, Markdown) on its own
	// goroutine: a panic there fails this book, not the server. It runs
	// before the deferred call above, so the book is never ready without
	// a store.
	defer func() {
		if r := recover(); r != nil {
			log.Error("loading the book panicked", "root", p.root, "panic", fmt.Sprint(r))
			if p.store != nil {
				_ = p.store.Close()
			}
			p.store, p.ms, loaded = nil, nil, false
			p.err = fmt.Errorf("quire failed while reading the book (%v); reopen the folder to try again", r)
		}
	}()
	real, err := codex.ProjectRoot(p.root)
	if err != nil {
		p.err = err
		return
	}
	// The book opens in one place for the command line and the server
	// (manuscript/book): its settings read once, the codex opening while
	// the chapters are read. A quire.yaml with errors does not keep the
	// book closed: the book opens with the defaults, and the file shows
	// its problems.
	p.settingsSources = opts.settingsSources
	start := time.Now()
	b, err := mbook.Open(ctx, real, mbook.Options{
		Settings: p.sources(),
		Layer: func(l *settings.Loaded) (mbook.Globs, error) {
			cfg, problems, userErr := layerConfig(l, real, p.trust)
			p.noteUserConfig(userErr)
			setAside := hasErrors(problems)
			if setAside {
				log.Warn("quire.yaml has errors; using the defaults until it is fixed", "root", real)
				cfg = bookConfig{}
			}
			p.config.Store(&cfg)
			return mbook.Globs{Codex: cfg.codexGlobs, Manuscript: cfg.globs, SetAside: setAside}, nil
		},
		Cache:    mbook.CacheOptions{Base: opts.CacheDir},
		Logger:   log,
		Progress: onProgress,
		OnFallback: func(why string) {
			p.inMemory.Store(true)
			if p.onCacheFailure != nil {
				p.onCacheFailure(why)
			}
		},
		OnWatchFallback: func(why string) {
			if p.onWatchFallback != nil {
				p.onWatchFallback(why)
			}
		},
		OnLocked: func() {
			p.inMemory.Store(true)
			p.locked = true
		},
		// Mentions are found once the book answers (index).
		LaterMentions: true,
		// Canon answers before the search index is built (index_build.go).
		BackgroundIndex: true,
		IndexAfter:      p.indexGate,
		OnParseAll:      opts.ParsingAll,
		// A warm start answers from the last session's codex and checks
		// its files behind the first answers (followChecked).
		CheckAfter: true,
		Trust:      p.trust,
		OnSeriesFailed: func(err error) {
			log.Warn("series canon not read", "root", real, "err", err)
		},
		// Made beside the chapters' reading: timelineFor, below, finds it
		// made.
		OnCodexOpened: func(store *codex.Store, names *manuscript.Matcher) { p.canonEarly(store, names, log) },
		Shelf:         opts.shelf,
	})
	if err != nil {
		p.err = err
		return
	}
	p.series.book = b
	// Under the overlay's lock: the continuity canon made beside the
	// chapters (canonEarly) may still be reading it.
	p.overlay.mu.Lock()
	p.overlay.series, p.overlay.seriesCatalogs = b.Series, b.SeriesCatalogs
	p.overlay.mu.Unlock()
	m := b.Matcher
	if m == nil {
		m = manuscript.NewMatcher(b.View.Catalog())
	}
	p.matcher.Store(m)
	p.overlay.matcherCat = b.View.Catalog()
	log.Debug("project loaded", "root", real, "totalMs", time.Since(start).Milliseconds())
	p.store, p.ms, p.cache, p.data = b.Store, b.Manuscript, b.Cache, b.Data
	if moved, err := p.data.Migrate(); err != nil {
		log.Warn("the data folder", "err", err)
	} else if moved {
		log.Info("moved the writing history from the cache to the data folder", "dir", p.data.Dir)
	}
	p.chapterSaves = newChapterSaves(b.Manuscript.SaveCache, log.With("root", real))
	p.openWordCounts(opts, log)
	p.openSnapshots(log)
	// The continuity canon a hover in a chapter reads (its card as of the
	// chapter): built before the book answers, so that the first hover
	// and those right after it do not queue for it.
	p.timelineFor(p.ms.Snapshot())
	loaded = true
}

// markStarted says the book's start is over (whenStarted).
func (p *openBook) markStarted() { p.startedOnce.Do(func() { close(p.startedCh) }) }

// markSettled says the book's background work after its start is over
// (whenStarted).
func (p *openBook) markSettled() { p.settledOnce.Do(func() { close(p.settledCh) }) }

// index scans the manuscript with the project's matcher; run after
// ready, it makes references, rename and untracked names complete.
func (p *openBook) index(log *slog.Logger) {
	start := time.Now()
	// A warm start may have found the names while the book opened
	// (book.Manuscript.CachedScan).
	if m := p.matcher.Load(); p.ms.Snapshot().Mentions().Matcher() != m {
		p.ms.SetMatcher(m)
	}
	close(p.indexed)
	read, scanned := p.ms.CacheHits()
	log.Debug("manuscript indexed", "root", p.real, "ms", time.Since(start).Milliseconds(), "readFromCache", read, "scansFromCache", scanned)
}

// waitIndexed blocks until the manuscript has been scanned for mentions
// once.
func (p *openBook) waitIndexed(ctx context.Context) error {
	if err := p.wait(ctx); err != nil {
		return err
	}
	select {
	case <-p.indexed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait blocks until the project is loaded.
func (p *openBook) wait(ctx context.Context) error {
	select {
	case <-p.ready:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loaded reports whether the project is ready to answer.
func (p *openBook) loaded() bool {
	select {
	case <-p.ready:
		return p.err == nil
	default:
		return false
	}
}

// rel is the project-relative, slash-separated path of a file inside the
// project, spelled as on disk (diskSpelling).
func (p *openBook) rel(path string) (string, bool) {
	for _, root := range []string{p.real, p.root} {
		r, err := filepath.Rel(root, path)
		if err == nil && r != "." && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r) {
			return p.diskSpelling(filepath.ToSlash(r)), true
		}
	}
	return "", false
}

func (p *openBook) close() {
	p.closeMCP()
	p.passages.close()
	if p.store != nil {
		// A failed save only costs the next start a re-read.
		_ = p.store.Close()
	}
	if p.ms != nil {
		// What reading and scanning the chapters found, kept for the next
		// start (manuscript.Manuscript.SaveCache): saved as it was learned
		// (chapter_saves.go), and once more on the way out for what the
		// last changes taught; a failure costs the next start a full
		// reading.
		p.chapterSaves.stop()
		_ = p.ms.SaveCache()
		p.closeWordCounts()
		p.closeSnapshots()
	}
	p.releaseSeries()
}

// closeProjects releases every project's index.
func (s *Server) closeProjects() {
	for _, p := range s.sess.books() {
		select {
		case <-p.ready:
			p.close()
		default:
		}
	}
}

// loadedProjects are the session's books that have loaded, in
// workspace order.
func (s *Server) loadedProjects() []*openBook {
	projects := s.sess.books()
	out := projects[:0]
	for _, p := range projects {
		if p.loaded() {
			out = append(out, p)
		}
	}
	return out
}

// readAsSeries reports whether another open, loaded book reads p's
// folder as its series.
func (s *Server) readAsSeries(p *openBook) bool {
	for _, q := range s.loadedProjects() {
		if q == p {
			continue
		}
		if st := q.seriesStore(); st != nil && st.Root() == p.real {
			return true
		}
	}
	return false
}

// projectHolding is the innermost project whose folder holds path by
// name, wherever a symlink on the way leads.
func (s *Server) projectHolding(path string) (*openBook, string, bool) {
	projects := s.sess.books()
	var best *openBook
	var bestRel string
	for _, p := range projects {
		if rel, ok := p.rel(path); ok && (best == nil || len(rel) < len(bestRel)) {
			best, bestRel = p, rel
		}
	}
	return best, bestRel, best != nil
}

// uri is the file: URI of a project-relative path, or of the absolute
// path of a file of the series canon (an entry's ID there).
func (p *openBook) uri(rel string) protocol.DocumentURI {
	if filepath.IsAbs(rel) {
		return p.names.URI(rel)
	}
	return p.names.URI(filepath.Join(p.real, filepath.FromSlash(rel)))
}
