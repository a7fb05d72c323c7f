package codex

import "sync"

// SeriesLayer says how a book's catalog merged with its series
// (SeriesCatalogs.Merge) was made: the series' entries, shared by every
// book of the series in the workspace, with the book's own entries laid
// over them and the series entries the book overrides hidden. What is
// derived from the series' entries alone (a name matcher) can then be
// built once per series and shared by its books too (Shared).
type SeriesLayer struct {
	// Series is the series' catalog at absolute IDs, shared by the books.
	Series *Catalog
	// Book are the entries the book lays over it: its own, and its
	// overrides of series entries.
	Book []*Entry
	// Hidden are the IDs, in Series, of the series entries the book
	// overrides.
	Hidden []string
}

// SeriesLayer is the layering of a book's catalog merged with its series
// as the merge made it; false for any other catalog (a book without a
// series, or one changed since the merge).
func (c *Catalog) SeriesLayer() (*SeriesLayer, bool) {
	return c.layered, c.layered != nil
}

// sharedValues memoizes what readers derive from one immutable catalog.
type sharedValues struct {
	mu     sync.Mutex
	values map[any]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
	// early, when set, is the value SeriesCatalogs.Early began.
	early *earlyValue
}

// Shared is the value build derives from c, under key: built once for a
// series catalog that books share (SeriesLayer.Series) and handed to
// every caller after, so that what each book would derive from the
// series lives once in memory. For any other catalog build runs on
// every call. key should be a value of an unexported type of the
// caller's package, as with context.Context values.
func (c *Catalog) Shared(key any, build func() any) any {
	s := c.shared
	if s == nil {
		return build()
	}
	s.mu.Lock()
	v, ok := s.values[key]
	if !ok {
		if s.values == nil {
			s.values = map[any]*sharedValue{}
		}
		v = &sharedValue{}
		s.values[key] = v
	}
	s.mu.Unlock()
	// Built outside the lock: a second caller waits for the first
	// build of its key only.
	v.once.Do(func() {
		if v.early != nil {
			<-v.early.done
			v.v, v.early = v.early.v, nil
		}
		if v.v == nil {
			v.v = build()
		}
	})
	return v.v
}

// Compare orders two entries of c as All lists them.
func (c *Catalog) Compare(a, b *Entry) int { return c.compareEntries(a, b) }
