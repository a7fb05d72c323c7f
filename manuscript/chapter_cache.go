package manuscript

import (
	"crypto/sha256"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
)

// The chapter cache keeps, outside the book (the book's cache folder),
// what reading and scanning each chapter found: its outline, title,
// word count and story-time front matter, the entries it mentions with
// their counts and first mentions, every mention, and the untracked-name
// candidates when they had been looked for. A warm start then parses
// and scans only the chapters that changed: one edited chapter costs one
// rescan.
//
// Identity: a chapter's record is keyed by its path and the SHA-256 of
// its bytes, never by size and modification time, which a checkout, a
// sync tool or a coarse clock can leave unchanged across an edit. So a
// warm start still reads every chapter's bytes (the snapshot keeps each
// chapter's text: hover's check of the open document, references and
// rename ranges, excerpts, explicate and continuity use it) and hashes
// them, about 20 ms of CPU for four million words, but parses and scans
// none that did not change. The scans hold for one name set only: the
// file carries the matcher's version (a hash of every name, alias and
// exclusion with its entry), and a codex whose names changed, even
// while quire was not running, rescans every chapter once, while
// outlines and word counts still come from the cache.
//
// Lazily: the counts (what hover's chapter line and `quire mentions`
// need) are read at start; each chapter's mentions stay encoded until a
// request needs them (references, rename, untracked names, hover inside
// that chapter), and are decoded then, or found again by scanning the
// text, which is at hand, when they do not decode.
//
// When: the command line writes the file once a book is opened; the
// language server as soon as its first scan of the book is done, again
// once the watcher's changes have settled, and when it shuts down, each
// on a goroutine of its own (server/chapter_saves.go), so that a server
// killed after its first hover still leaves the next start warm. A cache
// folder deleted under it is not made again. Chapters holding the
// editor's unsaved text are left out.
//
// Damage: the file is written whole to a temporary file, synced to the
// disk and renamed over the old one, and ends with the SHA-256 of what precedes it: a
// file left by an older quire (another format version), cut short or
// garbled is ignored whole, and the chapters are read as on a first
// start. Reading is linear in the file, which is refused above
// maxChapterCacheBytes; every count in it is checked against the bytes
// left, so no allocation outgrows the file; every range is checked
// against the chapter's text before it is used.

// chapterCacheFormat names the layout of the file and what quire puts in
// it; bump it whenever NewUnit, the mention scan or the untracked-name
// finder would find something else in the same text.
//
// 4: a lone CR is a line break; invalid UTF-8 and a file name with
// control characters are problems of the chapter.
//
// 5: the counting rule of docs/goals.md (comments, tags, link targets
// and wiki link names are not words; "1,000" is one); a chapter's
// target; mentions match case as the codex writes a name, pass over the
// full stop of "Mr.", and leave out uncertain ones and hyphenated
// compounds; untracked names leave out titles, peoples and a known
// name's family.
//
// 6: a mention ending in an abbreviation takes its full stop ("Co.");
// half of a lower-case compound ("out-Heroded") makes no name uncertain;
// untracked names leave out months and days.
//
// 7: a name before a word that begins a longer name the text does not
// finish ("Anthony Comstock" beside Anthony Comstock Patch) is uncertain.
//
// 8: an untracked name takes the title before it, full stop and all
// ("Mr. Brooke"), and a title with a known name no entry writes with it
// is a name ("Mrs. Pett" beside Mr. Pett).
//
// 9: a mention after a form of address its entry is never given, where
// the codex writes the name with another ("Mrs. Pontellier" beside Mr.
// Pontellier), is uncertain.
//
// 10: a name that opens with a capitalized article ("The Caterpillar")
// is found without it too ("said the Caterpillar").
//
// 11: an HTML block's code range takes its closing line ("-->"), so that
// a scene note is read whole.
//
// 12: an everyday word opening a quotation is no part of the untracked
// name after it (`said--"The Moonstone…"` names the Moonstone).
//
// 13: a phrase an entry excludes holds no mention of a shorter name
// inside it ("Lady Catherine" excluded from Catherine).
//
// 14: a title at the end of a line makes a pair with the name on the
// next ("Mrs.\nBennet"), and a title before two names leaves them a pair
// ("Miss Elizabeth Bennet"); an untracked name's tally counts apart its
// uses as a piece of a longer name or after a title in lower case.
//
// 15: each record keeps the file's size and time beside its sum.
//
// 16: the file ends with a CRC-32 of what comes before, not a SHA-256.
//
// 17: an untracked name runs on over a line break or a wider space, as a
// mention does ("Maple\nGrove" is one name), not only after a title.
//
// 18: two everyday words capitalized mid-sentence are tallied as a pair
// ("at Maple Grove"), a name where the book never writes them in lower
// case.
//
// 19: feasts (Michaelmas, Christmas) and the New Year are dates, as months
// and days are, not untracked names.
//
// 20: a name written in Cyrillic is found in the other cases of Russian
// and Ukrainian too (Вронского of Вронский, Оксано of Оксана;
// codex/declension.go), marked declined.
const chapterCacheFormat = 20

// chapterCacheMagic opens every chapter cache file.
const chapterCacheMagic = "quire chapter cache\n"

// maxChapterCacheBytes bounds the file, and so what reading it may
// allocate (at most about ten times as much, the counts decoded as
// EntryCounts). Four million words take 3.4 MB, so a workspace of forty
// million stays well below it.
const maxChapterCacheBytes = 64 << 20

// chapterRecord is what the cache holds about one chapter.
type chapterRecord struct {
	sum [sha256.Size]byte
	// stamp is the file's size and time when it had that sum: a start
	// that answers first takes the record by it, and hashes the file
	// behind its first answers (Manuscript.Verify).
	stamp codex.FileStamp
	meta  unitMeta
	// scanned says counts and the mentions hold, found with the file's
	// matcher version.
	scanned bool
	// counts are the entries mentioned, as the index orders them.
	counts []EntryCount
	// byEntry and places order the counts by entry ID (unitMentions), as
	// the file lists them.
	byEntry, places []int32
	// mentions are the mentions, to write; raw is their encoding as read
	// from a file, decoded only when a request needs them.
	mentions []Mention
	raw      []byte
	// names are the untracked-name candidates, when they had been found
	// before the file was written (they are found on first use).
	names map[string]nameTally
	// found is the index's own record of the chapter, in a cache that
	// was just written (SaveCache), rather than read from a file.
	found *unitMentions
}

// unitMeta is the part of a Unit that reading its text finds.
type unitMeta struct {
	Title    string          `json:"title"`
	Words    int             `json:"words"`
	Meta     ChapterMeta     `json:"meta"`
	Headings []codex.Section `json:"headings,omitempty"`
	Body     codex.Range     `json:"body"`
	Code     []codex.Range   `json:"code,omitempty"`
}

// chapterCache is a chapter cache file as read at start. It is not
// changed once read, so snapshots share it without locks.
type chapterCache struct {
	// matcher is the Version of the matcher the mentions were found with.
	matcher [sha256.Size]byte
	// table is that matcher's entry IDs, sorted (Matcher.ids): mentions
	// and counts name entries by their place in it.
	table   []string
	records map[string]*chapterRecord
	// hits counts the chapters served from the cache, for the logs, and
	// scans the scans; a cache made from another (sharing) counts on.
	hits, scans *atomic.Int64
}

// newChapterCache is a cache of the scans of the matcher of version
// matcher, whose IDs, sorted, are table.
func newChapterCache(matcher [sha256.Size]byte, table []string, records map[string]*chapterRecord) *chapterCache {
	return &chapterCache{matcher: matcher, table: table, records: records, hits: &atomic.Int64{}, scans: &atomic.Int64{}}
}

// unit is the chapter rel with the bytes text from the cache, when the
// cache knows text under that path; the meta is checked against the
// text, so a record that does not fit it is a miss.
func (c *chapterCache) unit(rel, text string, sum [sha256.Size]byte) (*Unit, bool) {
	if c == nil {
		return nil, false
	}
	r, ok := c.records[rel]
	if !ok || r.sum != sum || !r.meta.fits(len(text)) {
		return nil, false
	}
	c.hits.Add(1)
	return &Unit{
		Path:     rel,
		Number:   leadingNumber(filepath.Base(filepath.FromSlash(rel))),
		Title:    r.meta.Title,
		Words:    r.meta.Words,
		Meta:     r.meta.Meta,
		Headings: r.meta.Headings,
		Body:     r.meta.Body,
		Code:     r.meta.Code,
		Text:     text,
		sum:      sum,
		scenes:   &sceneSlot{},
	}, true
}

// stampSum is the sum of rel's record when the file's stamp is the one
// it was saved with (chapterRecord.stamp).
func (c *chapterCache) stampSum(rel string, stamp codex.FileStamp) ([sha256.Size]byte, bool) {
	if c == nil || stamp == (codex.FileStamp{}) {
		return [sha256.Size]byte{}, false
	}
	r, ok := c.records[rel]
	if !ok || r.stamp != stamp {
		return [sha256.Size]byte{}, false
	}
	return r.sum, true
}

// serves reports whether the cache's scans were found with m's names: the
// same version, and the same table of IDs, which the counts' places
// refer to (a file that agrees on the one but not the other was made to
// mislead).
func (c *chapterCache) serves(m *Matcher) bool {
	if c == nil || c.matcher != m.version || len(c.table) != len(m.ids) {
		return false
	}
	return len(c.table) == 0 || &c.table[0] == &m.ids[0] || slices.Equal(c.table, m.ids)
}

// sharing is c naming entries by m's own ID strings rather than the
// copies the file was decoded into, when c serves m: in a series, every
// book's cache names the series' ten thousand entries, whose IDs the
// books' matchers share (codex.Catalog.Shared), and each book would
// otherwise keep a copy of them for as long as its counts live. c is
// not changed (snapshots share it without locks): the records are
// copied, their counts made anew, the rest shared.
func (c *chapterCache) sharing(m *Matcher) *chapterCache {
	if c == nil || m == nil || len(c.table) == 0 || !c.serves(m) || &c.table[0] == &m.ids[0] {
		return c
	}
	next := &chapterCache{matcher: c.matcher, table: m.ids, records: make(map[string]*chapterRecord, len(c.records)), hits: c.hits, scans: c.scans}
	for path, r := range c.records {
		cp := *r
		if len(r.counts) > 0 && r.found == nil && len(r.places) == len(r.counts) {
			cp.counts = slices.Clone(r.counts)
			for j, i := range r.byEntry {
				cp.counts[i].Entry = m.ids[r.places[j]]
			}
		}
		next.records[path] = &cp
	}
	return next
}

// shareInPlace is sharing for a cache nobody else reads yet
// (Manuscript.SetMatcherAtOpen): the records take m's entry IDs where
// they are, and the cache m's table.
func (c *chapterCache) shareInPlace(m *Matcher) {
	if c == nil || m == nil || len(c.table) == 0 || !c.serves(m) || &c.table[0] == &m.ids[0] {
		return
	}
	// Half a million counts at 10,000 entries and 800 chapters, on the
	// first hover's path: the records are shared out among the cores,
	// which are idle then (the codex has built its catalog and names).
	records := slices.Collect(maps.Values(c.records))
	workers := min(runtime.GOMAXPROCS(0), len(records))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(records); k += workers {
				r := records[k]
				if len(r.counts) > 0 && r.found == nil && len(r.places) == len(r.counts) {
					for j, i := range r.byEntry {
						r.counts[i].Entry = m.ids[r.places[j]]
					}
				}
			}
		})
	}
	wg.Wait()
	c.table = m.ids
}

// scan is u's mention scan with m from the cache, when it holds one:
// the counts at once, the mentions decoded on first use.
func (c *chapterCache) scan(m *Matcher, u *Unit) (*unitMentions, bool) {
	if c == nil || u.sum == ([sha256.Size]byte{}) || m.version != c.matcher {
		return nil, false
	}
	// The caller checked c.serves(m).
	r, ok := c.records[u.Path]
	body := u.BodyRange()
	if !ok || !r.scanned || r.sum != u.sum || !countsFit(r.counts, body) || len(r.places) != len(r.counts) && r.found == nil {
		return nil, false
	}
	c.scans.Add(1)
	if r.found != nil {
		moved := *r.found
		moved.unit = u
		return &moved, true
	}
	um := &unitMentions{unit: u, counts: r.counts, namesFound: &atomic.Bool{}, written: &sync.Map{}, uses: &sync.Map{}, untracked: &untrackedCounts{}}
	// Sorted when the file was read; never changed, so shared.
	um.byEntry, um.places = r.byEntry, r.places
	um.decodeLater(m, r.raw, c.table)
	if r.names != nil {
		names := r.names
		um.names = func() map[string]nameTally { return names }
		um.namesFound.Store(true)
	} else {
		um.findNamesLater(m)
	}
	return um, true
}

// countsFit reports whether every first mention lies in the part of the
// text scanned, and every count is one or more.
func countsFit(counts []EntryCount, body codex.Range) bool {
	for _, c := range counts {
		if c.Count < 1 || c.First.Start < 0 || c.First.Start >= c.First.End || c.First.End > body.End {
			return false
		}
	}
	return true
}

// fits reports whether every range of the meta lies in a text of n
// bytes.
func (u unitMeta) fits(n int) bool {
	in := func(r codex.Range) bool { return r.Start >= 0 && r.Start <= r.End && r.End <= n }
	ok := in(u.Body) && in(u.Meta.POVRange) && in(u.Meta.DayRange) && in(u.Meta.LocationRange) && in(u.Meta.FlashbackRange) && in(u.Meta.TargetRange)
	for _, h := range u.Headings {
		ok = ok && in(h.Range) && in(h.HeadingRange)
	}
	for _, r := range u.Code {
		ok = ok && in(r)
	}
	for _, p := range u.Meta.Problems {
		ok = ok && in(p.Range)
	}
	return ok && u.Words >= 0
}

// mentionsFit reports whether mentions lie, in order and apart, inside
// the part of the text scanned, as a scan would have found them.
func mentionsFit(mentions []Mention, body codex.Range) bool {
	end := 0
	for _, m := range mentions {
		if m.Range.Start < end || m.Range.Start >= m.Range.End || m.Range.End > body.End || m.Entry == "" {
			return false
		}
		end = m.Range.End
	}
	return true
}

// hitCount is how many chapters were read from the cache.
func (c *chapterCache) hitCount() int64 {
	if c == nil {
		return 0
	}
	return c.hits.Load()
}

// CacheHits says how many chapters the chapter cache read at start
// spared: read (their outline and counts taken from it) and scanned
// (their mentions taken from it), for the logs.
func (m *Manuscript) CacheHits() (read, scanned int64) {
	c := m.snap.Load().cache
	if c == nil {
		return 0, 0
	}
	return c.hits.Load(), c.scans.Load()
}

// cacheRecords are the records of the snapshot's chapters read from
// disk, and whether they say anything the snapshot's cache does not.
func (s *Snapshot) cacheRecords() (*chapterCache, bool) {
	ix := s.mentions
	next := newChapterCache(ix.matcher.version, ix.matcher.ids, make(map[string]*chapterRecord, len(s.units)))
	old := s.cache
	changed := old == nil || old.matcher != next.matcher
	for _, u := range s.units {
		if u.sum == ([sha256.Size]byte{}) {
			continue
		}
		r := &chapterRecord{sum: u.sum, stamp: u.stamp, meta: unitMeta{Title: u.Title, Words: u.Words, Meta: u.Meta,
			Headings: u.Headings, Body: u.Body, Code: u.Code}}
		if um, ok := ix.units[u.Path]; ok && um.unit.sum == u.sum {
			r.scanned, r.counts, r.raw, r.found = true, um.counts, um.raw, um
			if um.raw == nil {
				r.mentions = um.list()
				r.scanned = mentionsFit(r.mentions, u.BodyRange())
			}
			if um.namesFound.Load() {
				r.names = um.names()
			}
		}
		next.records[u.Path] = r
		if !changed {
			o, ok := old.records[u.Path]
			changed = !ok || o.sum != r.sum || o.stamp != r.stamp || o.scanned != r.scanned || (o.names == nil) != (r.names == nil)
		}
	}
	changed = changed || len(next.records) != len(old.records)
	return next, changed
}

// byPlace orders the places of a chapter's counts: byEntry lists the
// counts' indexes by ascending place (the table is sorted, so by entry
// ID), places the places in that order. Each pair is packed into one
// integer, which sorts several times faster than a comparison function.
// The cache file lists counts in this order (cacheEncoder.scan).
func byPlace(countIDs []int32) (byEntry, places []int32) {
	keys := make([]uint64, len(countIDs))
	for i, p := range countIDs {
		keys[i] = uint64(uint32(p))<<32 | uint64(uint32(i))
	}
	slices.Sort(keys)
	byEntry = make([]int32, len(keys))
	places = make([]int32, len(keys))
	for k, key := range keys {
		byEntry[k] = int32(uint32(key))
		places[k] = int32(key >> 32)
	}
	return byEntry, places
}

// CachedScan reports whether finding matcher's names in the chapters
// would take them from the chapter cache, all but at most few chapters
// (changed since the cache was written, or open in the editor): then it
// costs milliseconds, and a caller that would rather have the book answer
// first (book.Options.LaterMentions) need not put it off.
func (m *Manuscript) CachedScan(matcher *Matcher, few int) bool {
	snap := m.snap.Load()
	c := snap.cache
	if matcher == nil || !c.serves(matcher) {
		return false
	}
	missing := 0
	for _, u := range snap.units {
		r, ok := c.records[u.Path]
		if !ok || !r.scanned || r.sum != u.sum || u.sum == ([sha256.Size]byte{}) {
			if missing++; missing > few {
				return false
			}
		}
	}
	return true
}
