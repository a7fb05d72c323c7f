package manuscript

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
)

// Options configure a Manuscript. The zero value is ready to use.
type Options struct {
	// Globs select the chapter files, relative to the project root, with
	// "**" spanning folders; default DefaultGlobs.
	Globs []string
	// Logger receives paths and counts, never prose. The default discards
	// everything.
	Logger *slog.Logger
	// Catalog is the codex whose names are found in the prose from the
	// start; SetCatalog changes it later. None finds no mentions.
	Catalog *codex.Catalog
	// ChapterCache is the file, outside the book, where what reading and
	// scanning each chapter found is kept between runs (chapter_cache.go);
	// none keeps nothing.
	ChapterCache string
	// MatcherCache is the file, beside the chapter cache, of the names
	// matcher the chapters were scanned with (mention_file.go): SaveCache
	// writes it whenever it holds other names, so that the next opening
	// reads the matcher rather than build it (ReadMatcher). None keeps
	// nothing.
	MatcherCache string
	// CheckAfter answers first and checks after: the opening takes a
	// chapter's record from the cache by its file's size and time, and
	// Verify hashes the bytes later. Without it every chapter's bytes are
	// hashed before Open returns, as the command line needs.
	CheckAfter bool
}

// Manuscript keeps a project's chapters current: it reads them from disk
// or from the overlay of open documents, and publishes immutable
// snapshots, so readers never see a half-applied change.
type Manuscript struct {
	root string
	// globs select the chapters; SetGlobs swaps them while readers use them.
	globs   atomic.Pointer[[]glob]
	log     *slog.Logger
	overlay *Overlay

	// mu serializes changes; readers only load snap.
	mu   sync.Mutex
	snap atomic.Pointer[Snapshot]
	// ignore holds the project's ignore rules as of the last Reload, so
	// that Refresh keeps out what discovery keeps out. Guarded by mu.
	ignore *codex.Ignore
	// cachePath is Options.ChapterCache.
	cachePath string
	// matcherPath is Options.MatcherCache; matcherSaved the version of the
	// names its file is known to hold (saveMatcher).
	matcherPath  string
	matcherSaved struct {
		sync.Mutex
		version [sha256.Size]byte
	}
	// checkAfter is Options.CheckAfter; unverified says the opening took
	// chapters by their stamps and Verify has not hashed them yet.
	checkAfter bool
	unverified atomic.Bool
}

// Open finds and reads the chapters of the project at root.
func Open(ctx context.Context, root string, opts Options) (*Manuscript, error) {
	real, err := codex.ProjectRoot(root)
	if err != nil {
		return nil, err
	}
	globs, err := compileGlobs(opts.Globs)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manuscript{root: real, log: log, overlay: NewOverlay(), cachePath: opts.ChapterCache, matcherPath: opts.MatcherCache, checkAfter: opts.CheckAfter}
	m.globs.Store(&globs)
	// The cache file is read and checked while the chapters are found,
	// read and hashed: only matching a chapter to its record waits for it.
	var cache *chapterCache
	cacheRead := make(chan struct{})
	go func() {
		defer close(cacheRead)
		var err error
		cache, err = readChapterCache(opts.ChapterCache)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// A cache that does not read costs a full reading, nothing
			// else; after an upgrade of quire it is expected, so no
			// warning.
			log.Info("chapter cache not used; reading every chapter", "err", err)
		}
	}()
	pending := func() *chapterCache {
		<-cacheRead
		return cache
	}
	m.snap.Store(&Snapshot{root: real, overlay: m.overlay, byPath: map[string]*Unit{}, mentions: BuildMentionIndex(NewMatcher(opts.Catalog), nil)})
	if err := m.reload(ctx, pending); err != nil {
		return nil, err
	}
	return m, nil
}

// compileGlobs compiles the patterns; none means DefaultGlobs.
func compileGlobs(patterns []string) ([]glob, error) {
	if len(patterns) == 0 {
		patterns = DefaultGlobs
	}
	globs := make([]glob, 0, len(patterns))
	for _, p := range patterns {
		g, err := compileGlob(p)
		if err != nil {
			return nil, err
		}
		globs = append(globs, g)
	}
	return globs, nil
}

// SetGlobs changes which files are chapters (none means DefaultGlobs) and
// finds every chapter again.
func (m *Manuscript) SetGlobs(ctx context.Context, patterns []string) error {
	globs, err := compileGlobs(patterns)
	if err != nil {
		return err
	}
	m.globs.Store(&globs)
	return m.Reload(ctx)
}

// Root is the project folder, absolute and without symlinks.
func (m *Manuscript) Root() string { return m.root }

// Overlay is the editor's open documents.
func (m *Manuscript) Overlay() *Overlay { return m.overlay }

// Snapshot is the current immutable view of the manuscript.
func (m *Manuscript) Snapshot() *Snapshot { return m.snap.Load() }

// IsChapter reports whether the project-relative path rel is, or would
// be, a chapter: whether a manuscript glob matches it.
func (m *Manuscript) IsChapter(rel string) bool {
	for _, g := range *m.globs.Load() {
		if g.Match(rel) && codex.IsMarkdown(rel) {
			return true
		}
	}
	return false
}

// Reload finds every chapter again and reads each one.
func (m *Manuscript) Reload(ctx context.Context) error { return m.reload(ctx, nil) }

// reload is Reload; pending, when set, gives the chapter cache Open is
// reading meanwhile, which the snapshot then keeps.
func (m *Manuscript) reload(ctx context.Context, pending func() *chapterCache) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cacheOf := func() *chapterCache { return m.snap.Load().cache }
	// Only the opening's reading trusts stamps: Reload reads as the
	// command line does.
	trust := false
	if pending != nil {
		cacheOf = pending
		trust = m.checkAfter
	}
	ig := codex.ParseIgnore(readGitignore(m.root))
	paths, offline, err := discover(ctx, m.root, *m.globs.Load(), ig)
	if err != nil {
		return err
	}
	m.ignore = ig
	// A chapter the writer created in the editor and has not saved yet
	// exists only in the overlay.
	for _, rel := range m.overlay.Paths() {
		if m.wanted(rel) && !slices.Contains(paths, rel) {
			paths = append(paths, rel)
		}
	}
	slices.SortFunc(paths, compareReadingOrder)
	units := make([]*Unit, len(paths))
	errs := make([]error, len(paths))
	dirs := newRealDirs()
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				units[i], errs[i] = readUnitWith(m.root, m.overlay, paths[i], cacheOf, dirs, trust)
			}
		})
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	kept := units[:0]
	var unreadable []codex.Problem
	for i, u := range units {
		if errs[i] != nil {
			// A chapter that vanished since the walk is left out, and one
			// that cannot be read is left out and said; the next change
			// event brings either back.
			if p, ok := unreadableProblem(paths[i], errs[i]); ok {
				unreadable = append(unreadable, p)
			}
			m.log.Debug("chapter not read", "path", paths[i], "err", errs[i])
			continue
		}
		kept = append(kept, u)
	}
	base := m.snap.Load()
	if pending != nil {
		b := *base
		b.cache = pending()
		base = &b
	}
	if trust {
		m.unverified.Store(slices.ContainsFunc(kept, func(u *Unit) bool { return u.unverified }))
	}
	next := base.withUnits(kept)
	next.offline = offline
	next.unreadable = unreadable // in reading order, which sorts by path within a folder
	slices.SortFunc(next.unreadable, func(a, b codex.Problem) int { return strings.Compare(a.Path, b.Path) })
	m.publish(next)
	m.log.Debug("manuscript loaded", "chapters", len(kept), "fromCache", m.snap.Load().cache.hitCount())
	return ctx.Err()
}

// Refresh re-reads the given project-relative paths after they changed
// on disk or in the overlay: a chapter that changed is read again, one
// that is gone leaves the manuscript, a new file a glob matches joins it.
// It reports whether anything changed.
func (m *Manuscript) Refresh(ctx context.Context, rels []string) (bool, error) {
	return m.refresh(ctx, rels, false)
}

// refresh is Refresh; again replaces a chapter read again even when its
// text is the one the manuscript holds.
func (m *Manuscript) refresh(ctx context.Context, rels []string, again bool) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.snap.Load()
	next := cur
	for _, rel := range rels {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if !m.wanted(rel) {
			// Discovery would not keep it (no glob matches it, or the
			// project ignores it), so it is no chapter either.
			next = next.without(rel).withUnreadable(rel, nil)
			continue
		}
		u, err := m.read(rel)
		if err != nil {
			// As in Reload, an unreadable chapter costs itself, not the
			// other changes of the batch, and is said.
			next = next.without(rel)
			if p, ok := unreadableProblem(rel, err); ok {
				m.log.Debug("chapter not read", "path", rel, "err", err)
				next = next.withUnreadable(rel, &p)
			} else {
				next = next.withUnreadable(rel, nil)
			}
			continue
		}
		next = next.withUnreadable(rel, nil)
		if old, ok := next.byPath[rel]; ok && !again && old.Text == u.Text && old.Version == u.Version {
			continue
		}
		next = next.with(u)
	}
	if next == cur {
		return false, nil
	}
	m.publish(next)
	return true, nil
}

// wanted reports whether rel is a chapter that discovery would keep: a
// glob matches it and the project does not ignore it.
func (m *Manuscript) wanted(rel string) bool {
	return m.IsChapter(rel) && (m.ignore == nil || !m.ignore.Ignored(rel, false))
}

// OpenDocument puts the editor's text of rel in the overlay and, when rel
// is a chapter, into the manuscript.
func (m *Manuscript) OpenDocument(ctx context.Context, rel, text string, version int32) error {
	if !m.overlay.Set(rel, text, version) {
		return nil
	}
	_, err := m.Refresh(ctx, []string{rel})
	return err
}

// CloseDocument drops rel from the overlay; the chapter reads from disk
// again.
func (m *Manuscript) CloseDocument(ctx context.Context, rel string) error {
	m.overlay.Close(rel)
	_, err := m.Refresh(ctx, []string{rel})
	return err
}

// read reads one unit through the overlay.
func (m *Manuscript) read(rel string) (*Unit, error) {
	return readUnitCached(m.root, m.overlay, rel, m.snap.Load().cache)
}

func (m *Manuscript) publish(s *Snapshot) { m.snap.Store(s) }

// SetCatalog makes cat the codex whose names are found in the prose: a
// new name automaton, and every chapter scanned again.
func (m *Manuscript) SetCatalog(cat *codex.Catalog) {
	m.SetMatcher(NewMatcher(cat))
}

// saveMatcher writes matcher to the names file when the file does not
// hold it already, which it checks once per set of names in a session,
// not at every save. A matcher of no names is not worth a file: it costs
// nothing to build, and it is the one a manuscript holds before it is
// given the codex's.
func (m *Manuscript) saveMatcher(matcher *Matcher) error {
	if m.matcherPath == "" || matcher == nil || matcher.layer != nil || len(matcher.ids) == 0 {
		return nil
	}
	m.matcherSaved.Lock()
	defer m.matcherSaved.Unlock()
	if m.matcherSaved.version == matcher.version {
		return nil
	}
	if !SavedMatcherIs(m.matcherPath, matcher) {
		if err := SaveMatcher(m.matcherPath, matcher); err != nil {
			return err
		}
	}
	m.matcherSaved.version = matcher.version
	return nil
}

// MatcherSaved says the names file holds matcher already: the opening
// read it from there (ReadMatcher), and SaveCache need not read it again
// to know.
func (m *Manuscript) MatcherSaved(matcher *Matcher) {
	m.matcherSaved.Lock()
	defer m.matcherSaved.Unlock()
	m.matcherSaved.version = matcher.version
}

// SetMatcher is SetCatalog with the automaton already built, for a caller
// that uses the same matcher meanwhile (and can tell, by comparing it
// with the index's, whether the index has caught up).
func (m *Manuscript) SetMatcher(matcher *Matcher) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.publish(m.snap.Load().withMatcher(matcher))
}

// SetMatcherAtOpen is SetMatcher for the one caller that holds the
// manuscript alone, right after Open and before anyone else reads it
// (book.Open): the chapter cache read at the opening takes matcher's
// entry IDs in place, where SetMatcher copies its records because other
// snapshots may share them. On a warm start of 800 chapters that copy
// was a sixth of the time to the first hover.
func (m *Manuscript) SetMatcherAtOpen(matcher *Matcher) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.snap.Load()
	s.cache.shareInPlace(matcher)
	m.publish(s.withMatcher(matcher))
}

// Verify hashes again the chapters the opening took from the cache by
// their files' size and time (Options.CheckAfter), and reads again those
// whose bytes are not the ones the cache knew. pause, when set, runs
// before each file (to let requests go first). It returns the chapters
// read again.
func (m *Manuscript) Verify(ctx context.Context, pause func(context.Context) error) ([]string, error) {
	var changed []string
	for _, u := range m.snap.Load().units {
		if !u.unverified || u.Version != 0 {
			continue
		}
		if pause != nil {
			if err := pause(ctx); err != nil {
				return nil, err
			}
		}
		_, sum, _, _, err := openInside(m.root, u.Path, nil, nil)
		if err != nil || sum != u.sum {
			changed = append(changed, u.Path)
		}
	}
	if ctx.Err() == nil {
		m.unverified.Store(false)
	}
	if len(changed) == 0 {
		return nil, ctx.Err()
	}
	// Read again even when the text is the same: what the cache gave it
	// (its outline, its scan) is another text's.
	_, err := m.refresh(ctx, changed, true)
	return changed, err
}

// Unverified reports whether a chapter was taken by its stamp and not yet
// hashed (Verify).
func (m *Manuscript) Unverified() bool { return m.unverified.Load() }

// readUnit reads rel from the overlay when it is open there, else from
// disk, confined to root. The path is checked before the overlay is
// consulted: an open document is no exception to confinement, whatever
// path the editor gave it.
func readUnit(root string, overlay *Overlay, rel string) (*Unit, error) {
	return readUnitCached(root, overlay, rel, nil)
}

// readUnitCached is readUnit taking what reading the text finds from
// the chapter cache when the file's bytes are those it knows.
func readUnitCached(root string, overlay *Overlay, rel string, cache *chapterCache) (*Unit, error) {
	return readUnitWith(root, overlay, rel, func() *chapterCache { return cache }, nil, false)
}

// readUnitWith is readUnitCached asking for the cache only once the
// chapter's bytes are read and hashed, so that reading the cache file
// and reading the chapters overlap.
//
// trustStamps takes a chapter's record by its file's size and time,
// without hashing its bytes (Options.CheckAfter; Verify hashes them
// behind the first answers).
func readUnitWith(root string, overlay *Overlay, rel string, cacheOf func() *chapterCache, dirs *realDirs, trustStamps bool) (*Unit, error) {
	clean, err := checkFilePath(rel)
	if err != nil {
		return nil, err
	}
	if d, ok := overlay.Get(clean); ok {
		return NewUnit(clean, d.Text, d.Version), nil
	}
	var known func(codex.FileStamp) ([sha256.Size]byte, bool)
	if trustStamps {
		known = func(st codex.FileStamp) ([sha256.Size]byte, bool) { return cacheOf().stampSum(clean, st) }
	}
	text, sum, stamp, trusted, err := openInside(root, clean, dirs, known)
	if err != nil {
		return nil, err
	}
	if u, ok := cacheOf().unit(clean, readable(text), sum); ok {
		u.stamp, u.unverified = stamp, trusted
		return u, nil
	}
	u := NewUnit(clean, text, 0)
	u.stamp = stamp
	if trusted {
		// The record's sum is not this text's: no sum, so nothing is
		// taken from or saved to the cache for it until Verify reads it
		// again.
		u.unverified = true
	} else {
		u.sum = sum
	}
	return u, nil
}

func readGitignore(root string) string {
	data, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		return ""
	}
	return string(data)
}

// SaveCache keeps what reading and scanning the chapters found in the
// chapter cache (Options.ChapterCache), for the next start: the
// outlines and, found with the current names, the mentions. Chapters
// with the editor's unsaved text are left out. It writes nothing when
// the file already says all of it. The names matcher those mentions were
// found with goes to its own file (Options.MatcherCache).
func (m *Manuscript) SaveCache() error {
	snap := m.snap.Load()
	if err := m.saveMatcher(snap.mentions.matcher); err != nil {
		// The names cost the next opening a build, nothing else; the
		// chapters are saved all the same.
		m.log.Warn("names matcher not saved", "err", err)
	}
	if m.cachePath == "" {
		return nil
	}
	next, changed := snap.cacheRecords()
	if !changed {
		return nil
	}
	data, err := encodeChapterCache(next.matcher, next.table, next.records)
	if err != nil {
		return err
	}
	if err := writeCacheFile(m.cachePath, data); err != nil {
		return fmt.Errorf("save chapter cache: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// Later snapshots take their scans from the records just written,
	// which share them with the index, rather than from the file read at
	// start.
	if cur := m.snap.Load(); cur.cache == snap.cache {
		c := *cur
		c.cache = next
		m.publish(&c)
	}
	return nil
}
