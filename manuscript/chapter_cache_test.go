package manuscript

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// cachedBook is a book whose chapters carry what the cache keeps: front
// matter with story time and a problem, scenes, code, mentions (one
// ambiguous) and untracked names.
func cachedBook() projectFiles {
	return projectFiles{
		"manuscript/01-harbor.md": "---\ntitle: Mara's Return\npov: Mara\nday: soon\n---\n# The Harbor\n\n## Dawn\n\nMara Vell rowed past Gull Rock. Ilse waved; Mara did not. Captain Orrin Thale watched.\n\n`Mara` in code.\n",
		"manuscript/02-storm.md":  "# Storm\n\nIlse counted. Ilse counted again. The Twins laughed at Mara. Orrin Thale left.\n",
		"manuscript/03-calm.md":   "# Calm\n\nNobody came.\n",
	}
}

// chapterView is what a warm start must give exactly as a cold one.
type chapterView struct {
	Units    []Unit
	Mentions map[string][]Mention
	// Scanned are the mentions a reader holding the unit reuses
	// (MentionsOf): the same, whether scanned now or decoded.
	Scanned map[string][]Mention
	Counts  map[string][]EntryCount
	Untrack []Untracked
}

func viewOf(s *Snapshot) chapterView {
	v := chapterView{Mentions: map[string][]Mention{}, Scanned: map[string][]Mention{}, Counts: map[string][]EntryCount{}}
	for _, u := range s.Units() {
		c := *u
		c.sum, c.unverified = [sha256.Size]byte{}, false
		v.Units = append(v.Units, c)
		v.Mentions[u.Path] = s.Mentions().Mentions(u.Path)
		if ms, ok := s.Mentions().MentionsOf(u); ok {
			v.Scanned[u.Path] = ms
		}
		v.Counts[u.Path] = s.Mentions().InUnit(u.Path)
	}
	v.Untrack = s.Mentions().Untracked(1)
	return v
}

// openCached opens root with the chapter cache at file and finds cat's
// names, as mbook.Open does, and saves the cache.
func openCached(t *testing.T, root, file string, cat *codex.Catalog) *Manuscript {
	t.Helper()
	m, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	m.SetCatalog(cat)
	// Untracked names are found on first use and kept when found.
	_ = m.Snapshot().Mentions().Untracked(1)
	require.NoError(t, m.SaveCache())
	return m
}

// coldView is the view with no cache at all.
func coldView(t *testing.T, root string, cat *codex.Catalog) chapterView {
	t.Helper()
	m, err := Open(context.Background(), root, Options{})
	require.NoError(t, err)
	m.SetCatalog(cat)
	return viewOf(m.Snapshot())
}

func TestChapterCacheWarmStartReadsNothingAgain(t *testing.T) {
	root := newProject(t, cachedBook())
	file := filepath.Join(t.TempDir(), "chapters.bin")
	cat := bookCatalog(t)
	openCached(t, root, file, cat)

	warm := openCached(t, root, file, cat)
	snap := warm.Snapshot()
	assert.Equal(t, coldView(t, root, cat), viewOf(snap))
	// Every chapter came from the cache: no reading of its Markdown, no
	// scan; the first start's snapshot cache is replaced after a save,
	// so look at the one read at start through a fresh opening.
	again, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	c := again.Snapshot().cache
	require.NotNil(t, c)
	assert.EqualValues(t, 3, c.hits.Load(), "chapters read from the cache")
	again.SetCatalog(cat)
	assert.EqualValues(t, 3, c.scans.Load(), "scans taken from the cache")
	assert.Equal(t, coldView(t, root, cat), viewOf(again.Snapshot()))
}

func TestChapterCacheBookChangedOffline(t *testing.T) {
	extra := catalogOf(t,
		"codex/mara.md", "name: Mara Vell\naliases: [Mara]",
		"codex/ilse.md", "name: Ilse Dorn\naliases: [Ilse]",
		"codex/gull.md", "type: location\nname: Gull Rock",
		"codex/twin-a.md", "name: Ada Pell\naliases: [the Twins]",
		"codex/twin-b.md", "name: Ida Pell\naliases: [the Twins]",
		"codex/orrin.md", "name: Orrin Thale",
	)
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		cat    func(t *testing.T) *codex.Catalog
		// hits and scans are the chapters the warm start takes from the
		// cache.
		hits, scans int64
	}{
		{name: "chapter edited", change: func(t *testing.T, root string) {
			writeFile(t, root, "manuscript/02-storm.md", "---\nday: 3\n---\n# Storm Again\n\nGull Rock stood. Mara slept.\n")
		}, hits: 2, scans: 2},
		{name: "chapter edited, same size", change: func(t *testing.T, root string) {
			// Same size, and the same modification time to the second.
			info, err := os.Stat(filepath.Join(root, "manuscript/03-calm.md"))
			require.NoError(t, err)
			writeFile(t, root, "manuscript/03-calm.md", "# Calm\n\nMara is here\n")
			require.NoError(t, os.Chtimes(filepath.Join(root, "manuscript/03-calm.md"), info.ModTime(), info.ModTime()))
		}, hits: 2, scans: 2},
		{name: "chapter added", change: func(t *testing.T, root string) {
			writeFile(t, root, "manuscript/02b-lull.md", "# Lull\n\nIlse Dorn rested.\n")
		}, hits: 3, scans: 3},
		{name: "chapter deleted", change: func(t *testing.T, root string) {
			removeFile(t, root, "manuscript/01-harbor.md")
		}, hits: 2, scans: 2},
		{name: "chapter renamed", change: func(t *testing.T, root string) {
			require.NoError(t, os.Rename(filepath.Join(root, "manuscript/03-calm.md"), filepath.Join(root, "manuscript/04-calm.md")))
		}, hits: 2, scans: 2},
		{name: "codex name added", cat: func(t *testing.T) *codex.Catalog { return extra }, hits: 3, scans: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, cachedBook())
			file := filepath.Join(t.TempDir(), "chapters.bin")
			openCached(t, root, file, bookCatalog(t))
			cat := bookCatalog(t)
			if tt.change != nil {
				tt.change(t, root)
			}
			if tt.cat != nil {
				cat = tt.cat(t)
			}
			m, err := Open(context.Background(), root, Options{ChapterCache: file})
			require.NoError(t, err)
			c := m.Snapshot().cache
			m.SetCatalog(cat)
			assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))
			assert.Equal(t, tt.hits, c.hits.Load(), "chapters read from the cache")
			assert.Equal(t, tt.scans, c.scans.Load(), "scans taken from the cache")

			// What the warm start saves serves the next one whole.
			require.NoError(t, m.SaveCache())
			next, err := Open(context.Background(), root, Options{ChapterCache: file})
			require.NoError(t, err)
			next.SetCatalog(cat)
			assert.Equal(t, coldView(t, root, cat), viewOf(next.Snapshot()))
			assert.Equal(t, int64(len(next.Snapshot().Units())), next.Snapshot().cache.scans.Load())
		})
	}
}

// A start that answers first (Options.CheckAfter) takes a chapter's
// record by its file's size and time: a chapter a sync tool rewrote
// keeping both is shown as it was until Verify hashes it, and then as it
// is; every other change is seen at once, as without CheckAfter.
func TestChapterCacheCheckAfterVerifies(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		// stale says the opening shows the chapter as it was, until
		// Verify.
		stale bool
	}{
		{name: "nothing changed"},
		{name: "chapter edited", change: func(t *testing.T, root string) {
			writeFile(t, root, "manuscript/02-storm.md", "# Storm Again\n\nGull Rock stood. Mara slept.\n")
		}},
		{name: "chapter edited, same size and time", stale: true, change: func(t *testing.T, root string) {
			info, err := os.Stat(filepath.Join(root, "manuscript/03-calm.md"))
			require.NoError(t, err)
			writeFile(t, root, "manuscript/03-calm.md", "# Calm\n\nMara is here\n")
			require.NoError(t, os.Chtimes(filepath.Join(root, "manuscript/03-calm.md"), info.ModTime(), info.ModTime()))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, cachedBook())
			file := filepath.Join(t.TempDir(), "chapters.bin")
			cat := bookCatalog(t)
			openCached(t, root, file, cat)
			if tt.change != nil {
				tt.change(t, root)
			}
			m, err := Open(context.Background(), root, Options{ChapterCache: file, CheckAfter: true})
			require.NoError(t, err)
			m.SetMatcherAtOpen(NewMatcher(cat))
			cold := coldView(t, root, cat)
			if tt.stale {
				assert.NotEqual(t, cold, viewOf(m.Snapshot()), "the opening shows the chapter as the cache had it")
			} else {
				assert.Equal(t, cold, viewOf(m.Snapshot()))
			}
			assert.True(t, m.Unverified())
			paused := 0
			again, err := m.Verify(context.Background(), func(context.Context) error { paused++; return nil })
			require.NoError(t, err)
			assert.Equal(t, cold, viewOf(m.Snapshot()), "after Verify the book is as it is on disk")
			assert.False(t, m.Unverified(), "every chapter is verified")
			assert.Positive(t, paused, "Verify lets requests go first between chapters")
			if tt.stale {
				assert.Equal(t, []string{"manuscript/03-calm.md"}, again)
			} else {
				assert.Empty(t, again)
			}
		})
	}
}

func TestChapterCacheDamagedOrOld(t *testing.T) {
	root := newProject(t, cachedBook())
	cat := bookCatalog(t)
	good := filepath.Join(t.TempDir(), "chapters.bin")
	openCached(t, root, good, cat)
	data, err := os.ReadFile(good)
	require.NoError(t, err)

	older := bytes.Clone(data)
	// The format number follows the magic line; an older quire wrote
	// another (and its checksum over it).
	older[len(chapterCacheMagic)] = chapterCacheFormat + 7
	resum := func(b []byte) []byte { return sealChapterCache(b[:len(b)-crc32.Size]) }
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 0xff
	// A record whose sum matches but whose ranges do not fit the text
	// (a file made to mislead): its chapter is read again.
	hugeCount := append([]byte(chapterCacheMagic), binary.AppendUvarint(nil, chapterCacheFormat)...)
	hugeCount = append(hugeCount, make([]byte, sha256.Size)...)
	hugeCount = binary.AppendUvarint(hugeCount, 1<<62)
	hugeCount = sealChapterCache(hugeCount)

	tests := []struct {
		name string
		data []byte
	}{
		{"older quire", resum(older)},
		{"truncated", data[:len(data)/2]},
		{"empty", nil},
		{"garbage", bytes.Repeat([]byte("\xff\x00quire"), 4096)},
		{"one byte flipped", flipped},
		{"count larger than the file", hugeCount},
		{"trailing bytes", sealChapterCache(append(bytes.Clone(data[:len(data)-crc32.Size]), 1, 2, 3))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "chapters.bin")
			require.NoError(t, os.WriteFile(file, tt.data, 0o644))
			log, buf := debugLogger()
			m, err := Open(context.Background(), root, Options{ChapterCache: file, Logger: log})
			require.NoError(t, err)
			assert.Nil(t, m.Snapshot().cache, "a damaged or old cache is not used")
			assert.Contains(t, buf.String(), "chapter cache not used")
			m.SetCatalog(cat)
			assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))
			// Saving replaces the bad file with a good one.
			require.NoError(t, m.SaveCache())
			c, err := readChapterCache(file)
			require.NoError(t, err)
			assert.Len(t, c.records, 3)
		})
	}
}

func TestChapterCacheRecordNotFittingTextIsReadAgain(t *testing.T) {
	root := newProject(t, cachedBook())
	cat := bookCatalog(t)
	file := filepath.Join(t.TempDir(), "chapters.bin")
	m := openCached(t, root, file, cat)
	c, err := readChapterCache(file)
	require.NoError(t, err)
	// Records whose sums match but whose contents do not fit the text (a
	// file made to mislead): an outline beyond the end, a first mention
	// beyond it, mentions that do not decode.
	c.records["manuscript/02-storm.md"].meta.Body.End = 1 << 20
	c.records["manuscript/03-calm.md"].counts = []EntryCount{{Entry: "codex/mara.md", Count: 1, First: codex.Range{Start: 1 << 19, End: 1<<19 + 4}}}
	c.records["manuscript/01-harbor.md"].raw = []byte{0xff, 0xff}
	for _, r := range c.records {
		r.names = nil
	}
	data, err := encodeChapterCache(c.matcher, m.Snapshot().Mentions().Matcher().ids, c.records)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, data, 0o644))

	warm, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	warm.SetCatalog(cat)
	assert.Equal(t, coldView(t, root, cat), viewOf(warm.Snapshot()))
	assert.EqualValues(t, 2, warm.Snapshot().cache.hits.Load(), "outlines taken from the cache")
	// The storm's scan still holds (its outline did not); the harbor's
	// counts are taken, and its mentions, which do not decode, are found
	// by scanning its text when asked (the view above asks).
	assert.EqualValues(t, 2, warm.Snapshot().cache.scans.Load(), "scans taken from the cache")
}

func TestChapterCacheLeavesOutEditorText(t *testing.T) {
	root := newProject(t, cachedBook())
	cat := bookCatalog(t)
	file := filepath.Join(t.TempDir(), "chapters.bin")
	m := openCached(t, root, file, cat)
	require.NoError(t, m.OpenDocument(context.Background(), "manuscript/03-calm.md", "# Calm\n\nMara came, unsaved.\n", 4))
	require.NoError(t, m.SaveCache())
	c, err := readChapterCache(file)
	require.NoError(t, err)
	assert.NotContains(t, c.records, "manuscript/03-calm.md", "the editor's unsaved text is not the file's")
	assert.Contains(t, c.records, "manuscript/01-harbor.md")
}

func TestChapterCacheSizeLimit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "chapters.bin")
	f, err := os.Create(file)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(maxChapterCacheBytes+1))
	require.NoError(t, f.Close())
	_, err = readChapterCache(file)
	require.ErrorContains(t, err, "size limit")
}

// After a save, the snapshot's cache is the one just written: a new
// matcher of the same names and a chapter changed while quire runs
// (what the language server and `quire mcp` meet) use it.
func TestChapterCacheInUseAfterSave(t *testing.T) {
	root := newProject(t, cachedBook())
	cat := bookCatalog(t)
	file := filepath.Join(t.TempDir(), "chapters.bin")
	openCached(t, root, file, cat)
	m := openCached(t, root, file, cat)

	before := m.Snapshot().cache.scans.Load()
	found := m.Snapshot().Mentions().units
	m.SetCatalog(cat)
	assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))
	assert.EqualValues(t, 0, m.Snapshot().cache.scans.Load()-before, "a new matcher of the same names rescans nothing")
	for path, um := range m.Snapshot().Mentions().units {
		assert.Same(t, found[path], um, "%s: its mentions are kept, not even read again from the cache", path)
	}

	writeFile(t, root, "manuscript/02-storm.md", "# Storm\n\nGull Rock, then Ilse Dorn.\n")
	changed, err := m.Refresh(context.Background(), []string{"manuscript/02-storm.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))

	// A save that wrote the file: the snapshot's cache is now the one
	// written, holding the index's own records.
	read := m.Snapshot().cache
	require.NoError(t, m.SaveCache())
	require.NotSame(t, read, m.Snapshot().cache)
	before = m.Snapshot().cache.scans.Load()
	m.SetCatalog(cat)
	assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))
	assert.EqualValues(t, 0, m.Snapshot().cache.scans.Load()-before)

	next, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	next.SetCatalog(cat)
	assert.Equal(t, coldView(t, root, cat), viewOf(next.Snapshot()))
	assert.EqualValues(t, 3, next.Snapshot().cache.scans.Load())
}

// A file that claims the current name set but numbers the entries
// otherwise (made to mislead) is not used for counts.
func TestChapterCacheTableMustMatchTheNames(t *testing.T) {
	root := newProject(t, cachedBook())
	cat := bookCatalog(t)
	file := filepath.Join(t.TempDir(), "chapters.bin")
	m := openCached(t, root, file, cat)
	c, err := readChapterCache(file)
	require.NoError(t, err)
	ids := slices.Clone(m.Snapshot().Mentions().Matcher().ids)
	ids[0] = "codex/a-stranger.md"
	slices.Sort(ids)
	data, err := encodeChapterCache(c.matcher, ids, c.records)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, data, 0o644))

	warm, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	warm.SetCatalog(cat)
	assert.Equal(t, coldView(t, root, cat), viewOf(warm.Snapshot()))
	assert.Zero(t, warm.Snapshot().cache.scans.Load())
}

// A warm start names entries by the matcher's own ID strings, not by the
// copies decoded from the file (in a series, the IDs the books share),
// and finds what a cold start finds; the cache read at start is left as
// it was, for snapshots that still hold it.
func TestChapterCacheSharesTheMatchersIDs(t *testing.T) {
	root := newProject(t, cachedBook())
	file := filepath.Join(t.TempDir(), "chapters.bin")
	cat := bookCatalog(t)
	openCached(t, root, file, cat)

	warm, err := Open(context.Background(), root, Options{ChapterCache: file})
	require.NoError(t, err)
	read := warm.Snapshot().cache
	require.NotNil(t, read)
	decoded := map[string][]EntryCount{}
	for path, r := range read.records {
		decoded[path] = slices.Clone(r.counts)
	}
	matcher := NewMatcher(cat)
	warm.SetMatcher(matcher)
	snap := warm.Snapshot()
	assert.Equal(t, coldView(t, root, cat), viewOf(snap))
	assert.EqualValues(t, 3, read.scans.Load(), "scans taken from the cache")

	shared := map[*byte]bool{}
	for _, id := range matcher.ids {
		shared[unsafe.StringData(id)] = true
	}
	require.NotEmpty(t, matcher.ids)
	assert.Same(t, &matcher.ids[0], &snap.cache.table[0], "the cache's table is the matcher's")
	counted := 0
	for _, path := range []string{"manuscript/01-harbor.md", "manuscript/02-storm.md"} {
		counts := snap.Mentions().InUnit(path)
		require.NotEmpty(t, counts, path)
		for _, c := range counts {
			assert.True(t, shared[unsafe.StringData(c.Entry)], "%s: %s is the matcher's string", path, c.Entry)
			counted++
		}
		for _, c := range snap.cache.records[path].counts {
			assert.True(t, shared[unsafe.StringData(c.Entry)], "%s: the cache's %s is the matcher's string", path, c.Entry)
		}
	}
	assert.Positive(t, counted)
	for path, r := range read.records {
		assert.Equal(t, decoded[path], r.counts, "%s: the cache read at start is unchanged", path)
		for i, c := range r.counts {
			assert.Same(t, unsafe.StringData(decoded[path][i].Entry), unsafe.StringData(c.Entry))
		}
	}
}

// sealChapterCache ends body with its checksum, as encodeChapterCache
// does.
func sealChapterCache(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
}
