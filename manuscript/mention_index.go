package manuscript

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
)

// MentionIndex records, chapter by chapter, which codex entries the prose
// mentions and where, and the capitalized names it uses that no entry
// has. It is immutable: every change returns a new index that shares
// what did not change, so each request can keep the one it started with.
// The zero MentionIndex is empty and ready to use.
//
// An ambiguous mention (a name two entries share) counts for each of the
// entries it may name, as references list it under each and hover names
// them all: a shared name is never put on one of them silently.
type MentionIndex struct {
	matcher *Matcher
	units   map[string]*unitMentions
	// order holds the units in reading order.
	order []*unitMentions
	// uses are the whole book's counts of the entries asked about (Uses).
	uses *entryUses
}

// unitMentions is what one unit contributes to the index. It is built
// once per scan of the unit and never changed, so indexes share it.
type unitMentions struct {
	unit *Unit
	// mentions are the unit's mentions in order; lazy, when set, finds
	// them instead on first use (list), for a unit whose counts came from
	// the chapter cache: hover and the chapter counts need no more, and
	// references and rename decode one chapter's mentions when asked.
	mentions []Mention
	lazy     func() []Mention
	// decode, beside lazy, decodes the mentions without keeping them,
	// for a reader that goes through every chapter once (transient).
	decode func() []Mention
	// raw is the cache's encoding of the mentions lazy decodes, written
	// back as it is when the cache is saved again.
	raw []byte
	// counts are sorted by count, most first, then by first mention.
	counts []EntryCount
	// byEntry lists the places in counts ordered by entry ID, to find an
	// entry by binary search: a map per chapter would cost ten times the
	// memory at series scale (800 chapters, hundreds of entries each).
	byEntry []int32
	// places are the entries' places in the matcher's sorted IDs, in
	// byEntry's order, for finding an entry by comparing numbers; nil
	// when some entry has none (then IDs are compared).
	places []int32
	// names finds the unit's untracked-name candidates by normalized form
	// on first use: only diagnostics and `quire untracked` ask, and it
	// costs as much as the mention scan itself.
	names func() map[string]nameTally
	// written remembers, per word, whether the unit writes it as it is
	// spelled (MentionIndex.writesWord).
	written *sync.Map
	// uses remembers, per word, how often the unit's untracked names
	// hold it (MentionIndex.UntrackedUses).
	uses *sync.Map
	// namesFound says names has run, so the chapter cache can keep them.
	namesFound *atomic.Bool
	// untracked remembers what untracked names' entries would find in
	// the unit (untracked_count.go).
	untracked *untrackedCounts
}

// EntryCount is how often one entry is mentioned in a unit.
type EntryCount struct {
	Entry string `json:"entry"`
	Count int    `json:"count"`
	// First is the unit's first mention of the entry.
	First codex.Range `json:"first"`
}

// Appearance is one unit that mentions an entry.
type Appearance struct {
	Path     string      `json:"path"`
	Number   int         `json:"number,omitempty"`
	Position int         `json:"position,omitempty"`
	Title    string      `json:"title"`
	Count    int         `json:"count"`
	First    codex.Range `json:"first"`
}

// MentionTable is the entries × chapters view of an index, as the CLI
// prints it.
type MentionTable struct {
	// Units are the columns, in reading order.
	Units []MentionColumn `json:"units"`
	// Rows lists every entry mentioned anywhere, most mentioned first.
	Rows []MentionRow `json:"rows"`
}

// MentionColumn names one unit of a MentionTable.
type MentionColumn struct {
	Path     string `json:"path"`
	Number   int    `json:"number,omitempty"`
	Position int    `json:"position,omitempty"`
	Title    string `json:"title"`
}

// MentionRow counts one entry's mentions in each unit of a table.
type MentionRow struct {
	Entry string `json:"entry"`
	// Counts line up with the table's Units.
	Counts []int `json:"counts"`
	Total  int   `json:"total"`
}

// BuildMentionIndex scans units with m, on as many cores as the process
// may use. Only a unit's body is scanned: its front matter is metadata,
// not prose. Headings and code count for mentions (a chapter called
// "Mara" mentions her; an in-world telegram may be set as code), but not
// for untracked names.
func BuildMentionIndex(m *Matcher, units []*Unit) *MentionIndex {
	return (&MentionIndex{}).Sync(m, units)
}

// Sync returns an index of exactly units, rescanning only those whose
// text changed since ix saw them; a unit that only moved (its position
// or title changed) keeps its scan. A different matcher than ix was built
// with means a changed codex: every unit is rescanned.
func (ix *MentionIndex) Sync(m *Matcher, units []*Unit) *MentionIndex {
	return ix.syncWith(m, units, nil)
}

// syncWith is Sync taking the scans of unchanged chapters from the
// chapter cache.
func (ix *MentionIndex) syncWith(m *Matcher, units []*Unit, cache *chapterCache) *MentionIndex {
	if m == nil {
		m = NewMatcher(nil)
	}
	next := &MentionIndex{matcher: m, units: make(map[string]*unitMentions, len(units))}
	var stale []*Unit
	for _, u := range units {
		if old, ok := ix.reusable(m, u); ok {
			next.units[u.Path] = old
			continue
		}
		stale = append(stale, u)
	}
	for _, um := range scanUnits(m, stale, cache) {
		next.units[um.unit.Path] = um
	}
	next.sortOrder()
	next.carryUses(ix)
	return next
}

// WithUnit returns an index in which u is added, or replaces the unit at
// its path; only u is scanned. Given a different matcher than ix was
// built with, it rescans every unit, as Sync does.
func (ix *MentionIndex) WithUnit(m *Matcher, u *Unit) *MentionIndex {
	if m == nil {
		m = NewMatcher(nil)
	}
	if !ix.findsAs(m) {
		units := make([]*Unit, 0, len(ix.order)+1)
		for _, um := range ix.order {
			if um.unit.Path != u.Path {
				units = append(units, um.unit)
			}
		}
		return ix.Sync(m, append(units, u))
	}
	um, ok := ix.reusable(m, u)
	if !ok {
		um = scanUnit(m, u)
	}
	next := &MentionIndex{matcher: m, units: make(map[string]*unitMentions, len(ix.units)+1)}
	for path, old := range ix.units {
		next.units[path] = old
	}
	next.units[u.Path] = um
	next.sortOrder()
	next.carryUses(ix)
	return next
}

// Without returns an index without the unit at path.
func (ix *MentionIndex) Without(path string) *MentionIndex {
	if _, ok := ix.units[path]; !ok {
		return ix
	}
	next := &MentionIndex{matcher: ix.matcher, units: make(map[string]*unitMentions, len(ix.units))}
	for p, um := range ix.units {
		if p != path {
			next.units[p] = um
		}
	}
	next.sortOrder()
	next.carryUses(ix)
	return next
}

// reusable returns ix's scan of u when it still holds: same matcher,
// same text. The scan is rebased on u, whose place in the book may have
// changed.
func (ix *MentionIndex) reusable(m *Matcher, u *Unit) (*unitMentions, bool) {
	old, ok := ix.units[u.Path]
	// A chapter taken by its stamp carries its cached scan, which may be
	// another text's; the same text read again and verified is scanned
	// again (Manuscript.Verify).
	if !ok || !ix.findsAs(m) || old.unit.Text != u.Text || old.unit.Body != u.Body || old.unit.unverified != u.unverified {
		return nil, false
	}
	if old.unit == u {
		return old, true
	}
	moved := *old
	moved.unit = u
	return &moved, true
}

// findsAs reports whether m finds in prose exactly what ix's matcher
// finds: it is ix's matcher, or one of the same version (the same names
// of the same entries, as a codex change that touched no name leaves
// them). A chapter's mentions found with either serve both: saving an
// entry's body then costs no scan of the whole manuscript.
func (ix *MentionIndex) findsAs(m *Matcher) bool {
	return m == ix.matcher || m != nil && ix.matcher != nil && m.version == ix.matcher.version
}

// sortOrder lists the units in reading order: by position, then path,
// with documents outside the manuscript (position 0) last.
func (ix *MentionIndex) sortOrder() {
	ix.order = make([]*unitMentions, 0, len(ix.units))
	for _, um := range ix.units {
		ix.order = append(ix.order, um)
	}
	slices.SortFunc(ix.order, func(a, b *unitMentions) int {
		pa, pb := a.unit.Position, b.unit.Position
		if (pa == 0) != (pb == 0) {
			return cmp.Compare(pb, pa)
		}
		return cmp.Or(cmp.Compare(pa, pb), strings.Compare(a.unit.Path, b.unit.Path))
	})
}

// scanUnits scans units in parallel, taking from cache what it holds;
// the results keep the units' order.
func scanUnits(m *Matcher, units []*Unit, cache *chapterCache) []*unitMentions {
	if len(units) > 0 && !cache.serves(m) {
		cache = nil
	}
	out := make([]*unitMentions, len(units))
	// Many chapters at once (a start, a codex whose names changed) are
	// kept encoded until read. A chapter scanned alone (the one an edit
	// changed) is read at once: it keeps its records.
	batch := len(units) > 1
	scan := func(u *Unit) *unitMentions {
		if um, ok := cache.scan(m, u); ok {
			return um
		}
		um := scanUnit(m, u)
		if batch {
			um.keepEncoded(m)
		}
		return um
	}
	workers := min(runtime.GOMAXPROCS(0), len(units))
	if workers <= 1 {
		for i, u := range units {
			out[i] = scan(u)
		}
		return out
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				out[i] = scan(units[i])
			}
		})
	}
	for i := range units {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// scanUnit finds the mentions and untracked names of one unit's body.
func scanUnit(m *Matcher, u *Unit) *unitMentions {
	body := u.BodyRange()
	um := countMentions(m, u, m.scan(u.Text[:body.End], body.Start, false))
	um.findNamesLater(m)
	return um
}

// keepEncoded keeps the unit's mentions as the chapter cache writes
// them, about a tenth of their size, decoded again on first use as a warm
// start's are (decodeLater): a cold start at 10,000 entries held 7.9 MB
// of mentions while its search index was built, when only the opened
// chapters' were read. The cache is then written from that encoding as
// it is.
func (um *unitMentions) keepEncoded(m *Matcher) {
	// Every entry a mention names is counted, with its place in the
	// matcher's IDs (countMentions): no search of the IDs per mention.
	if len(um.mentions) == 0 || len(um.places) != len(um.counts) {
		return
	}
	places := make(map[string]uint64, len(um.counts))
	for k, i := range um.byEntry {
		places[um.counts[i].Entry] = uint64(um.places[k])
	}
	raw, ok := encodeMentions(um.mentions, func(id string) (uint64, bool) {
		i, ok := places[id]
		return i, ok
	})
	if ok {
		um.decodeLater(m, raw, m.ids)
	}
}

// decodeLater keeps the unit's mentions as raw, their chapter-cache
// encoding against table, decoded on first use (list) or for one
// reading (transient). An encoding that does not decode, or places a
// mention outside the unit's body, is scanned again with m: the text is
// at hand.
func (um *unitMentions) decodeLater(m *Matcher, raw []byte, table []string) {
	u := um.unit
	um.raw, um.mentions = raw, nil
	um.decode = func() []Mention {
		body := u.BodyRange()
		mentions, err := decodeMentions(raw, table)
		if err != nil || !mentionsFit(mentions, body) {
			return m.scan(u.Text[:body.End], body.Start, false)
		}
		return mentions
	}
	um.lazy = sync.OnceValue(um.decode)
}

// countMentions is the index's record of u with its mentions.
func countMentions(m *Matcher, u *Unit, mentions []Mention) *unitMentions {
	um := &unitMentions{unit: u, mentions: mentions, namesFound: &atomic.Bool{}, written: &sync.Map{}, uses: &sync.Map{}, untracked: &untrackedCounts{}}
	if len(mentions) == 0 {
		return um
	}
	// Each mention counts for the entry it names and, ambiguous, for the
	// others it may name: one count an entry, its first mention the
	// first in the text, found by a map rather than by sorting every hit
	// by its entry's ID (that sort was a third of a cold start's scan).
	// Then the counts are ordered most first, and listed by entry for
	// lookups.
	at := make(map[string]int32, len(mentions))
	counts := make([]EntryCount, 0, len(mentions))
	count := func(entry string, r codex.Range) {
		if i, ok := at[entry]; ok {
			counts[i].Count++
			return
		}
		at[entry] = int32(len(counts))
		counts = append(counts, EntryCount{Entry: entry, Count: 1, First: r})
	}
	for _, mn := range mentions {
		count(mn.Entry, mn.Range)
		for _, o := range mn.Others {
			count(o, mn.Range)
		}
	}
	// Kept as long as the chapter is: no room for a count per mention.
	um.counts = slices.Clone(counts)
	slices.SortFunc(um.counts, func(a, b EntryCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.First.Start, b.First.Start), strings.Compare(a.Entry, b.Entry))
	})
	um.byEntry = make([]int32, len(um.counts))
	for i := range um.byEntry {
		um.byEntry[i] = int32(i)
	}
	slices.SortFunc(um.byEntry, func(a, b int32) int { return strings.Compare(um.counts[a].Entry, um.counts[b].Entry) })
	// The IDs are sorted alike, so the places come out ascending.
	um.places = make([]int32, len(um.byEntry))
	from := int32(0)
	for k, i := range um.byEntry {
		place, ok := m.placeOf(um.counts[i].Entry, from)
		if !ok {
			um.places = nil
			break
		}
		um.places[k], from = place, place
	}
	return um
}

// transient is the unit's mentions, in order, for one reading: decoded
// and not kept when the unit keeps them encoded. The untracked names'
// diagnostics read every chapter's once, at the start too.
func (um *unitMentions) transient() []Mention {
	if um.decode != nil {
		return um.decode()
	}
	return um.list()
}

// list is the unit's mentions, in order.
func (um *unitMentions) list() []Mention {
	if um.lazy != nil {
		return um.lazy()
	}
	return um.mentions
}

// entry finds an entry's index in um.counts, by its place in the
// matcher's IDs (-1 for none) or else by its ID.
func (um *unitMentions) entry(place int32, id string) (int, bool) {
	var k int
	var ok bool
	if um.places != nil {
		k, ok = slices.BinarySearch(um.places, place)
	} else {
		k, ok = slices.BinarySearchFunc(um.byEntry, id, func(i int32, id string) int {
			return strings.Compare(um.counts[i].Entry, id)
		})
	}
	if !ok {
		return 0, false
	}
	return int(um.byEntry[k]), true
}

// findNamesLater makes um find its unit's untracked names on first use.
func (um *unitMentions) findNamesLater(m *Matcher) {
	u, found, list := um.unit, um.namesFound, um.transient
	um.names = sync.OnceValue(func() map[string]nameTally {
		names := findUntracked(m, u, u.BodyRange(), list())
		found.Store(true)
		return names
	})
}

// Matcher is the matcher the index was built with.
func (ix *MentionIndex) Matcher() *Matcher { return ix.matcher }

// Units lists the indexed units in reading order.
func (ix *MentionIndex) Units() []*Unit {
	units := make([]*Unit, len(ix.order))
	for i, um := range ix.order {
		units[i] = um.unit
	}
	return units
}

// Mentions lists the mentions in the unit at path, in order. The slice
// is shared: do not modify it.
func (ix *MentionIndex) Mentions(path string) []Mention {
	if um, ok := ix.units[path]; ok {
		return um.list()
	}
	return nil
}

// MentionsOf lists the mentions of u when the index scanned that very
// unit (not an older or newer text of its path), so a reader that holds
// u can reuse the scan instead of scanning again. The slice is shared.
func (ix *MentionIndex) MentionsOf(u *Unit) ([]Mention, bool) {
	if ix == nil {
		return nil, false
	}
	if um, ok := ix.units[u.Path]; ok && um.unit == u {
		return um.list(), true
	}
	return nil, false
}

// MentionAt returns the mention that covers the byte offset off in the
// unit at path, as hover and go-to-definition ask.
func (ix *MentionIndex) MentionAt(path string, off int) (Mention, bool) {
	mentions := ix.Mentions(path)
	i, _ := slices.BinarySearchFunc(mentions, off, func(m Mention, off int) int {
		if m.Range.End <= off {
			return -1
		}
		return 1
	})
	if i < len(mentions) && mentions[i].Range.Contains(off) {
		return mentions[i], true
	}
	return Mention{}, false
}

// InUnit lists the entries mentioned in the unit at path, most mentioned
// first, then by first mention. The slice is shared: do not modify it.
func (ix *MentionIndex) InUnit(path string) []EntryCount {
	if um, ok := ix.units[path]; ok {
		return um.counts
	}
	return nil
}

// Appearances lists the units that mention an entry, in reading order.
func (ix *MentionIndex) Appearances(entryID string) []Appearance {
	var out []Appearance
	ix.eachCount(entryID, func(u *Unit, c EntryCount) {
		out = append(out, Appearance{
			Path: u.Path, Number: u.Number, Position: u.Position, Title: u.Title,
			Count: c.Count, First: c.First,
		})
	})
	return out
}

// placeOf is an entry's place in the matcher's sorted IDs, for finding
// it in a unit's counts; -1 when the matcher has none.
func (ix *MentionIndex) placeOf(entryID string) int32 {
	place, ok := ix.matcher.placeOf(entryID, 0)
	if !ok {
		return -1
	}
	return place
}

// eachCount calls f with each unit that mentions an entry and the
// entry's count there, in reading order.
func (ix *MentionIndex) eachCount(entryID string, f func(*Unit, EntryCount)) {
	place := ix.placeOf(entryID)
	for _, um := range ix.order {
		if i, ok := um.entry(place, entryID); ok {
			f(um.unit, um.counts[i])
		}
	}
}

// Table counts every entry's mentions in every unit.
func (ix *MentionIndex) Table() MentionTable {
	t := MentionTable{Units: make([]MentionColumn, len(ix.order)), Rows: []MentionRow{}}
	rows := map[string]int{}
	for col, um := range ix.order {
		u := um.unit
		t.Units[col] = MentionColumn{Path: u.Path, Number: u.Number, Position: u.Position, Title: u.Title}
		for _, c := range um.counts {
			r, ok := rows[c.Entry]
			if !ok {
				r = len(t.Rows)
				rows[c.Entry] = r
				t.Rows = append(t.Rows, MentionRow{Entry: c.Entry, Counts: make([]int, len(ix.order))})
			}
			t.Rows[r].Counts[col] = c.Count
			t.Rows[r].Total += c.Count
		}
	}
	slices.SortFunc(t.Rows, func(a, b MentionRow) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), strings.Compare(a.Entry, b.Entry))
	})
	return t
}
