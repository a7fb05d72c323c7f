package codex

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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
}

func (o Options) withDefaults() Options {
	if o.BoltTimeout <= 0 {
		o.BoltTimeout = time.Second
	}
	if o.Debounce <= 0 {
		o.Debounce = 50 * time.Millisecond
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

	mu        sync.Mutex // guards everything below
	cacheDir  string     // empty when the index is in memory
	lock      *cacheLock // held while the cache folder is open
	ignore    *Ignore
	files     map[string]fileState
	entries   map[string]*Entry // attached to their souls
	souls     map[string]*Soul  // by soul ID
	soulOwner map[string]string // soul ID → entry ID
	entrySoul map[string]string // entry ID → soul ID
	skipped   map[string][]Problem
	links     []linkPair // symlinks inside the project
	unsaved   bool
	closed    bool
	loaded    bool       // state came from the cache; no catalog built yet
	saveMu    sync.Mutex // serializes writes of the state file
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
	s := &Store{
		watching:  make(chan struct{}),
		globs:     globs,
		root:      real,
		opts:      opts,
		log:       opts.Logger,
		files:     map[string]fileState{},
		entries:   map[string]*Entry{},
		souls:     map[string]*Soul{},
		soulOwner: map[string]string{},
		entrySoul: map[string]string{},
		skipped:   map[string][]Problem{},
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
	// A warm start builds the saved catalog while the walk checks the
	// files; a sync that changes anything publishes its own catalog.
	var warm *Catalog
	var building sync.WaitGroup
	if s.loaded {
		entries, skipped := s.snapshot(true)
		building.Go(func() { warm = NewCatalog(entries, skipped) })
	}
	stats, err := s.Sync(ctx)
	s.log.Debug("codex files checked", "files", stats.Files, "ms", stats.Duration.Milliseconds())
	building.Wait()
	if err != nil {
		_ = s.index.Load().close()
		s.closeCache()
		return nil, err
	}
	if warm == nil {
		warm = NewCatalog(nil, nil)
	}
	if s.catalog.CompareAndSwap(nil, warm) {
		go warm.warm()
	}
	s.report.SyncStats = stats
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

// openCache opens the persisted index and state, rebuilding them when
// missing, stale or unreadable.
func (s *Store) openCache() error {
	dir := s.opts.CacheDir
	if dir == "" {
		var err error
		if dir, err = CacheDirFor(s.root); err != nil {
			return err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("cache folder %s: %w", dir, err)
	}
	if insideProject(s.root, dir) {
		return cacheInProjectError{dir: dir, root: s.root}
	}
	// Said in the message when the folder cannot even be made.
	s.report.CacheDir = dir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create cache folder: %w", err)
	}
	lock, err := lockCache(dir, s.opts.BoltTimeout)
	if err != nil {
		return fmt.Errorf("open codex index for %s: %w; close the other quire process or wait for it to finish", s.root, err)
	}
	s.lock = lock
	s.cacheDir, s.report.CacheDir = dir, dir

	reason := ""
	m, err := readMeta(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		reason = "no index yet"
	case err != nil:
		reason = "unreadable stamp"
	case m.Schema != SchemaVersion:
		reason = fmt.Sprintf("index schema %d is stale (now %d)", m.Schema, SchemaVersion)
	case m.Root != s.root:
		reason = "index belongs to another project path"
	}
	if reason != "" {
		if err := s.wipe(); err != nil {
			return err
		}
	}

	ix, created, err := openDiskIndex(filepath.Join(dir, indexDir), s.opts.BoltTimeout)
	if errors.Is(err, ErrIndexLocked) {
		return fmt.Errorf("open codex index for %s: %w; close the other quire process or wait for it to finish", s.root, err)
	}
	if err != nil {
		s.log.Warn("codex index unreadable; rebuilding", "cache", dir, "err", err)
		reason = "index was corrupt"
		if err := s.wipe(); err != nil {
			return err
		}
		if ix, _, err = openDiskIndex(filepath.Join(dir, indexDir), s.opts.BoltTimeout); err != nil {
			return err
		}
		created = true
	}
	s.index.Store(ix)

	if !created {
		loadStart := time.Now()
		st, err := readState(dir)
		s.log.Debug("codex state read", "ms", time.Since(loadStart).Milliseconds())
		if err == nil {
			count, cerr := ix.count()
			if cerr != nil || count != uint64(len(st.Entries)) {
				err = fmt.Errorf("index holds %d documents, state %d entries", count, len(st.Entries))
			}
		}
		if err == nil {
			s.load(st)
		} else {
			if !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("codex state unusable; rebuilding", "cache", dir, "err", err)
			}
			reason = "index and state out of step"
			if err := s.resetIndex(); err != nil {
				return err
			}
		}
	} else if reason == "" {
		reason = "no index yet"
	}
	if reason != "" {
		s.report.Rebuilt, s.report.Reason = true, reason
	}
	return writeMeta(dir, s.root)
}

// cacheInProjectError refuses a cache folder inside the book: quire
// writes nothing there, and it is no disk failure to fall back from.
type cacheInProjectError struct{ dir, root string }

func (e cacheInProjectError) Error() string {
	return fmt.Sprintf("cache folder %s is inside the project %s; quire writes nothing into a book project", e.dir, e.root)
}

// wipe deletes the index and state; the cache folder stays.
func (s *Store) wipe() error {
	for _, name := range []string{indexDir, stateFile, metaFile} { // never lockFile: we hold it
		if err := os.RemoveAll(filepath.Join(s.cacheDir, name)); err != nil {
			return fmt.Errorf("clear stale index: %w", err)
		}
	}
	return nil
}

// resetIndex closes, wipes and recreates the on-disk index.
func (s *Store) resetIndex() error {
	if old := s.index.Swap(nil); old != nil {
		_ = old.close()
	}
	if err := s.wipe(); err != nil {
		return err
	}
	ix, _, err := openDiskIndex(filepath.Join(s.cacheDir, indexDir), s.opts.BoltTimeout)
	if err != nil {
		return err
	}
	s.index.Store(ix)
	return nil
}

// load adopts a saved state as what the store knows.
func (s *Store) load(st *savedState) {
	s.files = st.Files
	if s.files == nil {
		s.files = map[string]fileState{}
	}
	for _, e := range st.Entries {
		s.entries[e.ID] = e
	}
	for _, soul := range st.Souls {
		s.souls[soul.ID] = soul
	}
	for id, f := range s.files {
		if f.SoulOf != "" && s.souls[id] != nil {
			s.soulOwner[id] = f.SoulOf
			s.entrySoul[f.SoulOf] = id
		}
	}
	for _, p := range st.Skipped {
		s.skipped[p.Path] = append(s.skipped[p.Path], p)
	}
	s.loaded = true
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
// paths, summaries and bodies; at most MaxSearchResults come back.
func (s *Store) Search(ctx context.Context, q string, opt SearchOptions) ([]Result, error) {
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

// Sync walks the whole project and applies every difference from what the
// store knows: new, changed, moved and deleted files.
func (s *Store) Sync(ctx context.Context) (SyncStats, error) {
	_, stats, err := s.sync(ctx)
	return stats, err
}

func (s *Store) sync(ctx context.Context) (Change, SyncStats, error) {
	start := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Change{}, SyncStats{}, errClosed
	}
	s.ignore = loadIgnore(s.root)
	cands, links, err := discover(ctx, s.root, s.ignore)
	if err != nil {
		return Change{}, SyncStats{}, err
	}
	s.links = links
	ch, stats, err := s.apply(ctx, cands, func(string) bool { return true })
	stats.Duration = time.Since(start)
	return ch, stats, err
}

// SetGlobs changes where entries are looked for (none: everywhere) and
// brings the store in line: entries now outside go, files now inside are
// read. The change it returns is marked Resynced.
func (s *Store) SetGlobs(ctx context.Context, patterns []string) (Change, SyncStats, error) {
	globs, err := compileCodexGlobs(patterns)
	if err != nil {
		return Change{}, SyncStats{}, err
	}
	s.mu.Lock()
	s.globs = globs
	s.mu.Unlock()
	ch, stats, err := s.sync(ctx)
	ch.Resynced = true
	return ch, stats, err
}

// Rebuild forgets what the store knows of every file's content, then
// reads the whole project again and rewrites every entry in the index:
// the cure when the index seems out of step with the files. The change it
// returns is marked Resynced.
func (s *Store) Rebuild(ctx context.Context) (Change, SyncStats, error) {
	s.mu.Lock()
	for id := range s.files {
		// Keeping the key lets a file that is gone still count as removed.
		s.files[id] = fileState{}
	}
	s.mu.Unlock()
	ch, stats, err := s.sync(ctx)
	ch.Resynced = true
	return ch, stats, err
}

var errClosed = errors.New("codex store is closed")

// loadIgnore reads the project's .gitignore; a missing one is no error.
func loadIgnore(root string) *Ignore {
	data, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		data = nil
	}
	return ParseIgnore(string(data))
}

// Refresh re-reads the given project-relative paths (files or folders,
// present or gone) and applies what changed. The watcher calls it with
// each settled burst of events.
func (s *Store) Refresh(ctx context.Context, rels []string) (Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Change{}, errClosed
	}
	if s.ignore == nil {
		s.ignore = loadIgnore(s.root)
	}

	var cands []candidate
	files := map[string]bool{}
	var folders []string
	seen := map[string]bool{}
	var visit func(rel string)
	visit = func(rel string) {
		if seen[rel] || rel == "" || s.ignore.Ignored(rel, false) && s.ignore.Ignored(rel, true) {
			return
		}
		seen[rel] = true
		abs := filepath.Join(s.root, filepath.FromSlash(rel))
		info, err := os.Stat(abs)
		if err == nil && !within(s.root, realPath(abs)) {
			err = fs.ErrNotExist // a link that now leads out counts as gone
		}
		switch {
		case err != nil:
			files[rel] = true
			folders = append(folders, rel+"/")
		case info.IsDir():
			if s.ignore.Ignored(rel, true) {
				return
			}
			found, links, derr := discoverUnder(ctx, s.root, s.ignore, rel)
			if derr == nil {
				cands = append(cands, found...)
				s.addLinks(links)
			}
			folders = append(folders, rel+"/")
		case info.Mode().IsRegular() && IsMarkdown(rel) && !s.ignore.Ignored(rel, false):
			cands = append(cands, classify(s.root, rel, info))
			files[rel] = true
		}
		// A new or deleted index.md turns its folder into an entry folder
		// or back: every file beside it is read anew.
		if path.Base(rel) == entryIndex {
			visit(parentDir(rel))
		}
	}
	for _, rel := range s.throughLinks(rels) {
		visit(rel)
	}
	inScope := func(id string) bool {
		if files[id] {
			return true
		}
		for _, f := range folders {
			if strings.HasPrefix(id, f) {
				return true
			}
		}
		return false
	}
	ch, _, err := s.apply(ctx, cands, inScope)
	return ch, err
}

// throughLinks adds to project-relative paths the other names they have
// through symlinks inside the project: editing a link's target changes
// the entry read through the link, and the watcher reports only one name.
func (s *Store) throughLinks(rels []string) []string {
	out := make([]string, 0, len(rels))
	seen := map[string]bool{}
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	for _, rel := range rels {
		add(strings.Trim(filepath.ToSlash(rel), "/"))
	}
	// Two rounds follow a link into a linked folder, and no further.
	for range 2 {
		for _, rel := range slices.Clone(out) {
			for _, l := range s.links {
				if rest, ok := underPath(rel, l.target); ok {
					add(path.Join(l.link, rest))
				}
				if rest, ok := underPath(rel, l.link); ok {
					add(path.Join(l.target, rest))
				}
			}
		}
	}
	return out
}

// underPath reports whether rel is base or lies below it, and the rest.
func underPath(rel, base string) (string, bool) {
	if rel == base {
		return "", true
	}
	if strings.HasPrefix(rel, base+"/") {
		return rel[len(base)+1:], true
	}
	return "", false
}

func (s *Store) addLinks(links []linkPair) {
	for _, l := range links {
		if !slices.Contains(s.links, l) {
			s.links = append(s.links, l)
		}
	}
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// readResult is a file read for apply.
type readResult struct {
	cand  candidate
	hash  [sha256.Size]byte
	entry *Entry
	soul  *Soul
	probs []Problem
	// same is true when the content hash matches what was known: only the
	// file's time changed.
	same bool
	gone bool
}

// apply brings the store in line with cands. Known files for which
// inScope holds and that are not among cands are removed. It must be
// called with s.mu held.
func (s *Store) apply(ctx context.Context, cands []candidate, inScope func(id string) bool) (Change, SyncStats, error) {
	if len(s.globs) > 0 {
		// Outside the globs a file is no candidate: one the store knew
		// counts as removed.
		cands = slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool {
			id := c.ID
			if c.SoulOf != "" {
				id = c.SoulOf
			}
			return !slices.ContainsFunc(s.globs, func(g Glob) bool { return g.Match(id) })
		})
	}
	present := make(map[string]bool, len(cands))
	var toRead []candidate
	for _, c := range cands {
		present[c.ID] = true
		prev, known := s.files[c.ID]
		if known && prev.Size == c.Size && prev.ModTime == c.ModTime.UnixNano() &&
			prev.FolderType == c.FolderType && prev.SoulOf == c.SoulOf {
			continue
		}
		toRead = append(toRead, c)
	}
	readStart := time.Now()
	results, err := s.readAll(ctx, toRead)
	if err != nil {
		return Change{}, SyncStats{}, err
	}
	if len(toRead) > 0 {
		s.log.Debug("codex files read", "files", len(toRead), "ms", time.Since(readStart).Milliseconds())
	}

	var removed []string
	for id := range s.files {
		if !present[id] && inScope(id) {
			removed = append(removed, id)
		}
	}
	for _, r := range results {
		if r.gone {
			removed = append(removed, r.cand.ID)
		}
	}
	slices.Sort(removed)

	// Entries whose document must be rewritten, and entries that left.
	dirty := map[string]bool{}
	gone := map[string]bool{}
	skippedChanged := false
	forget := func(id string) {
		if _, ok := s.entries[id]; ok {
			gone[id] = true
			delete(s.entries, id)
		}
		if owner, ok := s.soulOwner[id]; ok {
			dirty[owner] = true
			delete(s.souls, id)
			delete(s.soulOwner, id)
			if s.entrySoul[owner] == id {
				delete(s.entrySoul, owner)
			}
		}
		if _, ok := s.skipped[id]; ok {
			skippedChanged = true
			delete(s.skipped, id)
		}
	}
	for _, id := range removed {
		forget(id)
		delete(s.files, id)
	}

	parsed := 0
	for _, r := range results {
		if r.gone {
			continue
		}
		c := r.cand
		prev := s.files[c.ID]
		s.files[c.ID] = fileState{Size: c.Size, ModTime: trustedModTime(c.ModTime), Hash: r.hash, FolderType: c.FolderType, SoulOf: c.SoulOf}
		if r.same && prev.FolderType == c.FolderType && prev.SoulOf == c.SoulOf {
			continue
		}
		parsed++
		forget(c.ID)
		switch {
		case r.soul != nil:
			s.souls[c.ID] = r.soul
			s.soulOwner[c.ID] = c.SoulOf
			s.entrySoul[c.SoulOf] = c.ID
			dirty[c.SoulOf] = true
		case r.entry != nil:
			s.entries[c.ID] = r.entry
			delete(gone, c.ID)
			dirty[c.ID] = true
		}
		if len(r.probs) > 0 && r.entry == nil {
			s.skipped[c.ID] = r.probs
			skippedChanged = true
		}
	}

	ch := Change{}
	var upserts []*Entry
	for id := range dirty {
		e, ok := s.entries[id]
		if !ok {
			continue
		}
		if e = s.attachSoul(e); e != s.entries[id] {
			s.entries[id] = e
		}
		upserts = append(upserts, e)
		ch.Updated = append(ch.Updated, id)
	}
	for id := range gone {
		ch.Removed = append(ch.Removed, id)
	}
	slices.SortFunc(upserts, func(a, b *Entry) int { return strings.Compare(a.ID, b.ID) })
	slices.Sort(ch.Updated)
	slices.Sort(ch.Removed)

	// The catalog and the index are built side by side; the new catalog
	// is published only once the index holds the same entries.
	var next *Catalog
	var building sync.WaitGroup
	if len(upserts) > 0 || len(ch.Removed) > 0 || skippedChanged {
		base := s.catalog.Load()
		entries, skipped := s.snapshot(base == nil)
		building.Go(func() {
			start := time.Now()
			if base == nil {
				next = NewCatalog(entries, skipped)
			} else {
				next = base.With(upserts, ch.Removed, skipped)
			}
			s.log.Debug("codex catalog built", "entries", next.Len(), "ms", time.Since(start).Milliseconds())
		})
	}
	var indexErr error
	if len(upserts) > 0 || len(ch.Removed) > 0 {
		indexStart := time.Now()
		indexErr = s.index.Load().apply(ctx, upserts, ch.Removed)
		s.log.Debug("codex index updated", "upserts", len(upserts), "deletes", len(ch.Removed), "ms", time.Since(indexStart).Milliseconds())
		if indexErr != nil && ctx.Err() == nil && s.cacheDir != "" {
			// The entries are already in s.entries: the index in memory
			// is built from them, and this change is published with it.
			indexErr = s.toMemory(ctx, indexErr)
		}
	}
	building.Wait()
	if indexErr != nil {
		return Change{}, SyncStats{}, indexErr
	}
	if next != nil {
		s.catalog.Store(next)
		go next.warm()
	}
	if len(results) > 0 || len(removed) > 0 {
		s.unsaved = true
	}
	ch.Catalog = s.catalog.Load()
	stats := SyncStats{Files: len(s.files), Entries: len(s.entries), Parsed: parsed, Removed: len(removed)}
	if len(ch.Updated)+len(ch.Removed) > 0 {
		s.log.Debug("codex updated", "updated", len(ch.Updated), "removed", len(ch.Removed))
	}
	return ch, stats, nil
}

// racyWindow is how recent a modification time must be for quire not to
// trust it: a second write within the same clock tick as the read would
// leave size and time unchanged. Such files are hashed again on the next
// sync (as git does with its index).
const racyWindow = 2 * time.Second

// trustedModTime is the time to remember for a file, or 0 (never equal to
// a real time) when it is too recent to trust.
func trustedModTime(t time.Time) int64 {
	if time.Since(t) < racyWindow {
		return 0
	}
	return t.UnixNano()
}

// attachSoul returns e with its current soul attached: a copy when the
// attachment changes, e itself otherwise. Only characters have souls.
func (s *Store) attachSoul(e *Entry) *Entry {
	var want *Soul
	if e.Type == TypeCharacter {
		want = s.souls[s.entrySoul[e.ID]]
	}
	if e.Soul == want {
		return e
	}
	cp := *e
	cp.Soul = want
	return &cp
}

// snapshot lists what the store holds, for building a catalog: the
// entries when withEntries is set, and the problems of skipped files.
// s.mu must be held, or no one else may use the store yet.
func (s *Store) snapshot(withEntries bool) ([]*Entry, []Problem) {
	var entries []*Entry
	if withEntries {
		entries = make([]*Entry, 0, len(s.entries))
		for _, e := range s.entries {
			entries = append(entries, e)
		}
	}
	var skipped []Problem
	for _, ps := range s.skipped {
		skipped = append(skipped, ps...)
	}
	return entries, skipped
}

// readAll reads, hashes and parses files in parallel.
func (s *Store) readAll(ctx context.Context, toRead []candidate) ([]readResult, error) {
	results := make([]readResult, len(toRead))
	if len(toRead) == 0 {
		return results, nil
	}
	var next atomic.Int64
	var progressMu sync.Mutex
	done := 0
	workers := min(runtime.GOMAXPROCS(0), len(toRead))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(toRead) || ctx.Err() != nil {
					return
				}
				results[i] = s.read(toRead[i])
				if s.opts.Progress != nil {
					progressMu.Lock()
					done++
					s.opts.Progress(done, len(toRead))
					progressMu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// read loads one file. Oversized files are read only far enough to tell
// whether they claim to be entries.
func (s *Store) read(c candidate) readResult {
	r := readResult{cand: c}
	f, err := os.Open(c.Abs)
	if err != nil {
		r.gone = true
		return r
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxEntryBytes+1))
	if err != nil {
		r.gone = true
		return r
	}
	r.cand.Size = max(c.Size, int64(len(data)))
	r.hash = sha256.Sum256(data)
	if prev, ok := s.files[c.ID]; ok && prev.Hash == r.hash {
		r.same = true
	}
	if c.SoulOf != "" {
		r.soul = ParseSoul(c.ID, data)
		return r
	}
	if len(data) > MaxEntryBytes {
		// Judge by the head whether this claims to be an entry at all.
		head := data[:min(len(data), 64<<10)]
		if e, _ := Parse(c.ID, head, c.FolderType); e != nil {
			r.probs = []Problem{tooLarge(c.ID, r.cand.Size)}
		}
		return r
	}
	r.entry, r.probs = Parse(c.ID, data, c.FolderType)
	return r
}

// Save writes the store's state to the cache, if anything changed since
// the last save. In memory it does nothing. A cache that no longer takes
// writes (full, read-only, deleted) moves the index into memory: the
// writer hears of it through OnFallback, Save returns nil, and the store
// keeps working.
func (s *Store) Save() error {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	dir := s.cacheDir
	if dir == "" || s.closed {
		s.mu.Unlock()
		return nil
	}
	// bleve writes segments in its own goroutines and tells no caller
	// when that fails; its error count says the disk stopped taking them.
	if n := s.index.Load().failures(); n > 0 {
		err := s.toMemory(context.Background(), fmt.Errorf("the index could not be saved (%d failed attempts)", n))
		s.mu.Unlock()
		return err
	}
	if !s.unsaved {
		s.mu.Unlock()
		return nil
	}
	st := &savedState{Schema: SchemaVersion, Root: s.root, Files: make(map[string]fileState, len(s.files))}
	for id, f := range s.files {
		st.Files[id] = f
	}
	for _, e := range s.entries {
		st.Entries = append(st.Entries, e)
	}
	for _, soul := range s.souls {
		st.Souls = append(st.Souls, soul)
	}
	for _, ps := range s.skipped {
		st.Skipped = append(st.Skipped, ps...)
	}
	s.unsaved = false
	s.mu.Unlock()
	start := time.Now()
	defer func() {
		s.log.Debug("codex state saved", "entries", len(st.Entries), "ms", time.Since(start).Milliseconds())
	}()
	if err := writeState(dir, st); err != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed || s.cacheDir != dir {
			return nil
		}
		return s.toMemory(context.Background(), err)
	}
	return nil
}

// Close saves state and releases the index. Stop Watch first.
func (s *Store) Close() error {
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
	if err := s.lock.release(); err != nil && indexErr == nil {
		indexErr = err
	}
	s.lock = nil
	if indexErr != nil {
		return fmt.Errorf("close codex index: %w", indexErr)
	}
	return saveErr
}
