package codex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The store's cache outside the project: opening the index and the saved
// state, refusing a cache inside the book, wiping what is stale or
// corrupt, and saving state again. Kept apart from what the store serves.

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
	if InsideProject(s.root, dir) {
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

	// The state is read while bleve opens the index rather than after
	// it: 1-8 ms to open the index, 18-34 ms to read the state, at
	// 10,000 entries. On two busy cores the start gained nothing
	// measurable (the chapters are read meanwhile); with more cores the
	// codex's branch of the start is that much shorter.
	state := readStateAhead(dir, reason == "")
	ix, created, err := openDiskIndex(filepath.Join(dir, indexDir), s.opts.BoltTimeout)
	if errors.Is(err, ErrIndexLocked) {
		state.discard()
		return fmt.Errorf("open codex index for %s: %w; close the other quire process or wait for it to finish", s.root, err)
	}
	if err != nil {
		state.discard()
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
		waitStart := time.Now()
		st, took, err := state.wait()
		s.log.Debug("codex state read", "ms", took.Milliseconds(), "waitMs", time.Since(waitStart).Milliseconds())
		current := false
		if err == nil {
			count, cerr := ix.count()
			current = st.Indexed && cerr == nil && count == uint64(len(st.Entries))
			if !current {
				s.log.Debug("codex index behind its state; rebuilding the index", "documents", count, "entries", len(st.Entries), "indexed", st.Indexed)
			}
		}
		switch {
		case err == nil && current:
			s.load(st)
			s.stateIndexed = true
		case err == nil:
			// A process that ended while the index was being built (killed,
			// crashed, its machine off) left the entries it had parsed: the
			// catalog comes from them, and only the index is built again.
			reason = "index not finished; rebuilt from the saved entries"
			if err := s.clearIndex(); err != nil {
				return err
			}
			s.load(st)
			s.reindex = true
		default:
			if !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("codex state unusable; rebuilding", "cache", dir, "err", err)
			}
			reason = "index and state out of step"
			if err := s.resetIndex(); err != nil {
				return err
			}
		}
	} else {
		state.discard()
		if reason == "" {
			reason = "no index yet"
		}
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

// clearIndex empties the on-disk index and keeps the saved state, which
// still describes the files: the index is then built from its entries
// (indexAll).
func (s *Store) clearIndex() error {
	if old := s.index.Swap(nil); old != nil {
		_ = old.close()
	}
	if err := os.RemoveAll(filepath.Join(s.cacheDir, indexDir)); err != nil {
		return fmt.Errorf("clear unfinished index: %w", err)
	}
	ix, _, err := openDiskIndex(filepath.Join(s.cacheDir, indexDir), s.opts.BoltTimeout)
	if err != nil {
		return err
	}
	s.index.Store(ix)
	return nil
}

// indexAll puts every entry the store holds into the index clearIndex
// emptied: behind the catalog when the index is built in the background
// (b, whose queued changes it replaces, since an empty index needs only
// the entries as they are now), else at once.
func (s *Store) indexAll(ctx context.Context, b *indexBuild) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.snapshot(true)
	if b != nil {
		b.mu.Lock()
		b.pending = []indexOp{{upserts: all}}
		b.mu.Unlock()
		return nil
	}
	err := s.index.Load().apply(ctx, all, nil)
	if err != nil && ctx.Err() == nil && s.cacheDir != "" {
		err = s.toMemory(ctx, err)
	}
	return err
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
	s.loadedOrder, s.loadedCatalog = st.Entries, st.Catalog
	s.sources.add(st.mapped)
	if s.opts.OnLoaded != nil {
		s.opts.OnLoaded(slices.Clone(st.Entries))
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

// Save writes the store's state to the cache, if anything changed since
// the last save. In memory it does nothing. A cache that no longer takes
// writes (full, read-only, deleted) moves the index into memory: the
// writer hears of it through OnFallback, Save returns nil, and the store
// keeps working.
//
// While the index catches up (store_build.go) the state is saved too,
// marked as not vouching for the index: what parsing the files found is
// kept as soon as it is known, so a process that ends before the index
// is built leaves a start that parses nothing; that start builds the
// index again behind the catalog. The build saves once more when done.
func (s *Store) Save() error {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	dir := s.cacheDir
	if dir == "" || s.closed {
		s.mu.Unlock()
		return nil
	}
	indexed := s.build == nil
	// bleve writes segments in its own goroutines and tells no caller
	// when that fails; its error count says the disk stopped taking them.
	if n := s.index.Load().failures(); n > 0 {
		err := s.toMemory(context.Background(), fmt.Errorf("the index could not be saved (%d failed attempts)", n))
		s.mu.Unlock()
		return err
	}
	if !s.unsaved && s.stateIndexed == indexed {
		s.mu.Unlock()
		return nil
	}
	st := &savedState{Schema: SchemaVersion, Root: s.root, Files: make(map[string]fileState, len(s.files)), Indexed: indexed}
	for id, f := range s.files {
		st.Files[id] = f
	}
	st.Entries = s.entriesInCatalogOrder()
	st.Catalog = s.catalogSaved(st.Entries)
	for _, soul := range s.souls {
		st.Souls = append(st.Souls, soul)
	}
	for _, ps := range s.skipped {
		st.Skipped = append(st.Skipped, ps...)
	}
	s.unsaved = false
	s.mu.Unlock()
	start := time.Now()
	err := writeState(dir, st)
	// Writing the state read every entry's text: what lives in a mapping
	// is dropped from the process again (source_arena.go).
	s.sources.release()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.closed || s.cacheDir != dir {
			return nil
		}
		return s.toMemory(context.Background(), err)
	}
	s.stateIndexed = indexed
	s.log.Debug("codex state saved", "entries", len(st.Entries), "indexed", indexed, "ms", time.Since(start).Milliseconds())
	return nil
}

// entriesInCatalogOrder lists the store's entries for the state file in
// the order the catalog sorts them, when the catalog holds exactly them:
// a warm start then builds its catalog from a list already sorted, which
// the sort passes over once. Otherwise, in any order. s.mu must be held.
func (s *Store) entriesInCatalogOrder() []*Entry {
	if cat := s.catalog.Load(); cat != nil && cat.Len() == len(s.entries) {
		all := cat.All()
		same := true
		for _, e := range all {
			if s.entries[e.ID] != e {
				same = false
				break
			}
		}
		if same {
			return slices.Clone(all)
		}
	}
	out := make([]*Entry, 0, len(s.entries))
	for _, e := range s.entries {
		out = append(out, e)
	}
	return out
}

// catalogSaved is what the current catalog made of entries, to save
// with the state so that a warm start reads it: the keys it holds of
// each (nil where it holds none: the state's writer makes those), and
// its sorted words when it has them of exactly entries. s.mu must be
// held.
func (s *Store) catalogSaved(entries []*Entry) savedCatalog {
	cat := s.catalog.Load()
	if cat == nil {
		return savedCatalog{}
	}
	out := make([]*keys, len(entries))
	for i, e := range entries {
		out[i], _ = cat.keys.get(e)
	}
	// A catalog made by With holds its parent's words and its own
	// apart (moreWords), and may hold removed entries' (stale).
	if cat.stale || len(cat.moreWords) > 0 || !slices.Equal(cat.sorted, entries) {
		return savedCatalog{keys: out}
	}
	return savedCatalog{keys: out, words: cat.words}
}

// loadedSnapshot is snapshot(true) of a store just loaded from its
// state, the entries in the order the state lists them (the catalog's,
// entriesInCatalogOrder), with the keys the state saved of each (nil
// when it saved none it could use). s.mu must be held, or no one else
// may use the store yet.
func (s *Store) loadedSnapshot() ([]*Entry, savedCatalog, []Problem) {
	_, skipped := s.snapshot(false)
	if len(s.loadedOrder) != len(s.entries) {
		entries, skipped := s.snapshot(true)
		return entries, savedCatalog{}, skipped
	}
	return s.loadedOrder, s.loadedCatalog, skipped
}
