package codex

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Building the index behind the catalog. With Options.BackgroundIndex,
// Open publishes the catalog as soon as the entries are parsed, and the
// bleve index catches up on a goroutine of its own: hover, definition and
// mentions need only the catalog, and only a search waits for the index.
// Every change applied while the index catches up is queued behind it, in
// order, so the index ends holding exactly what the catalog holds.
//
// The state file on disk never vouches for an index that is behind:
// before the build writes to the index, the state is saved marked as not
// indexed (savedState.Indexed), and saved again, indexed, once the build
// is done. That first save also keeps what parsing found as soon as the
// build may start: a process that ends mid-build (killed, crashed) leaves
// the parsed entries, from which the next start takes its catalog while
// it builds the index again behind it (Store.indexAll).

// indexOp is one applied change waiting for the index.
type indexOp struct {
	upserts []*Entry
	deletes []string
}

// indexBuild is the background build while it runs.
type indexBuild struct {
	mu      sync.Mutex
	pending []indexOp
	// wake has room for one signal: ops were added.
	wake   chan struct{}
	cancel context.CancelFunc
	// done closes when the builder's goroutine has ended, finished or not.
	done chan struct{}
}

func newIndexBuild() *indexBuild {
	return &indexBuild{wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// add queues a change for the index.
func (b *indexBuild) add(op indexOp) {
	b.mu.Lock()
	b.pending = append(b.pending, op)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take removes and returns the queued changes.
func (b *indexBuild) take() []indexOp {
	b.mu.Lock()
	defer b.mu.Unlock()
	ops := b.pending
	b.pending = nil
	return ops
}

// startBuild launches the builder for the changes queued so far and those
// to come. s.build must be set; s.mu must not be held.
func (s *Store) startBuild(b *indexBuild) {
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	go func() {
		defer close(b.done)
		defer cancel()
		if after := s.opts.IndexAfter; after != nil {
			select {
			case <-after:
			case <-ctx.Done():
				return
			}
		}
		// Before the first write to the index, and after the caller's
		// first work (IndexAfter), which this write must not slow down.
		s.disownIndex()
		s.log.Debug("codex index build started")
		s.sources.releaseUntil(s.indexReady, s.closing)
		if s.runBuild(ctx, b) {
			if err := s.Save(); err != nil {
				s.log.Warn("codex state not saved", "err", err)
			}
		}
	}()
}

// runBuild applies queued changes until none is left, then marks the
// index ready. It reports whether it finished.
func (s *Store) runBuild(ctx context.Context, b *indexBuild) bool {
	for {
		ops := b.take()
		if len(ops) == 0 {
			// Applies queue under s.mu: holding it, an empty queue stays
			// empty, and the next change goes to the index directly.
			s.mu.Lock()
			if len(b.pending) == 0 {
				s.build = nil
				s.mu.Unlock()
				s.log.Debug("codex index built")
				close(s.indexReady)
				return true
			}
			s.mu.Unlock()
			continue
		}
		for _, op := range ops {
			if s.beforeIndexOp != nil {
				s.beforeIndexOp(ctx)
			}
			ix := s.index.Load()
			err := ix.applyAt(ctx, lean, op.upserts, op.deletes)
			if ctx.Err() != nil {
				return false
			}
			if err == nil {
				continue
			}
			s.mu.Lock()
			if s.index.Load() == ix && !s.closed {
				// The index in memory is built from every entry the store
				// holds, the queued ones included.
				if merr := s.toMemory(ctx, err); merr != nil {
					s.indexErr = merr
					s.build = nil
					s.mu.Unlock()
					close(s.indexReady)
					return false
				}
				b.take()
			}
			s.mu.Unlock()
			break
		}
	}
}

// disownIndex saves the state as not vouching for the index, which is
// about to change. A failed save moves the index into memory and clears
// the cache (toMemory); should even that fail, with the old state still
// vouching for the index on disk, that state is removed: the next start
// then reads the files again rather than trust an index half changed.
func (s *Store) disownIndex() {
	if err := s.Save(); err != nil {
		s.log.Warn("codex state not saved before the index build", "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cacheDir == "" || !s.stateIndexed {
		return
	}
	if err := os.Remove(filepath.Join(s.cacheDir, stateFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("codex state not removed before the index build", "err", err)
		return
	}
	s.stateIndexed = false
}

// stopBuild ends a background build still running, and waits for it.
func (s *Store) stopBuild() {
	s.mu.Lock()
	b := s.build
	s.mu.Unlock()
	if b == nil || b.cancel == nil {
		return
	}
	b.cancel()
	<-b.done
}

// IndexBuilding reports whether the index is still catching up with the
// catalog.
func (s *Store) IndexBuilding() bool {
	select {
	case <-s.indexReady:
		return false
	default:
		return true
	}
}

// WaitIndex blocks until the index is ready or ctx ends.
func (s *Store) WaitIndex(ctx context.Context) error {
	select {
	case <-s.indexReady:
		s.mu.Lock()
		err := s.indexErr
		s.mu.Unlock()
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SearchNow answers a search at once. Once the index is built it is
// Search; while the index is still being built it matches names, titles
// and aliases in the catalog instead (Lookup's order, the filters
// applied), and fromCatalog says so, for the caller to tell the reader
// that bodies and summaries were not searched yet.
func (s *Store) SearchNow(ctx context.Context, q string, opt SearchOptions) (results []Result, fromCatalog bool, err error) {
	if !s.IndexBuilding() {
		results, err = s.Search(ctx, q, opt)
		return results, false, err
	}
	if err := checkQuery(q); err != nil {
		return nil, true, err
	}
	limit := opt.resultLimit()
	terms := strings.Fields(q)
	for _, m := range s.Catalog().Lookup(q, opt.Type) {
		e := m.Entry
		if opt.Status != "" && e.Status != opt.Status || !hasTags(e, opt.Tags) {
			continue
		}
		r := NewResult(s.root, e)
		r.Match, r.Score = m.Kind, m.Score
		r.Excerpt = windowExcerpt(e.BodyText(), terms, SearchExcerptBytes)
		results = append(results, r)
		if len(results) == limit {
			break
		}
	}
	return results, true, nil
}

// hasTags reports whether e carries every tag, compared as the index
// compares them (normalized).
func hasTags(e *Entry, tags []string) bool {
	for _, want := range tags {
		if !slices.ContainsFunc(e.Tags, func(t string) bool { return Normalize(t) == Normalize(want) }) {
			return false
		}
	}
	return true
}

// resultLimit is how many results opt asks for: Limit, capped at
// MaxSearchResults; zero means the maximum.
func (opt SearchOptions) resultLimit() int {
	if opt.Limit <= 0 || opt.Limit > MaxSearchResults {
		return MaxSearchResults
	}
	return opt.Limit
}
