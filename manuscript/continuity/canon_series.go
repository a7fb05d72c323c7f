package continuity

import (
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// The books of a series share its thousands of entries: the names of
// the series' entries are mapped once per series catalog
// (codex.Catalog.Shared), and each book's canon maps only its own
// entries' names, leaving out the series entries it overrides.

// seriesNamesKey keys the shared names of a series catalog.
type seriesNamesKey struct{}

// layOverSeries sets up the shared names of c's series, when c's
// catalog is a book's merged with its series, and returns the book's own
// entries: only theirs are named (ownNames). Nil when the catalog is not
// layered: every entry's do.
func (c *Canon) layOverSeries() map[*codex.Entry]bool {
	l, ok := c.cat.SeriesLayer()
	if !ok {
		return nil
	}
	c.series = l.Series.Shared(seriesNamesKey{}, func() any {
		names := map[string][]*codex.Entry{}
		for _, e := range l.Series.All() {
			addNames(names, e, storyAliases(e, l.Series.Story(e)))
		}
		return names
	}).(map[string][]*codex.Entry)
	c.hidden = make(map[string]bool, len(l.Hidden))
	for _, id := range l.Hidden {
		c.hidden[id] = true
	}
	own := make(map[*codex.Entry]bool, len(l.Book))
	for _, e := range l.Book {
		own[e] = true
	}
	return own
}

// namedEntry is an entry and its aliases, progressions' included.
type namedEntry struct {
	e       *codex.Entry
	aliases []string
}

// ownNames are the names of c's own entries (toName), mapped on first
// use.
func (c *Canon) ownNames() map[string][]*codex.Entry {
	c.namesOnce.Do(func() {
		c.names = make(map[string][]*codex.Entry, len(c.toName))
		for _, n := range c.toName {
			addNames(c.names, n.e, n.aliases)
		}
		c.toName = nil
	})
	return c.names
}

// addNames maps e's name and aliases to it.
func addNames(names map[string][]*codex.Entry, e *codex.Entry, aliases []string) {
	for _, n := range append([]string{e.Name}, aliases...) {
		k := codex.Normalize(n)
		if k != "" && !slices.Contains(names[k], e) {
			names[k] = append(names[k], e)
		}
	}
}

// storyAliases are e's aliases with those its progressions give it.
// The slice is e.Aliases itself when no progression adds one (most
// entries: a copy each was a tenth of a canon's making), a copy when
// one does; it is only read.
func storyAliases(e *codex.Entry, s codex.Story) []string {
	aliases := e.Aliases
	copied := false
	for _, p := range s.Progressions {
		for _, f := range p.Changes {
			switch strings.ToLower(f.Key) {
			case "aliases", "alias", "name":
				for _, a := range textValues(f.Value) {
					if !slices.Contains(aliases, a) && a != e.Name {
						if !copied {
							aliases, copied = slices.Clone(aliases), true
						}
						aliases = append(aliases, a)
					}
				}
			}
		}
	}
	return aliases
}

// named are the entries of the normalized name k, in catalog order.
func (c *Canon) named(k string) []*codex.Entry {
	own := c.ownNames()[k]
	if c.series == nil {
		return own
	}
	var out []*codex.Entry
	for _, e := range c.series[k] {
		if !c.hidden[e.ID] {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return own
	}
	if len(own) == 0 {
		return out
	}
	out = append(out, own...)
	slices.SortStableFunc(out, c.cat.Compare)
	return out
}
