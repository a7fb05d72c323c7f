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
	books int
}

// NewShelf is an empty shelf.
func NewShelf() *Shelf { return &Shelf{series: map[string]*shelved{}} }

// take returns the store of the series at root, opening it with open
// the first time.
func (s *Shelf) take(ctx context.Context, root string, open func(context.Context) (*codex.Store, error)) (*codex.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh, ok := s.series[root]; ok {
		sh.books++
		return sh.store, nil
	}
	// Opened under the lock: a second book of the series waits for the
	// first reading rather than starting its own.
	store, err := open(ctx)
	if err != nil {
		return nil, err
	}
	s.series[root] = &shelved{store: store, books: 1}
	return store, nil
}

// release lets go of the series at root; the last book to do so closes
// its store.
func (s *Shelf) release(root string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.series[root]
	if !ok {
		return nil
	}
	if sh.books--; sh.books > 0 {
		return nil
	}
	delete(s.series, root)
	return sh.store.Close()
}

// Len is how many series stores the shelf holds open.
func (s *Shelf) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.series)
}
