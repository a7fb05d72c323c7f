package book

import (
	"errors"
	"io/fs"
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
//
// The matcher is read from the names file the last session saved
// (manuscript.ReadMatcher) when that file holds exactly these names, and
// built only when it does not.
type earlyMatcher struct {
	// path is the names file; none builds.
	path    string
	entries []*codex.Entry
	done    chan struct{}
	m       *manuscript.Matcher
	used    bool
	// read says m came from the file; readErr why it did not, when the
	// file was there but damaged (one of other names is the rule after
	// a change, not worth a word).
	read    bool
	readErr error
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
			if e.path != "" {
				m, err := manuscript.ReadMatcher(e.path, entries)
				if err == nil {
					e.m, e.read = m, true
					return
				}
				if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, manuscript.ErrMatcherStale) {
					e.readErr = err
				}
			}
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
