package manuscript

import (
	"bytes"
	"hash/crc32"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// Every field of a chapter's meta comes back from the cache as it was
// written, and a new field fails here until the encoding writes it.
func TestChapterCacheMetaRoundTrip(t *testing.T) {
	require.Equal(t, 6, reflect.TypeFor[unitMeta]().NumField(), "a field of unitMeta is not in the chapter cache: encode it (chapter_cache_meta.go) and bump chapterCacheFormat")
	require.Equal(t, 12, reflect.TypeFor[ChapterMeta]().NumField(), "a field of ChapterMeta is not in the chapter cache: encode it (chapter_cache_meta.go) and bump chapterCacheFormat")
	rng := func(s, e int) codex.Range { return codex.Range{Start: s, End: e} }
	tests := []struct {
		name string
		meta unitMeta
	}{
		{"empty", unitMeta{}},
		{"everything", unitMeta{
			Title: "Mara's Return", Words: 5123, Body: rng(40, 9000),
			Headings: []codex.Section{{Heading: "The Harbor", Level: 1, HeadingRange: rng(40, 52), Range: rng(40, 400)}, {Heading: "Dawn", Level: 2, HeadingRange: rng(60, 67), Range: rng(60, 400)}},
			Code:     []codex.Range{rng(500, 510)},
			Meta: ChapterMeta{POV: "Mara", POVRange: rng(9, 13), Day: -3, HasDay: true, DayRange: rng(19, 21),
				Location: "the Harbor", LocationRange: rng(30, 40), Flashback: true, FlashbackRange: rng(22, 26),
				Target: 4000, TargetRange: rng(27, 31),
				Problems: []codex.Problem{{Path: "manuscript/01.md", Code: "chapter-day", Severity: codex.SeverityWarning, Message: "day: soon is no number", Range: rng(19, 23)}}},
		}},
		{"a large day", unitMeta{Meta: ChapterMeta{Day: 1 << 40, HasDay: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e cacheEncoder
			require.NoError(t, e.meta(tt.meta))
			d := cacheDecoder{data: e.buf.Bytes()}
			var got unitMeta
			require.NoError(t, d.meta(&got))
			assert.Empty(t, d.data, "the whole record is read")
			assert.Equal(t, tt.meta, got)
		})
	}
}

// A meta cut short or with a damaged problem list reads as damage, never
// as a different meta.
func TestChapterCacheMetaDamaged(t *testing.T) {
	var e cacheEncoder
	require.NoError(t, e.meta(unitMeta{Title: "Storm", Words: 10, Meta: ChapterMeta{Problems: []codex.Problem{{Message: "x"}}}}))
	data := e.buf.Bytes()
	for cut := range len(data) {
		d := cacheDecoder{data: data[:cut]}
		var got unitMeta
		assert.Error(t, d.meta(&got), "cut at %d", cut)
	}
}

// A chapter whose meta holds a range running backwards is left out of
// the cache (read again next time) rather than written as another range.
func TestChapterCacheLeavesOutABackwardsRange(t *testing.T) {
	records := map[string]*chapterRecord{
		"manuscript/01.md": {meta: unitMeta{Title: "One", Body: codex.Range{Start: 0, End: 10}}},
		"manuscript/02.md": {meta: unitMeta{Title: "Two", Body: codex.Range{Start: 10, End: 3}}},
	}
	data, err := encodeChapterCache([32]byte{}, nil, records)
	require.NoError(t, err)
	c, err := decodeChapterCache(data)
	require.NoError(t, err)
	assert.Contains(t, c.records, "manuscript/01.md")
	assert.NotContains(t, c.records, "manuscript/02.md")
}

// byPlace orders a chapter's counts by their places in the table, as
// unitMentions looks entries up.
func TestByPlace(t *testing.T) {
	byEntry, places := byPlace([]int32{7, 2, 9, 0, 3})
	assert.Equal(t, []int32{3, 1, 4, 0, 2}, byEntry)
	assert.Equal(t, []int32{0, 2, 3, 7, 9}, places)
	byEntry, places = byPlace(nil)
	assert.Empty(t, byEntry)
	assert.Empty(t, places)
}

// The counts come back in the chapter's order, with their order by entry
// as the file lists them; an entry counted twice leaves the chapter
// unscanned (scanned again), and a file whose places do not rise is
// damaged.
func TestChapterCacheCountOrder(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	counts := []EntryCount{
		{Entry: "c", Count: 3, First: codex.Range{Start: 1, End: 2}},
		{Entry: "a", Count: 1, First: codex.Range{Start: 5, End: 9}},
		{Entry: "d", Count: 2, First: codex.Range{Start: 3, End: 4}},
	}
	records := map[string]*chapterRecord{
		"manuscript/01.md": {scanned: true, counts: counts, raw: []byte{0}},
		"manuscript/02.md": {scanned: true, counts: []EntryCount{counts[0], counts[0]}, raw: []byte{0}},
	}
	data, err := encodeChapterCache([32]byte{}, ids, records)
	require.NoError(t, err)
	c, err := decodeChapterCache(data)
	require.NoError(t, err)
	r := c.records["manuscript/01.md"]
	require.True(t, r.scanned)
	assert.Equal(t, counts, r.counts)
	// Each count's place in the table, as byEntry and places pair them.
	countPlaces := make([]int32, len(r.counts))
	for j, i := range r.byEntry {
		countPlaces[i] = r.places[j]
	}
	assert.Equal(t, []int32{2, 0, 3}, countPlaces)
	assert.Equal(t, []int32{1, 0, 2}, r.byEntry)
	assert.Equal(t, []int32{0, 2, 3}, r.places)
	assert.False(t, c.records["manuscript/02.md"].scanned, "an entry counted twice")

	// The same file with the first two counts swapped: places 2 then 0.
	var e cacheEncoder
	e.uint(2)
	for _, f := range [][5]uint64{{2, 0, 3, 1, 1}, {0, 1, 1, 5, 4}} {
		for _, v := range f {
			e.uint(v)
		}
	}
	var good cacheEncoder
	good.uint(2)
	for _, f := range [][5]uint64{{0, 1, 1, 5, 4}, {2, 0, 3, 1, 1}} {
		for _, v := range f {
			good.uint(v)
		}
	}
	one := map[string]*chapterRecord{"manuscript/01.md": {scanned: true, counts: counts[:2], raw: []byte{0}}}
	data, err = encodeChapterCache([32]byte{}, ids, one)
	require.NoError(t, err)
	body := data[:len(data)-crc32.Size]
	require.True(t, bytes.Contains(body, good.buf.Bytes()))
	body = bytes.Replace(body, good.buf.Bytes(), e.buf.Bytes(), 1)
	_, err = decodeChapterCache(sealChapterCache(body))
	assert.Error(t, err, "places that do not rise")
}
