package manuscript

import (
	"encoding/json"
	"math"

	"github.com/quire-ink/quire/codex"
)

// A chapter's meta in the chapter cache, field by field as varints and
// length-prefixed strings: a warm start decodes 800 of them, and
// encoding/json took a third of reading the file. The rare problems of
// the story-time front matter stay JSON, written only when there are
// some. A field added to unitMeta or ChapterMeta must be written here
// too, with a new chapterCacheFormat (TestChapterCacheMetaRoundTrip
// counts the fields).

// Flags of a meta record.
const (
	metaHasDay = 1 << iota
	metaFlashback
	metaProblems
)

func (e *cacheEncoder) meta(m unitMeta) error {
	e.string(m.Title)
	e.uint(uint64(m.Words))
	e.rng(m.Body)
	e.uint(uint64(len(m.Headings)))
	for _, h := range m.Headings {
		e.string(h.Heading)
		e.uint(uint64(h.Level))
		e.rng(h.HeadingRange)
		e.rng(h.Range)
	}
	e.uint(uint64(len(m.Code)))
	for _, r := range m.Code {
		e.rng(r)
	}
	c := m.Meta
	flags := uint64(0)
	if c.HasDay {
		flags |= metaHasDay
	}
	if c.Flashback {
		flags |= metaFlashback
	}
	if len(c.Problems) > 0 {
		flags |= metaProblems
	}
	e.uint(flags)
	e.string(c.POV)
	e.rng(c.POVRange)
	e.varint(int64(c.Day))
	e.rng(c.DayRange)
	e.string(c.Location)
	e.rng(c.LocationRange)
	e.rng(c.FlashbackRange)
	e.uint(uint64(c.Target))
	e.rng(c.TargetRange)
	if len(c.Problems) > 0 {
		probs, err := json.Marshal(c.Problems)
		if err != nil {
			return err
		}
		e.bytes(probs)
	}
	return nil
}

// rng writes a range as its start and length; encodeChapterCache keeps
// out a meta with a range that runs backwards.
func (e *cacheEncoder) rng(r codex.Range) {
	e.uint(uint64(r.Start))
	e.uint(uint64(r.End - r.Start))
}

func (e *cacheEncoder) varint(v int64) {
	e.uint(uint64(v<<1) ^ uint64(v>>63))
}

// meta reads what cacheEncoder.meta wrote; a damaged record sets d.err.
func (d *cacheDecoder) meta(m *unitMeta) error {
	m.Title = d.string()
	m.Words = d.int()
	m.Body = d.rng()
	if n := d.count(5); n > 0 {
		m.Headings = make([]codex.Section, n)
		for i := range m.Headings {
			h := &m.Headings[i]
			h.Heading = d.string()
			h.Level = d.int()
			h.HeadingRange = d.rng()
			h.Range = d.rng()
		}
	}
	if n := d.count(2); n > 0 {
		m.Code = make([]codex.Range, n)
		for i := range m.Code {
			m.Code[i] = d.rng()
		}
	}
	flags := d.uint()
	c := &m.Meta
	c.HasDay = flags&metaHasDay != 0
	c.Flashback = flags&metaFlashback != 0
	c.POV = d.string()
	c.POVRange = d.rng()
	c.Day = d.varint()
	c.DayRange = d.rng()
	c.Location = d.string()
	c.LocationRange = d.rng()
	c.FlashbackRange = d.rng()
	c.Target = d.int()
	c.TargetRange = d.rng()
	if flags&metaProblems != 0 {
		if probs := d.bytes(); d.err == nil {
			if err := json.Unmarshal(probs, &c.Problems); err != nil {
				d.fail()
				return err
			}
		}
	}
	return d.err
}

func (d *cacheDecoder) rng() codex.Range {
	start := d.int()
	return codex.Range{Start: start, End: start + d.int()}
}

// varint reads a signed value (a story day may be negative).
func (d *cacheDecoder) varint() int {
	u := d.uint()
	v := int64(u>>1) ^ -int64(u&1)
	if v > math.MaxInt || v < math.MinInt {
		d.fail()
		return 0
	}
	return int(v)
}
