package codex

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Applying a change: reading the candidate files in parallel, telling
// changed from unchanged by size, time and hash, and swapping in a new
// immutable catalog. One idea, the store's only writer of its catalog.

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
	// A book's first opening: its files' texts go to an arena out of the
	// heap (source_arena.go), dropped from the process once read. Later
	// changes, however many, go to the heap: an arena lives as long as
	// the process.
	var arena *sourceArena
	if s.cacheDir != "" && len(s.files) == 0 {
		var size int64
		for _, c := range toRead {
			size += max(c.Size, 0)
		}
		if arena = newSourceArena(s.cacheDir, size+size/16); arena != nil {
			s.sources.add(arena.data)
			defer s.sources.release()
		}
	}
	results, err := s.readAll(ctx, toRead, arena)
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
	if s.build != nil && (len(upserts) > 0 || len(ch.Removed) > 0) {
		// The index is being built behind the catalog: this change
		// follows the build, and the catalog is published at once.
		s.build.add(indexOp{upserts: upserts, deletes: ch.Removed})
	} else if len(upserts) > 0 || len(ch.Removed) > 0 {
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
		s.warmLater(next)
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
func (s *Store) readAll(ctx context.Context, toRead []candidate, arena *sourceArena) ([]readResult, error) {
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
				results[i] = s.read(toRead[i], arena)
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
func (s *Store) read(c candidate, arena *sourceArena) readResult {
	r := readResult{cand: c}
	f, err := os.Open(c.Abs)
	if err != nil {
		r.gone = true
		return r
	}
	defer f.Close()
	data, err := readAllSized(io.LimitReader(f, MaxEntryBytes+1), min(max(c.Size, 0), MaxEntryBytes)+1)
	if err != nil {
		r.gone = true
		return r
	}
	r.cand.Size = max(c.Size, int64(len(data)))
	r.hash = sha256.Sum256(data)
	if prev, ok := s.files[c.ID]; ok && prev.Hash == r.hash {
		r.same = true
	}
	data = DecodeText(data)
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
	r.entry, r.probs = parseInto(c.ID, data, c.FolderType, arena)
	return r
}

// readAllSized is io.ReadAll starting from a buffer of the size the file
// was found to have (one more byte, to meet the end without growing):
// io.ReadAll starts small and grows, copying, which for ten thousand
// files was as much garbage again as the files themselves.
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}
