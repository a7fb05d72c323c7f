package book

import (
	"context"
	"sync"

	"github.com/quire-ink/quire/codex"
)

// Shelf holds the series stores that the books of one workspace share:
// two books of a series opened by one language server read one series
// catalog in memory and one series index in the cache, not a copy each.
// Stores are keyed by the series folder's real path and closed when the
// last book that holds one lets go of it.
type Shelf struct {
	mu     sync.Mutex
	series map[string]*shelved
}

type shelved struct {
	store *codex.Store
	// catalogs are the series' entries as every book merges them, built
	// once per change of the series.
	catalogs *codex.SeriesCatalogs
	books    int
	// followers are told of each change the watcher applies; the watch
	// runs from the first follower on, until the store is closed.
	followers map[int]func(codex.Change)
	next      int
	stopWatch context.CancelFunc
	watched   chan struct{}
}

// NewShelf is an empty shelf.
func NewShelf() *Shelf { return &Shelf{series: map[string]*shelved{}} }

// take returns the store of the series at root and the catalogs its
// books share, opening the store with open the first time.
func (s *Shelf) take(ctx context.Context, root string, open func(context.Context, *codex.SeriesCatalogs) (*codex.Store, error)) (*codex.Store, *codex.SeriesCatalogs, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh, ok := s.series[root]; ok {
		sh.books++
		return sh.store, sh.catalogs, nil
	}
	// Opened under the lock: a second book of the series waits for the
	// first reading rather than starting its own.
	cats := codex.NewSeriesCatalogs(root)
	store, err := open(ctx, cats)
	if err != nil {
		return nil, nil, err
	}
	sh := &shelved{store: store, catalogs: cats, books: 1, followers: map[int]func(codex.Change){}}
	s.series[root] = sh
	return store, sh.catalogs, nil
}

// release lets go of the series at root; the last book to do so stops
// its watch and closes its store.
func (s *Shelf) release(root string) error {
	s.mu.Lock()
	sh, ok := s.series[root]
	if ok {
		if sh.books--; sh.books > 0 {
			ok = false
		} else {
			delete(s.series, root)
		}
	}
	s.mu.Unlock()
	if !ok {
		return nil
	}
	// The watcher's callbacks take the lock: it is released before
	// waiting for the watch to end.
	if sh.stopWatch != nil {
		sh.stopWatch()
		<-sh.watched
	}
	return sh.store.Close()
}

// Follow tells fn of each change to the series at root that the shelf's
// one watcher of it applies, from the watcher's goroutine, until stop is
// called. The series folder is watched once however many books follow
// it. onErr, if set, is told why the watch stopped early.
func (s *Shelf) Follow(root string, fn func(codex.Change), onErr func(error)) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.series[root]
	if !ok {
		return func() {}
	}
	id := sh.next
	sh.next++
	sh.followers[id] = fn
	if sh.stopWatch == nil {
		ctx, cancel := context.WithCancel(context.Background())
		sh.stopWatch, sh.watched = cancel, make(chan struct{})
		go func() {
			defer close(sh.watched)
			err := sh.store.Watch(ctx, func(ch codex.Change) {
				s.mu.Lock()
				fns := make([]func(codex.Change), 0, len(sh.followers))
				for _, f := range sh.followers {
					fns = append(fns, f)
				}
				s.mu.Unlock()
				for _, f := range fns {
					f(ch)
				}
			})
			if err != nil && ctx.Err() == nil && onErr != nil {
				onErr(err)
			}
		}()
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(sh.followers, id)
	}
}

// Len is how many series stores the shelf holds open.
func (s *Shelf) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.series)
}
