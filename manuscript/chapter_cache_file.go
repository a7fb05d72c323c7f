package manuscript

// The chapter cache's file: how its records are written, checked and
// read back. What the records mean, and when a chapter may be served
// from them, is chapter_cache.go's.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex/safefile"
)

// readChapterCache reads the cache file at path; a missing, old or
// damaged one reads as none, and the error says why.
func readChapterCache(path string) (*chapterCache, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readCacheFile(path, "chapter cache", maxChapterCacheBytes)
	if err != nil {
		return nil, err
	}
	return decodeChapterCache(data)
}

// readCacheFile reads a file of the book's cache (the chapter cache, the
// names matcher) whole, refusing one over limit bytes; what names it in
// that error.
func readCacheFile(path, what string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read into a buffer of the file's size: growing one as io.ReadAll
	// does cleared and copied megabytes on every warm start.
	size := int64(0)
	if info, err := f.Stat(); err == nil {
		size = min(info.Size(), int64(limit)+1)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, int64(limit)+1)); err != nil {
		return nil, err
	}
	if buf.Len() > limit {
		return nil, errors.New(what + " over its size limit")
	}
	return buf.Bytes(), nil
}

// unseal is what a cache file holds before the CRC-32 that ends it, and
// whether that CRC-32 is the one of what it holds: a torn or damaged
// file is found as surely as a SHA-256 would find it, in a tenth of the
// time.
func unseal(data []byte) ([]byte, bool) {
	if len(data) < crc32.Size {
		return nil, false
	}
	content, tail := data[:len(data)-crc32.Size], data[len(data)-crc32.Size:]
	return content, crc32.ChecksumIEEE(content) == binary.LittleEndian.Uint32(tail)
}

// writeCacheFile writes a file of the book's cache (the chapter cache,
// the names matcher) atomically: another process reading it sees the old
// file or the new one, never half of one, and the bytes reach the disk
// before the name does, so a power cut leaves the old file or the whole
// new one (a torn one would fail its checksum and be ignored, but would
// cost the next start a full reading).
func writeCacheFile(path string, data []byte) error {
	// The folder is the codex's, made when it opened; one deleted since
	// is not made again (the book's indexes then live in memory).
	f, err := os.CreateTemp(filepath.Dir(path), "."+strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+"-*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	var serr error
	if werr == nil {
		serr = f.Sync()
	}
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := safefile.Replace(f.Name(), path); err != nil {
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
	// A map, not a search of the sorted table: a long book names
	// entries hundreds of thousands of times, and the save must be done
	// soon after the first scan (server/chapter_saves.go).
	places := make(map[string]uint64, len(ids))
	for i, id := range ids {
		places[id] = uint64(i)
	}
	id := func(s string) (uint64, bool) {
		i, ok := places[s]
		return i, ok
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
		e.uint(uint64(max(r.stamp.Size, 0)))
		e.uint(uint64(r.stamp.Mod))
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
	return e.seal(), nil
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
		var ok bool
		if raw, ok = encodeMentions(r.mentions, id); !ok {
			return false
		}
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
		e.uint(uint64(t.pieces))
	}
	return true
}

// decodeChapterCache reads what encodeChapterCache wrote, but for the
// mentions of each chapter, which decodeMentions reads when asked.
func decodeChapterCache(data []byte) (*chapterCache, error) {
	if len(data) < len(chapterCacheMagic)+sha256.Size+crc32.Size || !bytes.HasPrefix(data, []byte(chapterCacheMagic)) {
		return nil, errors.New("not a chapter cache")
	}
	// The format first: a file of another format is told as such, not
	// as damaged, whatever it ends with.
	format, formatLen := binary.Uvarint(data[len(chapterCacheMagic):])
	if formatLen <= 0 || format != chapterCacheFormat {
		return nil, fmt.Errorf("chapter cache of format %d, not %d", format, chapterCacheFormat)
	}
	// A CRC-32, as the codex state has.
	content, sealed := unseal(data)
	if !sealed {
		return nil, errors.New("chapter cache damaged (checksum)")
	}
	d := cacheDecoder{data: content[len(chapterCacheMagic)+formatLen:]}
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
		r.stamp.Size = int64(min(d.uint(), math.MaxInt64))
		r.stamp.Mod = int64(d.uint())
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
				k := d.count(7)
				r.names = make(map[string]nameTally, k)
				for range k {
					key := d.string()
					t := nameTally{written: d.string()}
					t.first.Start = d.int()
					t.first.End = t.first.Start + d.int()
					t.count, t.shouted, t.pieces = d.int(), d.int(), d.int()
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

// encodeMentions writes one chapter's mentions as the cache keeps them,
// each entry by its place (id) in the table; false when one names an
// entry the table lacks. decodeMentions reads them back.
func encodeMentions(mentions []Mention, id func(string) (uint64, bool)) ([]byte, bool) {
	var m cacheEncoder
	m.uint(uint64(len(mentions)))
	prev := 0
	for _, mention := range mentions {
		i, ok := id(mention.Entry)
		if !ok {
			return nil, false
		}
		m.uint(i)
		m.uint(uint64(mention.Range.Start - prev))
		m.uint(uint64(mention.Range.End - mention.Range.Start))
		flags := uint64(len(mention.Others)) << 2
		if mention.Alias {
			flags |= 1
		}
		if mention.Declined {
			flags |= 2
		}
		m.uint(flags)
		for _, o := range mention.Others {
			i, ok := id(o)
			if !ok {
				return nil, false
			}
			m.uint(i)
		}
		prev = mention.Range.End
	}
	return m.buf.Bytes(), true
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
		m.Declined = flags&2 == 2
		if others := d.countOf(flags>>2, 1); others > 0 {
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

// seal ends what e holds with its CRC-32 (unseal) and returns it all.
func (e *cacheEncoder) seal() []byte {
	e.buf.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(e.buf.Bytes())))
	return e.buf.Bytes()
}

func (e *cacheEncoder) uint(v uint64) {
	var b [binary.MaxVarintLen64]byte
	e.buf.Write(binary.AppendUvarint(b[:0], v))
}

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
	// Most values are below 128: one byte, read without the loop.
	if len(d.data) > 0 && d.data[0] < 0x80 {
		v := uint64(d.data[0])
		d.data = d.data[1:]
		return v
	}
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
