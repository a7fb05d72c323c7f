package codex

import (
	"slices"
	"sync"
)

// A warm start of a series book used to wait for the series store to
// check its thousands of files before it copied the series' entries to
// their absolute IDs and built what the books derive from them (a name
// matcher), one after the other. The store's saved state lists the same
// entries before that check (Options.OnLoaded): the copies and what is
// derived from them are made from it meanwhile, and used when the
// catalog the store opens with lists exactly those entries in that
// order (nothing changed while quire was closed); otherwise they are
// dropped and made again from the catalog.

// earlySeries is what SeriesCatalogs.Early began.
type earlySeries struct {
	// entries are the state's, in the catalog's order; copies theirs at
	// absolute IDs, once copied is closed.
	entries []*Entry
	copies  []*Entry
	copied  chan struct{}
	// derived are the values begun on the copies, by Shared key.
	derived map[any]*earlyValue
}

type earlyValue struct {
	done chan struct{}
	v    any
}

// Early begins, from the entries of the series store's saved state, in
// the order it lists them, the copies at absolute IDs that its books read
// and, for each key of derive, the value derive makes of those copies
// for Shared(key) on the series catalog. Both are handed on when the
// series catalog is made from a store catalog of exactly those entries;
// a value whose derivation panicked is made again by Shared's caller.
// Called once, before the first Merge; later calls are ignored.
func (sc *SeriesCatalogs) Early(entries []*Entry, derive map[any]func(copies []*Entry) any) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.early != nil || sc.abs != nil {
		return
	}
	e := &earlySeries{entries: entries, copied: make(chan struct{}), derived: make(map[any]*earlyValue, len(derive))}
	for key := range derive {
		e.derived[key] = &earlyValue{done: make(chan struct{})}
	}
	sc.early = e
	m := &Merged{SeriesRoot: sc.root}
	go func() {
		copies := make([]*Entry, len(entries))
		for i, en := range entries {
			copies[i] = m.seriesCopy(en)
		}
		e.copies = copies
		close(e.copied)
		var wg sync.WaitGroup
		for key, build := range derive {
			v := e.derived[key]
			wg.Go(func() {
				defer close(v.done)
				defer func() {
					if recover() != nil {
						v.v = nil
					}
				}()
				v.v = build(copies)
			})
		}
		wg.Wait()
	}()
}

// takeEarly is what Early began, when series lists exactly its
// entries; it is let go of either way. sc.mu must be held.
func (sc *SeriesCatalogs) takeEarly(series *Catalog) *earlySeries {
	e := sc.early
	sc.early = nil
	if e == nil || !slices.Equal(series.All(), e.entries) {
		return nil
	}
	<-e.copied
	return e
}

// seed hands each value e derived to the first Shared caller of its key.
func (s *sharedValues) seed(e *earlySeries) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[any]*sharedValue{}
	}
	for key, v := range e.derived {
		s.values[key] = &sharedValue{early: v}
	}
}
