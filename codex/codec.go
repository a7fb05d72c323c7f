package codex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"unsafe"
)

// The state file is a compact binary encoding of savedState: warm starts
// decode ten thousand entries in tens of milliseconds, where gob needed
// several times that. Layout: magic, schema version, the sources of
// every soul and entry one after another (their total length first),
// then the fields in a fixed order (lengths and integers as varints; a
// source as its offset and length among the sources), then a CRC-32 of
// everything before it, so a truncated or damaged file is detected and
// the index rebuilt. The sources stand apart so that a state mapped into
// memory (state_map_unix.go) is decoded without reading them: an entry's
// text, most of the file, is read from disk only when something asks for
// it. Any change to what is encoded needs a new SchemaVersion.

var stateMagic = []byte("quire-state\x00")

// errCorruptState reports a state file that cannot be decoded.
var errCorruptState = errors.New("state file is corrupt")

// encoder appends to buf and hands full chunks to w, so that encoding
// the state of a large codex never holds (or page-faults) one big buffer.
type encoder struct {
	buf []byte
	w   io.Writer
	crc hash.Hash32
	err error
	// src is where the next source starts among the sources, written
	// ahead of the fields in the same order as source is called.
	src int
}

const encodeChunk = 64 << 10

func newEncoder(w io.Writer) *encoder {
	return &encoder{buf: make([]byte, 0, 2*encodeChunk), w: w, crc: crc32.NewIEEE()}
}

// spill writes the buffer out once it holds a chunk.
func (e *encoder) spill() {
	if len(e.buf) >= encodeChunk {
		e.flush()
	}
}

func (e *encoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		e.crc.Write(e.buf)
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// finish writes what is left and the checksum of everything.
func (e *encoder) finish() error {
	e.flush()
	if e.err == nil {
		_, e.err = e.w.Write(binary.LittleEndian.AppendUint32(nil, e.crc.Sum32()))
	}
	return e.err
}

func (e *encoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) varint(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *encoder) int(v int)        { e.varint(int64(v)) }

func (e *encoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// source writes where s lies among the sources writeStateTo wrote
// first, the next in their order.
func (e *encoder) source(s string) {
	e.uvarint(uint64(e.src))
	e.uvarint(uint64(len(s)))
	e.src += len(s)
}

func (e *encoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

func (e *encoder) strs(ss []string) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) rng(r Range) {
	e.int(r.Start)
	e.int(r.End)
}

func (e *encoder) ranges(rs []Range) {
	e.uvarint(uint64(len(rs)))
	for _, r := range rs {
		e.rng(r)
	}
}

func (e *encoder) sections(ss []Section) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s.Heading)
		e.int(s.Level)
		e.rng(s.HeadingRange)
		e.rng(s.Range)
	}
}

func (e *encoder) links(ls []Link) {
	e.uvarint(uint64(len(ls)))
	for _, l := range ls {
		e.str(l.Target)
		e.str(l.Label)
		e.rng(l.Range)
		e.rng(l.TargetRange)
	}
}

func (e *encoder) problems(ps []Problem) {
	e.uvarint(uint64(len(ps)))
	for _, p := range ps {
		e.str(p.Path)
		e.str(p.Code)
		e.int(int(p.Severity))
		e.str(p.Message)
		e.rng(p.Range)
		e.int(p.Unlisted)
	}
}

func (e *encoder) soul(s *Soul) {
	e.str(s.ID)
	e.source(s.Source)
	e.rng(s.Body)
	e.sections(s.Sections)
	e.links(s.Links)
	e.problems(s.Problems)
}

func (e *encoder) entry(en *Entry) error {
	e.str(en.ID)
	e.str(string(en.Type))
	e.str(en.Name)
	e.str(en.Title)
	e.strs(en.Aliases)
	e.str(en.Summary)
	e.strs(en.Tags)
	e.str(string(en.Status))
	e.strs(en.Locked)
	if err := e.fields(en.Custom); err != nil {
		return fmt.Errorf("encode fields of %s: %w", en.ID, err)
	}
	e.str(en.Stem)
	e.bool(en.Mentions)
	e.strs(en.Exclude)
	e.source(en.Source)
	e.rng(en.Body)
	e.sections(en.Sections)
	e.links(en.Links)
	soulID := ""
	if en.Soul != nil {
		soulID = en.Soul.ID
	}
	e.str(soulID)
	e.rng(en.NameRange)
	e.ranges(en.AliasRanges)
	e.problems(en.Problems)
	e.bool(en.lifeStatus)
	return nil
}

// writeStateTo serializes st to w.
func writeStateTo(w io.Writer, st *savedState) error {
	e := newEncoder(w)
	e.buf = append(e.buf, stateMagic...)
	e.uvarint(uint64(st.Schema))
	// The sources first, souls then entries, in the order the fields
	// below name them.
	total := 0
	for _, s := range st.Souls {
		total += len(s.Source)
	}
	for _, en := range st.Entries {
		total += len(en.Source)
	}
	e.uvarint(uint64(total))
	for _, s := range st.Souls {
		e.buf = append(e.buf, s.Source...)
		e.spill()
	}
	for _, en := range st.Entries {
		e.buf = append(e.buf, en.Source...)
		e.spill()
	}
	e.str(st.Root)
	e.bool(st.Indexed)
	e.uvarint(uint64(len(st.Files)))
	for id, f := range st.Files {
		e.str(id)
		e.varint(f.Size)
		e.varint(f.ModTime)
		e.buf = append(e.buf, f.Hash[:]...)
		e.str(string(f.FolderType))
		e.str(f.SoulOf)
		e.spill()
	}
	e.uvarint(uint64(len(st.Souls)))
	for _, s := range st.Souls {
		e.soul(s)
		e.spill()
	}
	e.uvarint(uint64(len(st.Entries)))
	for _, en := range st.Entries {
		if err := e.entry(en); err != nil {
			return err
		}
		e.spill()
	}
	e.problems(st.Skipped)
	e.keysOfState(st.Entries, st.Catalog)
	return e.finish()
}

type decoder struct {
	buf []byte
	off int
	err error
	// src are the sources, which source slices and never reads.
	src []byte
	// The entries and the small slices they hold are carved from shared
	// arrays (slab) rather than allocated one by one: ten thousand
	// entries were some sixty thousand allocations.
	entrySlab   slab[Entry]
	stringSlab  slab[string]
	sectionSlab slab[Section]
	linkSlab    slab[Link]
	rangeSlab   slab[Range]
	keysSlab    slab[keys]
}

// slab hands out slices of shared backing arrays. Each slice is capped
// at its length, so appending to it copies and never writes into its
// neighbour. An array lives as long as any slice of it: a slab wastes
// no more than one chunk for each entry kept from it.
type slab[T any] struct{ free []T }

// slabChunk is how many items a slab allocates at a time.
const slabChunk = 512

func (s *slab[T]) take(n int) []T {
	if n > slabChunk/8 {
		return make([]T, n)
	}
	if n > len(s.free) {
		s.free = make([]T, slabChunk)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("%w at byte %d", errCorruptState, d.off)
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int { return int(d.varint()) }

func (d *decoder) bool() bool {
	if d.err != nil || d.off >= len(d.buf) {
		d.fail()
		return false
	}
	d.off++
	return d.buf[d.off-1] == 1
}

// count reads a length and checks that at least min bytes per item
// remain, so that damaged data cannot ask for a huge allocation.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if d.err == nil && n > uint64((len(d.buf)-d.off)/max(min, 1)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) raw(n int) []byte {
	if d.err != nil || n > len(d.buf)-d.off {
		d.fail()
		return nil
	}
	d.off += n
	return d.buf[d.off-n : d.off]
}

// str returns a string that shares memory with the state buffer: the
// buffer is never written after decoding, and copying ten thousand
// sources would double the cost of a warm start.
func (d *decoder) str() string { return d.text(d.count(1)) }

// text is the next n bytes as a string sharing the state buffer, as
// str's.
func (d *decoder) text(n int) string {
	b := d.raw(n)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// source returns a source among d.src, by its offset and length: like
// str, it shares memory with the state, and it does not read its bytes.
func (d *decoder) source() string {
	off, n := d.uvarint(), d.uvarint()
	if d.err != nil || off > uint64(len(d.src)) || n > uint64(len(d.src))-off {
		d.fail()
		return ""
	}
	if n == 0 {
		return ""
	}
	return unsafe.String(&d.src[off], int(n))
}

func (d *decoder) strs() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	out := d.stringSlab.take(n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) rng() Range { return Range{d.int(), d.int()} }

func (d *decoder) ranges() []Range {
	n := d.count(2)
	if n == 0 {
		return nil
	}
	out := d.rangeSlab.take(n)
	for i := range out {
		out[i] = d.rng()
	}
	return out
}

func (d *decoder) sections() []Section {
	n := d.count(7)
	if n == 0 {
		return nil
	}
	out := d.sectionSlab.take(n)
	for i := range out {
		out[i] = Section{Heading: d.str(), Level: d.int(), HeadingRange: d.rng(), Range: d.rng()}
	}
	return out
}

func (d *decoder) links() []Link {
	n := d.count(6)
	if n == 0 {
		return nil
	}
	out := d.linkSlab.take(n)
	for i := range out {
		out[i] = Link{Target: d.str(), Label: d.str(), Range: d.rng(), TargetRange: d.rng()}
	}
	return out
}

func (d *decoder) problems() []Problem {
	n := d.count(6)
	if n == 0 {
		return nil
	}
	out := make([]Problem, n)
	for i := range out {
		out[i] = Problem{Path: d.str(), Code: d.str(), Severity: Severity(d.int()), Message: d.str(), Range: d.rng(), Unlisted: d.int()}
	}
	return out
}

func (d *decoder) soul() *Soul {
	return &Soul{ID: d.str(), Source: d.source(), Body: d.rng(), Sections: d.sections(), Links: d.links(), Problems: d.problems()}
}

func (d *decoder) entry(souls map[string]*Soul) *Entry {
	en := &d.entrySlab.take(1)[0]
	*en = Entry{
		ID:      d.str(),
		Type:    Type(d.str()),
		Name:    d.str(),
		Title:   d.str(),
		Aliases: d.strs(),
		Summary: d.str(),
		Tags:    d.strs(),
		Status:  Status(d.str()),
		Locked:  d.strs(),
	}
	en.Custom = d.fields()
	en.Stem = d.str()
	en.Mentions = d.bool()
	en.Exclude = d.strs()
	en.Source = d.source()
	en.Body = d.rng()
	en.Sections = d.sections()
	en.Links = d.links()
	if soulID := d.str(); soulID != "" {
		en.Soul = souls[soulID]
	}
	en.NameRange = d.rng()
	en.AliasRanges = d.ranges()
	en.Problems = d.problems()
	en.lifeStatus = d.bool()
	return en
}

// decodeState parses what writeStateTo wrote. Damaged input returns an
// error wrapping errCorruptState, never a panic. The strings of the
// result point into data, which the caller must not modify afterwards.
func decodeState(data []byte) (*savedState, error) {
	if len(data) < len(stateMagic)+4 || string(data[:len(stateMagic)]) != string(stateMagic) {
		return nil, fmt.Errorf("%w: not a quire state file", errCorruptState)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorruptState)
	}
	return decodeChecked(data)
}

// decodeChecked decodes a state whose checksum the caller has checked,
// reading none of its sources' bytes.
func decodeChecked(data []byte) (*savedState, error) {
	if len(data) < len(stateMagic)+4 || string(data[:len(stateMagic)]) != string(stateMagic) {
		return nil, fmt.Errorf("%w: not a quire state file", errCorruptState)
	}
	body := data[:len(data)-4]
	d := &decoder{buf: body, off: len(stateMagic)}
	st := &savedState{Schema: int(d.uvarint())}
	if d.err == nil && st.Schema != SchemaVersion {
		return nil, fmt.Errorf("state schema %d, want %d", st.Schema, SchemaVersion)
	}
	d.src = d.raw(d.count(1))
	st.Root = d.str()
	st.Indexed = d.bool()
	nFiles := d.count(36)
	st.Files = make(map[string]fileState, nFiles)
	for range nFiles {
		id := d.str()
		f := fileState{Size: d.varint(), ModTime: d.varint()}
		copy(f.Hash[:], d.raw(len(f.Hash)))
		f.FolderType = Type(d.str())
		f.SoulOf = d.str()
		st.Files[id] = f
	}
	souls := map[string]*Soul{}
	for range d.count(8) {
		s := d.soul()
		souls[s.ID] = s
		st.Souls = append(st.Souls, s)
	}
	nEntries := d.count(20)
	st.Entries = make([]*Entry, 0, nEntries)
	for range nEntries {
		st.Entries = append(st.Entries, d.entry(souls))
	}
	st.Skipped = d.problems()
	st.Catalog = d.keysOfState(st.Entries)
	if d.err == nil && d.off != len(body) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return st, nil
}
