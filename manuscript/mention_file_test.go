package manuscript

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// A matcher read back from its file is the matcher a build of the same
// entries makes, field for field, and finds the same mentions.
func TestMatcherFileRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var random []*codex.Entry
	for i := range 400 {
		random = append(random, randomEntry(r, fmt.Sprintf("characters/r%03d.md", i)))
	}
	// A title before many names gives a node more children than a list
	// holds (fewEdges): it keeps them in a map.
	var titled []*codex.Entry
	for i := range 3 * fewEdges {
		titled = append(titled, &codex.Entry{ID: fmt.Sprintf("people/p%02d.md", i), Type: codex.TypeCharacter, Name: fmt.Sprintf("Mr. Name%c%c", 'A'+i%26, 'a'+i/26), Mentions: true})
	}
	tests := []struct {
		name    string
		entries []*codex.Entry
		text    string
	}{
		{name: "no entries", text: "Nobody at all."},
		{name: "random names", entries: random, text: randomPhrase(r) + " met " + randomPhrase(r) + ". " + random[3].Name + " and " + random[9].Name + "."},
		{name: "many under a title", entries: titled, text: "Mr. NameAa saw Mr. NameCa and Mr. Nameb."},
	}
	for i, seed := range fuzzSeeds {
		tests = append(tests, struct {
			name    string
			entries []*codex.Entry
			text    string
		}{name: fmt.Sprintf("seed %d", i), entries: fuzzCatalog(seed.name, seed.alias, seed.other, seed.exclude).All(), text: seed.text})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "names.bin")
			built := NewMatcherOf(tt.entries)
			require.False(t, SavedMatcherIs(path, built))
			require.NoError(t, SaveMatcher(path, built))
			assert.True(t, SavedMatcherIs(path, built))
			read, err := ReadMatcher(path, tt.entries)
			require.NoError(t, err)
			assert.Equal(t, built, read)
			assert.Equal(t, built.ScanAll(tt.text), read.ScanAll(tt.text))
		})
	}
}

// A file of other names, of another format, damaged or missing is not
// taken: ReadMatcher says which, and a session saves its matcher again.
func TestMatcherFileNotTaken(t *testing.T) {
	entries := fuzzCatalog("Mara Vell", "Mara", "Hope", "Hope Street").All()
	path := filepath.Join(t.TempDir(), "names.bin")
	_, err := ReadMatcher(path, entries)
	require.ErrorIs(t, err, fs.ErrNotExist)

	m := NewMatcherOf(entries)
	require.NoError(t, SaveMatcher(path, m))
	good, err := os.ReadFile(path)
	require.NoError(t, err)

	changed := fuzzCatalog("Mara Vell", "Mara", "Hope", "Hope Lane").All()
	_, err = ReadMatcher(path, changed)
	require.ErrorIs(t, err, ErrMatcherStale, "an exclusion changed")
	assert.False(t, SavedMatcherIs(path, NewMatcherOf(changed)))

	damaged := map[string][]byte{
		"a byte flipped":  flipByte(good, len(good)/2),
		"cut short":       good[:len(good)-9],
		"empty":           {},
		"another file":    []byte("quire chapter cache\n"),
		"sealed but torn": sealChapterCache(good[:len(good)/2]),
	}
	for name, data := range damaged {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, data, 0o644))
			_, err := ReadMatcher(path, entries)
			require.Error(t, err)
			assert.False(t, SavedMatcherIs(path, m), "a damaged file is saved again")
		})
	}

	// Another format, of the file or of the chapter cache (whose bump
	// says scans find other things), is stale whatever the file holds.
	for i, formats := range [][2]uint64{{matcherFileFormat + 1, chapterCacheFormat}, {matcherFileFormat, chapterCacheFormat + 1}} {
		other := append([]byte(matcherFileMagic), byte(formats[0]), byte(formats[1]))
		other = sealChapterCache(append(other, good[len(other):len(good)-crc32.Size]...))
		require.NoError(t, os.WriteFile(path, other, 0o644))
		_, err = ReadMatcher(path, entries)
		require.ErrorIs(t, err, ErrMatcherStale, "format %d", i)
	}
}

// A book's matcher laid over its series' is not saved: its trie holds
// the book's own names only.
func TestMatcherFileLeavesSeriesOut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := NewMatcher(randomSeriesBook(r))
	require.NotNil(t, m.layer)
	path := filepath.Join(t.TempDir(), "names.bin")
	require.NoError(t, SaveMatcher(path, m))
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// randomSeriesBook is a book's catalog merged over its series'.
func randomSeriesBook(r *rand.Rand) *codex.Catalog {
	shared := codex.NewSeriesCatalogs(filepath.FromSlash("/series"))
	_, book := randomSeries(r, shared, 20, 5)
	return book
}

func writeTemp(t *testing.T, data []byte) string {
	path := filepath.Join(t.TempDir(), "names.bin")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

func flipByte(data []byte, i int) []byte {
	out := append([]byte(nil), data...)
	out[i] ^= 0x5a
	return out
}

// FuzzMatcherFile decodes arbitrary files, sealed with their checksum and
// holding the version of the entries at hand so that the fuzzer reaches
// the trie itself: no panic, and a trie that decodes scans text in
// bounded time as a built one does.
func FuzzMatcherFile(f *testing.F) {
	entries := fuzzCatalog("Mara Vell", "Mara", "Hope", "Hope Street").All()
	m := NewMatcherOf(entries)
	good, ok := m.encodeTrie()
	require.True(f, ok)
	_, head, err := matcherFileVersion(good)
	require.NoError(f, err)
	body := good[head : len(good)-crc32.Size]
	f.Add(body, false)
	f.Add(body[:len(body)/2], false)
	f.Add([]byte{}, false)
	f.Add([]byte{0, 0, 1, 0, 0, 0, 0, 0}, false)
	f.Add(good[:head], true)
	f.Add(good[:head+3], true)
	// whole says body is the whole file but for its checksum, head and
	// all; else it follows a head of the right version.
	f.Fuzz(func(t *testing.T, body []byte, whole bool) {
		data := append(append([]byte(nil), good[:head]...), body...)
		if whole {
			data = append([]byte(nil), body...)
		}
		data = binary.LittleEndian.AppendUint32(data, crc32.ChecksumIEEE(data))
		read := &Matcher{}
		read.identify(entries)
		err := read.decodeTrie(data)
		if SavedMatcherIs(writeTemp(t, data), m) != (err == nil) {
			t.Fatalf("SavedMatcherIs disagrees with decodeTrie (%v)", err)
		}
		if err != nil {
			return
		}
		for _, seed := range fuzzSeeds {
			for _, mn := range read.ScanAll(seed.text) {
				if mn.Range.Start < 0 || mn.Range.End > len(seed.text) || mn.Range.Start > mn.Range.End {
					t.Fatalf("mention %v outside the text", mn.Range)
				}
			}
		}
	})
}

// SaveCache writes the names file once for a set of names, and not at
// all for names the opening read from it (MatcherSaved).
func TestSaveCacheWritesTheNamesOnce(t *testing.T) {
	cat := fuzzCatalog("Mara Vell", "Mara", "Hope", "Hope Street")
	root := newProject(t, projectFiles{"manuscript/01.md": chapterText("One", "Mara Vell came to Hope Street.")})
	for _, read := range []bool{false, true} {
		t.Run(fmt.Sprintf("read at the opening %v", read), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "names.bin")
			ms := openProject(t, root, Options{MatcherCache: path})
			m := NewMatcher(cat)
			if read {
				ms.MatcherSaved(m)
			}
			ms.SetMatcher(m)
			require.NoError(t, ms.SaveCache())
			if read {
				assert.NoFileExists(t, path, "the opening said the file holds these names")
				return
			}
			assert.True(t, SavedMatcherIs(path, m))
			require.NoError(t, os.WriteFile(path, []byte("written since"), 0o644))
			require.NoError(t, ms.SaveCache())
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, "written since", string(got), "known saved: not checked again")
		})
	}
}
