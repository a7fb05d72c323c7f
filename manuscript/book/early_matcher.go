package book

import (
	"slices"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// earlyMatcher builds the name matcher of a warm start from the entries
// of the codex's saved state (codex.Options.OnLoaded) while the codex
// still checks its files and builds its catalog: on a warm start those,
// then the matcher, came one after the other. The state lists the
// entries in the catalog's order, which the matcher's version depends
// on, so the early matcher is used only when the catalog Open ends with
// lists exactly those entries in that order (nothing changed offline,
// no series merged in); otherwise it is built again from the catalog.
type earlyMatcher struct {
	entries []*codex.Entry
	done    chan struct{}
	m       *manuscript.Matcher
	used    bool
	once    sync.Once
}

// start begins building the matcher of entries; only the first call
// counts (a codex that falls back to memory does not load again).
func (e *earlyMatcher) start(entries []*codex.Entry) {
	e.once.Do(func() {
		e.entries = entries
		e.done = make(chan struct{})
		go func() {
			defer close(e.done)
			e.m = manuscript.NewMatcherOf(entries)
		}()
	})
}

// matcherFor is the matcher of cat: the early one when it was built from
// cat's entries in cat's order, else a new one.
func (e *earlyMatcher) matcherFor(cat *codex.Catalog) *manuscript.Matcher {
	if e.done != nil {
		<-e.done
		if slices.Equal(cat.All(), e.entries) {
			e.used = true
			return e.m
		}
	}
	return manuscript.NewMatcher(cat)
}
