package codex

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Catalog is an immutable, in-memory view of every entry, built for fast
// name resolution: hover and mention detection never wait on a search.
// Each change makes a new catalog (With copies only what changes);
// readers keep whichever one they started with.
type Catalog struct {
	// warmed says warm has run (warmLater's tests read it).
	warmed atomic.Bool

	byID   layer[string, *Entry]
	sorted []*Entry
	byType map[Type][]*Entry

	// Normalized key → entries in catalog order, one map per lookup tier.
	// The maps are layers (catalog_layer.go): a catalog made by With
	// shares its parent's and holds only what changed.
	byName, byTitle, byStem, byAlias layer[string, []*Entry]

	// words lists every word of every name, title and alias, sorted, for
	// partial-name matching by word prefix.
	words []wordRef
	// fuzzyKeys lists every normalized name, title, stem and alias once
	// per entry, for fuzzy matching.
	fuzzyKeys []fuzzyKey
	// moreWords and moreFuzzy are those of the entries a catalog made by
	// With added, words sorted: words and fuzzyKeys stay its parent's,
	// shared. stale says they may hold entries With removed, which
	// readers pass over (live).
	moreWords []wordRef
	moreFuzzy []fuzzyKey
	stale     bool
	// keys holds each entry's normalized names.
	keys layer[*Entry, *keys]

	// entryOf, when set, gives this catalog's copy of an entry that the
	// name maps, words and fuzzy keys it reads from another catalog hold
	// (copied); an entry of its own is itself.
	entryOf func(*Entry) *Entry

	skipped  []Problem
	problems func() []Problem
	// ranks gives each entry's position in sorted, for ordering matches
	// without comparing names; fuzzyIdx the length buckets for typo
	// matching. Both are built on first use.
	ranks    func() map[*Entry]int
	fuzzyIdx func() *fuzzyIndex
	// over holds, in a book's catalog merged with its series
	// (MergeSeries), the series entry each overriding entry stands over:
	// Story reads its progressions too. Keyed by entry, so an entry
	// replaced since is no longer found.
	over map[*Entry]*SeriesSource
	// layered is how a merge with a series made this catalog
	// (SeriesLayer); shared memoizes what readers derive from a series'
	// catalog that the books of a workspace share (Shared).
	layered *SeriesLayer
	shared  *sharedValues
}

type wordRef struct {
	word  string
	entry *Entry
}

type fuzzyKey struct {
	key   string
	runes int
	entry *Entry
	tier  MatchKind
}

// live reports whether e, an entry of this catalog's (mine), is in it:
// the word lists a catalog shares with its parent may hold entries it
// removed.
func (c *Catalog) live(e *Entry) bool {
	if !c.stale {
		return true
	}
	_, ok := c.keys.get(e)
	return ok
}

// mine is the entry of this catalog that e, found in the name maps,
// words or fuzzy keys, stands for.
func (c *Catalog) mine(e *Entry) *Entry {
	if c.entryOf == nil {
		return e
	}
	return c.entryOf(e)
}

// copied is a catalog of copies of c's entries, made by copyEntry, which
// may change their IDs and what they hold but not their type, names,
// title, stem or aliases: the series canon as a book reads it, at
// absolute paths. idOf is the inverse of copyEntry's change of ID. It
// reads c's name maps, words and fuzzy keys through rather than building
// its own, so it costs its copies and a few pointers per entry: an
// entry of c finds its copy by its rank in c (which c's store builds
// anyway), and a copy its original by ID, not by maps of their own.
// skipped are its skipped-file problems.
func (c *Catalog) copied(copyEntry func(*Entry) *Entry, idOf func(string) string, skipped []Problem) *Catalog {
	byID := make(map[string]*Entry, len(c.sorted))
	sorted := make([]*Entry, len(c.sorted))
	for i, e := range c.sorted {
		cp := copyEntry(e)
		byID[cp.ID] = cp
		sorted[i] = cp
	}
	mine := func(e *Entry) *Entry {
		// Lookups of a book's merged catalog come through here, once per
		// entry they find: a rank costs one map access where an ID
		// would cost building the copy's absolute path.
		if i, ok := c.ranks()[e]; ok {
			return sorted[i]
		}
		// Not c's entry (or one c removed): no copy to find.
		return e
	}
	original := func(cp *Entry) (*Entry, bool) {
		if own, ok := byID[cp.ID]; !ok || own != cp {
			return nil, false
		}
		return c.byID.get(idOf(cp.ID))
	}
	through := func(l *layer[string, []*Entry]) layer[string, []*Entry] {
		return layer[string, []*Entry]{read: func(k string) ([]*Entry, bool) {
			es, ok := l.get(k)
			if !ok {
				return nil, false
			}
			out := make([]*Entry, len(es))
			for i, e := range es {
				out[i] = mine(e)
			}
			return out, true
		}}
	}
	n := &Catalog{
		byID:    layerOf(byID),
		sorted:  sorted,
		byType:  make(map[Type][]*Entry, len(c.byType)),
		byName:  through(&c.byName),
		byTitle: through(&c.byTitle),
		byStem:  through(&c.byStem),
		byAlias: through(&c.byAlias),
		keys: layer[*Entry, *keys]{read: func(cp *Entry) (*keys, bool) {
			e, ok := original(cp)
			if !ok {
				return nil, false
			}
			return c.keys.get(e)
		}},
		words:     c.words,
		fuzzyKeys: c.fuzzyKeys,
		entryOf:   mine,
		skipped:   skipped,
		shared:    &sharedValues{},
	}
	// The lists by type are made at once: a map for the while, rather
	// than a search per entry.
	copyOf := make(map[*Entry]*Entry, len(c.sorted))
	for i, e := range c.sorted {
		copyOf[e] = sorted[i]
	}
	for t, es := range c.byType {
		out := make([]*Entry, len(es))
		for i, e := range es {
			if cp, ok := copyOf[e]; ok {
				out[i] = cp
			} else {
				out[i] = e
			}
		}
		n.byType[t] = out
	}
	n.buildLater()
	return n
}

// tier is a lookup map and the keys of an entry that go in it, appended
// to dst.
type tier struct {
	m    *layer[string, []*Entry]
	keys func(k *keys, dst []string) []string
}

// tierList pairs each lookup map with the keys of an entry that go in it.
func (c *Catalog) tierList() [4]tier {
	return [4]tier{
		{&c.byName, func(k *keys, dst []string) []string { return append(dst, k.name) }},
		{&c.byTitle, func(k *keys, dst []string) []string { return append(dst, k.title) }},
		{&c.byStem, func(k *keys, dst []string) []string { return append(dst, k.stem) }},
		{&c.byAlias, func(k *keys, dst []string) []string { return append(dst, k.aliases...) }},
	}
}

// tiers calls visit with each lookup map and each key of k that goes in
// it.
func (c *Catalog) tiers(k *keys, visit func(m *layer[string, []*Entry], key string)) {
	var scratch [4]string
	for _, t := range c.tierList() {
		for _, key := range t.keys(k, scratch[:0]) {
			visit(t.m, key)
		}
	}
}

// NewCatalog indexes entries. skipped are the problems of files that
// could not be read as entries at all, kept so they can be shown. Entries
// with the same ID are a caller bug; the last one wins.
func NewCatalog(entries []*Entry, skipped []Problem) *Catalog {
	return newCatalog(entries, skipped, savedCatalog{})
}

// newCatalog is NewCatalog; saved, a warm start's, read with the state,
// gives the keys of entries (each at its index, nil where it has none)
// and their sorted words, which it then takes rather than makes.
func newCatalog(entries []*Entry, skipped []Problem, saved savedCatalog) *Catalog {
	byID := make(map[string]*Entry, len(entries))
	for _, e := range entries {
		byID[e.ID] = e
	}
	allKeys := make(map[*Entry]*keys, len(byID))
	c := &Catalog{
		byID:    layerOf(byID),
		byType:  map[Type][]*Entry{},
		byName:  layerOf(make(map[string][]*Entry, len(entries))),
		byTitle: layerOf(make(map[string][]*Entry, len(entries))),
		byStem:  layerOf(make(map[string][]*Entry, len(entries))),
		byAlias: layerOf(make(map[string][]*Entry, len(entries))),
		keys:    layerOf(allKeys),
		skipped: skipped,
	}
	c.sorted = make([]*Entry, 0, len(byID))
	// In the order given, not the map's: entries already in catalog
	// order (a warm start's state) then sort in one pass.
	for _, e := range entries {
		if _, seen := allKeys[e]; seen || byID[e.ID] != e {
			continue // the last entry of an ID wins, as in byID
		}
		allKeys[e] = nil
		c.sorted = append(c.sorted, e)
	}
	if len(saved.keys) == len(entries) {
		for i, e := range entries {
			if k, ok := allKeys[e]; ok && k == nil {
				allKeys[e] = saved.keys[i]
			}
		}
	}
	var unkeyed []*Entry
	for _, e := range c.sorted {
		if allKeys[e] == nil {
			unkeyed = append(unkeyed, e)
		}
	}
	for i, k := range keysOfAll(unkeyed) {
		allKeys[unkeyed[i]] = k
	}
	slices.SortFunc(c.sorted, c.compareEntries)
	// Sized once: growing them entry by entry copied each several times.
	nWords, nKeys := 0, 0
	for _, k := range allKeys {
		nWords += len(k.words)
		nKeys += len(k.unique)
	}
	// Three parts of the catalog, each read from the keys alone, are
	// made side by side on a large codex: the sorted words, the name and
	// title maps, the rest. A warm start waited for them one after the
	// other while its other core, done with the chapters, had nothing to
	// do. BenchmarkNewCatalog (10,000 entries), seven interleaved runs
	// each on a busy machine: 29-41 ms before, 23-35 ms after.
	var parts sync.WaitGroup
	side := func(f func()) {
		if len(c.sorted) >= keysPerWorker {
			parts.Go(f)
		} else {
			f()
		}
	}
	// The saved words are these entries' when every key was saved and
	// no entry was left out.
	if saved.words != nil && len(unkeyed) == 0 && len(c.sorted) == len(entries) {
		c.words = saved.words
	}
	side(func() {
		if c.words != nil {
			return
		}
		c.words = make([]wordRef, 0, nWords)
		for _, e := range c.sorted {
			for _, w := range allKeys[e].words {
				c.words = append(c.words, wordRef{w, e})
			}
		}
		slices.SortFunc(c.words, compareWords)
	})
	// A new catalog fills its maps' bases directly, each entry once under
	// a key, in the catalog's order.
	// A key's list is carved from a shared array (slab) when the key is
	// first met: most keys name one entry, and ten thousand lists of one
	// were as many allocations per map. A second entry under a key
	// copies its list (capped at its length) out.
	fill := func(t tier) {
		var scratch []string
		var lists slab[*Entry]
		for _, e := range c.sorted {
			scratch = t.keys(allKeys[e], scratch[:0])
			for _, key := range scratch {
				if key == "" {
					continue
				}
				switch have, ok := t.m.base[key]; {
				case !ok:
					list := lists.take(1)
					list[0] = e
					t.m.base[key] = list
				case !slices.Contains(have, e):
					t.m.base[key] = append(have, e)
				}
			}
		}
	}
	tiers := c.tierList()
	side(func() {
		fill(tiers[0])
		fill(tiers[1])
	})
	fill(tiers[2])
	fill(tiers[3])
	c.fuzzyKeys = make([]fuzzyKey, 0, nKeys)
	for _, e := range c.sorted {
		c.byType[e.Type] = append(c.byType[e.Type], e)
		c.fuzzyKeys = append(c.fuzzyKeys, allKeys[e].unique...)
	}
	parts.Wait()
	c.buildLater()
	return c
}

func compareWords(a, b wordRef) int { return strings.Compare(a.word, b.word) }

// buildLater arranges for what spans all entries (problems, ranks,
// the typo index) to be built on first request: most catalogs live only
// until the next change and never need them all.
func (c *Catalog) buildLater() {
	c.problems = sync.OnceValue(func() []Problem { return c.findProblems(c.skipped) })
	c.ranks = sync.OnceValue(func() map[*Entry]int {
		rank := make(map[*Entry]int, len(c.sorted))
		for i, e := range c.sorted {
			rank[e] = i
		}
		return rank
	})
	c.fuzzyIdx = sync.OnceValue(c.buildFuzzyIndex)
}

// warm builds what is otherwise built on first use (ranks, the typo
// index), so that the first lookup after a change is as fast as the rest.
// Problems are left for whoever asks: they cost more and only
// diagnostics need them.
func (c *Catalog) warm() {
	c.ranks()
	c.fuzzyIdx()
	c.warmed.Store(true)
}

// rebuildShare is the share of changed entries above which With builds a
// new catalog from scratch rather than copying and patching.
const rebuildShare = 8

// With returns a catalog in which updated entries are added or replace
// the entries with their IDs, the entries with the removed IDs are gone,
// and skipped replaces the skipped-file problems. The receiver is left
// as it was: what changes is copied, the rest is shared.
func (c *Catalog) With(updated []*Entry, removed []string, skipped []Problem) *Catalog {
	// A catalog that has drifted far from the maps it shares is built
	// afresh too, so that its layers stay small.
	if (len(updated)+len(removed)+c.byID.changes())*rebuildShare > len(c.sorted) {
		n := NewCatalog(c.merged(updated, removed), skipped)
		n.over = c.over
		return n
	}
	n := &Catalog{
		over:      c.over,
		byID:      c.byID.fork(),
		sorted:    c.sorted,
		byType:    maps.Clone(c.byType),
		byName:    c.byName.fork(),
		byTitle:   c.byTitle.fork(),
		byStem:    c.byStem.fork(),
		byAlias:   c.byAlias.fork(),
		keys:      c.keys.fork(),
		words:     c.words,
		fuzzyKeys: c.fuzzyKeys,
		moreWords: c.moreWords,
		moreFuzzy: c.moreFuzzy,
		stale:     c.stale,
		entryOf:   c.entryOf,
		skipped:   skipped,
	}
	old := map[*Entry]bool{}
	drop := func(id string) {
		e, ok := n.byID.get(id)
		if !ok {
			return
		}
		old[e] = true
		n.byID.del(id)
		n.sorted = withoutEntry(n.sorted, e)
		n.byType[e.Type] = withoutEntry(n.byType[e.Type], e)
		if len(n.byType[e.Type]) == 0 {
			delete(n.byType, e.Type)
		}
		n.tiers(n.keys.at(e), func(m *layer[string, []*Entry], key string) {
			if rest := withoutEntry(m.at(key), e); len(rest) > 0 {
				m.set(key, rest)
			} else {
				m.del(key)
			}
		})
	}
	for _, id := range removed {
		drop(id)
	}
	for _, e := range updated {
		drop(e.ID)
	}
	if len(old) > 0 {
		// The shared lists keep the removed entries' words, which
		// readers pass over; this catalog's own lose them.
		n.stale = true
		n.moreWords = slices.DeleteFunc(slices.Clone(n.moreWords), func(w wordRef) bool { return old[n.mine(w.entry)] })
		n.moreFuzzy = slices.DeleteFunc(slices.Clone(n.moreFuzzy), func(f fuzzyKey) bool { return old[n.mine(f.entry)] })
		for e := range old {
			n.keys.del(e)
		}
	}
	var newWords []wordRef
	for _, e := range updated {
		k := keysOf(e)
		n.keys.set(e, k)
		n.byID.set(e.ID, e)
		n.sorted = n.insert(n.sorted, e)
		n.byType[e.Type] = n.insert(n.byType[e.Type], e)
		n.tiers(k, func(m *layer[string, []*Entry], key string) {
			if cur := m.at(key); key != "" && !slices.Contains(cur, e) {
				m.set(key, n.insert(cur, e))
			}
		})
		n.moreFuzzy = append(slices.Clip(n.moreFuzzy), k.unique...)
		for _, w := range k.words {
			newWords = append(newWords, wordRef{w, e})
		}
	}
	if len(newWords) > 0 {
		slices.SortFunc(newWords, compareWords)
		n.moreWords = mergeWords(n.moreWords, newWords)
	}
	n.buildLater()
	return n
}

// WithEntries returns a catalog in which updated entries replace or join
// c's, keeping c's skipped-file problems: the codex as an editor's
// unsaved texts have it.
func (c *Catalog) WithEntries(updated []*Entry) *Catalog {
	if len(updated) == 0 {
		return c
	}
	return c.With(updated, nil, c.skipped)
}

// merged lists the entries of c with the changes applied.
func (c *Catalog) merged(updated []*Entry, removed []string) []*Entry {
	byID := make(map[string]*Entry, len(c.sorted)+len(updated))
	c.byID.each(func(id string, e *Entry) { byID[id] = e })
	for _, id := range removed {
		delete(byID, id)
	}
	for _, e := range updated {
		byID[e.ID] = e
	}
	return slices.Collect(maps.Values(byID))
}

// withoutEntry returns s minus e, copying rather than touching s, which other
// catalogs share.
func withoutEntry(s []*Entry, e *Entry) []*Entry {
	i := slices.Index(s, e)
	if i < 0 {
		return s
	}
	out := make([]*Entry, 0, len(s)-1)
	return append(append(out, s[:i]...), s[i+1:]...)
}

// insert returns s with e at its place in catalog order, copying s.
func (c *Catalog) insert(s []*Entry, e *Entry) []*Entry {
	i, _ := slices.BinarySearchFunc(s, e, c.compareEntries)
	return slices.Insert(slices.Clip(s), i, e)
}

func mergeWords(a, b []wordRef) []wordRef {
	out := make([]wordRef, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].word <= b[0].word {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// compareEntries orders entries by type (built-ins first, in their
// order), then name, then ID, so every listing is stable.
func (c *Catalog) compareEntries(a, b *Entry) int {
	return cmp.Or(
		cmp.Compare(typeRank(a.Type), typeRank(b.Type)),
		strings.Compare(string(a.Type), string(b.Type)),
		strings.Compare(c.keys.at(a).name, c.keys.at(b).name),
		strings.Compare(a.ID, b.ID),
	)
}

func typeRank(t Type) int {
	if i := slices.Index(Types, t); i >= 0 {
		return i
	}
	return len(Types)
}

// Len is the number of entries.
func (c *Catalog) Len() int { return len(c.sorted) }

// Get returns the entry with the given ID.
func (c *Catalog) Get(id string) (*Entry, bool) {
	return c.byID.get(id)
}

// All returns every entry in stable order. The slice is shared: do not
// modify it.
func (c *Catalog) All() []*Entry { return c.sorted }

// OfType returns the entries of one type, in stable order; an empty type
// returns all. The slice is shared: do not modify it.
func (c *Catalog) OfType(t Type) []*Entry {
	if t == "" {
		return c.sorted
	}
	return c.byType[t]
}

// TypeCounts counts entries per type.
func (c *Catalog) TypeCounts() map[Type]int {
	out := make(map[Type]int, len(c.byType))
	for t, es := range c.byType {
		out[t] = len(es)
	}
	return out
}

// Resolve finds the entry a [[link]] or a name refers to exactly: by
// name, title, alias or file stem, ignoring case, diacritics and a
// possessive ending. Ambiguous names resolve to the best-ranked entry.
func (c *Catalog) Resolve(name string) (*Entry, bool) {
	q := Normalize(name)
	if e := c.resolveKey(q); e != nil {
		return e, true
	}
	if bare, ok := StripPossessive(q); ok {
		if e := c.resolveKey(bare); e != nil {
			return e, true
		}
	}
	return nil, false
}

// resolveKey returns the best-ranked entry of the best exact tier.
func (c *Catalog) resolveKey(q string) *Entry {
	for _, tier := range c.exactMatches(q) {
		if len(tier.entries) > 0 {
			return tier.entries[0]
		}
	}
	return nil
}
