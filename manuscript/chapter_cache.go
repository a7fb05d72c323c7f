package manuscript

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
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
// language server when it shuts down (never while the writer works, so
// a cache folder deleted under it is not made again). Chapters holding
// the editor's unsaved text are left out.
//
// Damage: the file is written whole to a temporary file and renamed
// over the old one, and ends with the SHA-256 of what precedes it: a
// file left by an older quire (another format version), cut short or
// garbled is ignored whole, and the chapters are read as on a first
// start. Reading is linear in the file, which is refused above
// maxChapterCacheBytes; every count in it is checked against the bytes
// left, so no allocation outgrows the file; every range is checked
// against the chapter's text before it is used.

// chapterCacheFormat names the layout of the file and what quire puts in
// it; bump it whenever NewUnit, the mention scan or the untracked-name
// finder would find something else in the same text.
const chapterCacheFormat = 3

// chapterCacheMagic opens every chapter cache file.
const chapterCacheMagic = "quire chapter cache\n"

// maxChapterCacheBytes bounds the file, and so what reading it may
// allocate (at most about ten times as much, the counts decoded as
// EntryCounts). Four million words take 3.4 MB, so a workspace of forty
// million stays well below it.
const maxChapterCacheBytes = 64 << 20

// chapterRecord is what the cache holds about one chapter.
type chapterRecord struct {
	sum  [sha256.Size]byte
	meta unitMeta
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
	}, true
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

// scan is u's mention scan with m from the cache, when it holds one:
// the counts at once, the mentions decoded on first use.
func (c *chapterCache) scan(m *Matcher, u *Unit) (*unitMentions, bool) {
	if c == nil || u.sum == ([sha256.Size]byte{}) || m.version != c.matcher {
		return nil, false
	}
	// The caller checked c.serves(m).
	r, ok := c.records[u.Path]
	body := bodyOf(u)
	if !ok || !r.scanned || r.sum != u.sum || !countsFit(r.counts, body) || len(r.places) != len(r.counts) && r.found == nil {
		return nil, false
	}
	c.scans.Add(1)
	if r.found != nil {
		moved := *r.found
		moved.unit = u
		return &moved, true
	}
	um := &unitMentions{unit: u, counts: r.counts, raw: r.raw, namesFound: &atomic.Bool{}}
	// Sorted when the file was read; never changed, so shared.
	um.byEntry, um.places = r.byEntry, r.places
	raw, table := r.raw, c.table
	um.lazy = sync.OnceValue(func() []Mention {
		mentions, err := decodeMentions(raw, table)
		if err != nil || !mentionsFit(mentions, body) {
			// The file said something it could not back: the text is at
			// hand, so scan it.
			return m.scan(u.Text[:body.End], body.Start)
		}
		return mentions
	})
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
	ok := in(u.Body) && in(u.Meta.POVRange) && in(u.Meta.DayRange) && in(u.Meta.LocationRange) && in(u.Meta.FlashbackRange)
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

// readChapterCache reads the cache file at path; a missing, old or
// damaged one reads as none, and the error says why.
func readChapterCache(path string) (*chapterCache, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxChapterCacheBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxChapterCacheBytes {
		return nil, errors.New("chapter cache over its size limit")
	}
	return decodeChapterCache(data)
}

// writeChapterCache writes the file at path atomically: another process
// reading it sees the old file or the new one, never half of one.
func writeChapterCache(path string, data []byte) error {
	// The folder is the codex's, made when it opened; one deleted since
	// is not made again (the book's indexes then live in memory).
	f, err := os.CreateTemp(filepath.Dir(path), ".chapters-*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return nil
}

// encodeChapterCache lays out records (by path) found with the matcher
// of version matcher, whose entry IDs, sorted, are ids. Entry IDs,
// repeated in every mention, are written once in that table and named by
// their place in it, which every matcher of the version shares, so
// mentions read from an older file are written back undecoded.
func encodeChapterCache(matcher [sha256.Size]byte, ids []string, records map[string]*chapterRecord) ([]byte, error) {
	var e cacheEncoder
	e.buf.WriteString(chapterCacheMagic)
	e.uint(chapterCacheFormat)
	e.buf.Write(matcher[:])
	e.uint(uint64(len(ids)))
	for _, id := range ids {
		e.string(id)
	}
	id := func(s string) (uint64, bool) {
		i, ok := slices.BinarySearch(ids, s)
		return uint64(i), ok
	}
	paths := make([]string, 0, len(records))
	for p, r := range records {
		// Ranges are written as start and length: one that runs
		// backwards could not be read back as it was, so its chapter
		// is left to be read again.
		if r.meta.fits(math.MaxInt) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	e.uint(uint64(len(paths)))
	var scan cacheEncoder
	for _, p := range paths {
		r := records[p]
		e.string(p)
		e.buf.Write(r.sum[:])
		if err := e.meta(r.meta); err != nil {
			return nil, fmt.Errorf("encode chapter %s: %w", p, err)
		}
		scan.buf.Reset()
		if !r.scanned || !scan.scan(r, id) {
			e.uint(0)
			continue
		}
		e.uint(1)
		e.buf.Write(scan.buf.Bytes())
	}
	sum := sha256.Sum256(e.buf.Bytes())
	e.buf.Write(sum[:])
	return e.buf.Bytes(), nil
}

// scan writes a record's counts, mentions and names; false when one
// names an entry the table lacks (then the record is kept unscanned).
func (e *cacheEncoder) scan(r *chapterRecord, id func(string) (uint64, bool)) bool {
	// The counts are written by their entries' places, each with its
	// index in the chapter's own order: reading them gives both orders
	// without a sort.
	ids := make([]int32, len(r.counts))
	for i, c := range r.counts {
		p, ok := id(c.Entry)
		if !ok {
			return false
		}
		ids[i] = int32(p)
	}
	byEntry, places := byPlace(ids)
	e.uint(uint64(len(r.counts)))
	for k, i := range byEntry {
		if k > 0 && places[k] == places[k-1] {
			return false // an entry counted twice: no scan a reader could trust
		}
		c := r.counts[i]
		e.uint(uint64(places[k]))
		e.uint(uint64(i))
		e.uint(uint64(c.Count))
		e.uint(uint64(c.First.Start))
		e.uint(uint64(c.First.End - c.First.Start))
	}
	raw := r.raw
	if raw == nil {
		var m cacheEncoder
		m.uint(uint64(len(r.mentions)))
		prev := 0
		for _, mention := range r.mentions {
			i, ok := id(mention.Entry)
			if !ok {
				return false
			}
			m.uint(i)
			m.uint(uint64(mention.Range.Start - prev))
			m.uint(uint64(mention.Range.End - mention.Range.Start))
			flags := uint64(len(mention.Others)) << 1
			if mention.Alias {
				flags |= 1
			}
			m.uint(flags)
			for _, o := range mention.Others {
				i, ok := id(o)
				if !ok {
					return false
				}
				m.uint(i)
			}
			prev = mention.Range.End
		}
		raw = m.buf.Bytes()
	}
	e.bytes(raw)
	if r.names == nil {
		e.uint(0)
		return true
	}
	e.uint(1)
	keys := make([]string, 0, len(r.names))
	for k := range r.names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		t := r.names[k]
		e.string(k)
		e.string(t.written)
		e.uint(uint64(t.first.Start))
		e.uint(uint64(t.first.End - t.first.Start))
		e.uint(uint64(t.count))
		e.uint(uint64(t.shouted))
	}
	return true
}

// decodeChapterCache reads what encodeChapterCache wrote, but for the
// mentions of each chapter, which decodeMentions reads when asked.
func decodeChapterCache(data []byte) (*chapterCache, error) {
	if len(data) < len(chapterCacheMagic)+2*sha256.Size || !bytes.HasPrefix(data, []byte(chapterCacheMagic)) {
		return nil, errors.New("not a chapter cache")
	}
	content, tail := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sum := sha256.Sum256(content); !bytes.Equal(sum[:], tail) {
		return nil, errors.New("chapter cache damaged (checksum)")
	}
	d := cacheDecoder{data: content[len(chapterCacheMagic):]}
	if v := d.uint(); d.err == nil && v != chapterCacheFormat {
		return nil, fmt.Errorf("chapter cache of format %d, not %d", v, chapterCacheFormat)
	}
	c := newChapterCache([sha256.Size]byte{}, nil, nil)
	copy(c.matcher[:], d.raw(sha256.Size))
	// Each entry ID takes at least one byte, each record at least 35.
	c.table = make([]string, d.count(1))
	for i := range c.table {
		c.table[i] = d.string()
		if i > 0 && c.table[i] <= c.table[i-1] {
			// Lookups by place rely on the order.
			d.fail()
		}
	}
	n := d.count(3 + sha256.Size)
	c.records = make(map[string]*chapterRecord, n)
	for range n {
		path := d.string()
		r := &chapterRecord{}
		copy(r.sum[:], d.raw(sha256.Size))
		if err := d.meta(&r.meta); err != nil {
			return nil, fmt.Errorf("chapter cache: %s: %w", path, err)
		}
		if d.uint() == 1 {
			r.scanned = true
			k := d.count(5)
			r.counts = make([]EntryCount, k)
			r.byEntry, r.places = make([]int32, k), make([]int32, k)
			seen := make([]bool, k)
			for j := range k {
				place, i := d.uint(), d.uint()
				// Places rise strictly, and each index comes once: the
				// orders the lookups rely on.
				if place >= uint64(len(c.table)) || i >= uint64(k) || seen[i] || j > 0 && int32(place) <= r.places[j-1] {
					d.fail()
					break
				}
				seen[i] = true
				r.byEntry[j], r.places[j] = int32(i), int32(place)
				r.counts[i].Entry = c.table[place]
				r.counts[i].Count = d.int()
				r.counts[i].First.Start = d.int()
				r.counts[i].First.End = r.counts[i].First.Start + d.int()
			}
			if k == 0 {
				r.counts = nil
			}
			r.raw = d.bytes()
			if d.uint() == 1 {
				k := d.count(6)
				r.names = make(map[string]nameTally, k)
				for range k {
					key := d.string()
					t := nameTally{written: d.string()}
					t.first.Start = d.int()
					t.first.End = t.first.Start + d.int()
					t.count, t.shouted = d.int(), d.int()
					r.names[key] = t
				}
			}
		}
		if d.err != nil {
			break
		}
		c.records[path] = r
	}
	if d.err == nil && len(d.data) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	c.ownRaw()
	return c, nil
}

// ownRaw copies the records' encoded mentions, read from the file's
// bytes, into one buffer of their own: the file's bytes, most of them
// the table and counts already decoded, are then not kept alive for as
// long as any chapter's mentions are.
func (c *chapterCache) ownRaw() {
	n := 0
	for _, r := range c.records {
		n += len(r.raw)
	}
	buf := make([]byte, 0, n)
	for _, r := range c.records {
		if r.raw != nil {
			start := len(buf)
			buf = append(buf, r.raw...)
			r.raw = buf[start:len(buf):len(buf)]
		}
	}
}

// decodeMentions reads one chapter's mentions, whose entries are places
// in table.
func decodeMentions(raw []byte, table []string) ([]Mention, error) {
	d := cacheDecoder{data: raw}
	entry := func() string {
		i := d.uint()
		if i >= uint64(len(table)) {
			d.fail()
			return ""
		}
		return table[i]
	}
	n := d.count(4)
	if n == 0 {
		// A scan that found nothing gives nil, and so does this.
		return nil, d.err
	}
	mentions := make([]Mention, n)
	prev := 0
	for i := range mentions {
		m := &mentions[i]
		m.Entry = entry()
		m.Range.Start = prev + d.int()
		m.Range.End = m.Range.Start + d.int()
		flags := d.uint()
		m.Alias = flags&1 == 1
		if others := d.countOf(flags>>1, 1); others > 0 {
			m.Others = make([]string, others)
			for j := range m.Others {
				m.Others[j] = entry()
			}
		}
		prev = m.Range.End
	}
	if d.err == nil && len(d.data) != 0 {
		d.fail()
	}
	return mentions, d.err
}

// cacheEncoder appends unsigned varints and length-prefixed strings.
type cacheEncoder struct{ buf bytes.Buffer }

func (e *cacheEncoder) uint(v uint64) { e.buf.Write(binary.AppendUvarint(nil, v)) }

func (e *cacheEncoder) string(s string) {
	e.uint(uint64(len(s)))
	e.buf.WriteString(s)
}

func (e *cacheEncoder) bytes(b []byte) {
	e.uint(uint64(len(b)))
	e.buf.Write(b)
}

// cacheDecoder reads what cacheEncoder wrote; the first error sticks and
// every later read returns zero values, so a damaged file costs at most
// one pass over it.
type cacheDecoder struct {
	data []byte
	err  error
}

func (d *cacheDecoder) fail() {
	if d.err == nil {
		d.err = errors.New("chapter cache damaged")
	}
	d.data = nil
}

func (d *cacheDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return v
}

// int reads a value that must fit an offset in a chapter.
func (d *cacheDecoder) int() int {
	v := d.uint()
	if v > MaxUnitBytes {
		d.fail()
		return 0
	}
	return int(v)
}

// count reads a number of items, each at least min bytes long, and
// refuses one the rest of the file cannot hold: no allocation is larger
// than the file.
func (d *cacheDecoder) count(min int) int { return d.countOf(d.uint(), min) }

func (d *cacheDecoder) countOf(v uint64, min int) int {
	if d.err != nil || v > uint64(len(d.data)/min) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *cacheDecoder) raw(n int) []byte {
	if d.err != nil || len(d.data) < n {
		d.fail()
		return make([]byte, n)
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *cacheDecoder) bytes() []byte {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.data)) {
		d.fail()
		return nil
	}
	return d.raw(int(n))
}

func (d *cacheDecoder) string() string { return string(d.bytes()) }

// hitCount is how many chapters were read from the cache.
func (c *chapterCache) hitCount() int64 {
	if c == nil {
		return 0
	}
	return c.hits.Load()
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
		r := &chapterRecord{sum: u.sum, meta: unitMeta{Title: u.Title, Words: u.Words, Meta: u.Meta,
			Headings: u.Headings, Body: u.Body, Code: u.Code}}
		if um, ok := ix.units[u.Path]; ok && um.unit.sum == u.sum {
			r.scanned, r.counts, r.raw, r.found = true, um.counts, um.raw, um
			if um.raw == nil {
				r.mentions = um.list()
				r.scanned = mentionsFit(r.mentions, bodyOf(u))
			}
			if um.namesFound.Load() {
				r.names = um.names()
			}
		}
		next.records[u.Path] = r
		if !changed {
			o, ok := old.records[u.Path]
			changed = !ok || o.sum != r.sum || o.scanned != r.scanned || (o.names == nil) != (r.names == nil)
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
