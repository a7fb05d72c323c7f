package manuscript

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// allocated is how many bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// repeatedKeys is a codex entry whose front matter repeats one key n
// times, the shape that once made the server run out of memory on start.
func repeatedKeys(n int) string {
	return "---\ntype: character\nname: U\n" + strings.Repeat("x: y\n", n) + "---\n# One\n"
}

// TestNewUnitRepeatedKeysLinear reads front matter with thousands of
// repeated keys as a document: the cost must grow with the text, not with
// the square of its keys. Allocations are compared, never time.
func TestNewUnitRepeatedKeysLinear(t *testing.T) {
	small := allocated(func() { NewUnit("codex/characters/u.md", repeatedKeys(1000), 0) })
	large := allocated(func() { NewUnit("codex/characters/u.md", repeatedKeys(4000), 0) })
	t.Logf("1,000 keys: %d bytes; 4,000 keys: %d bytes", small, large)
	assert.Less(t, float64(large)/float64(small), 6.0, "four times the keys must cost about four times the memory")

	// The 40 KB entry of the report: a bounded cost, and it still has a title.
	text := repeatedKeys(8000)
	var u *Unit
	bytes := allocated(func() { u = NewUnit("codex/characters/u.md", text, 0) })
	require.NotNil(t, u)
	assert.Equal(t, "One", u.Title)
	assert.Less(t, bytes, uint64(200*len(text)), "%d bytes allocated for a %d-byte file", bytes, len(text))
}

func TestFrontMatterTitleFirstWins(t *testing.T) {
	u := NewUnit("manuscript/01-x.md", "---\ntitle: First\npov: A\npov: B\ntitle: Second\n---\n# Heading\n", 0)
	assert.Equal(t, "First", u.Title, "repeated keys do not cost the chapter its title")
}

// TestConfigRepeatedKeysLinear: the manuscript globs of a quire.yaml of
// thousands of repeated keys are read at linear cost.
func TestConfigRepeatedKeysLinear(t *testing.T) {
	yamlOf := func(n int) []byte { return []byte("manuscript: [chapters/*.md]\n" + strings.Repeat("x: y\n", n)) }
	var globs []string
	var err error
	small := allocated(func() { _, err = GlobsFromText(yamlOf(1000)) })
	require.NoError(t, err)
	large := allocated(func() { globs, err = GlobsFromText(yamlOf(4000)) })
	require.NoError(t, err)
	assert.Equal(t, []string{"chapters/*.md"}, globs)
	t.Logf("1,000 keys: %d bytes; 4,000 keys: %d bytes", small, large)
	assert.Less(t, float64(large)/float64(small), 6.0)

	globs, err = GlobsFromText([]byte("manuscript:\n"))
	require.NoError(t, err)
	assert.Nil(t, globs, "nothing set: the default globs apply")
}

// TestScanLongWordBounded: one word of megabytes in a chapter is passed
// over by mention detection without being copied, whatever its letters.
func TestScanLongWordBounded(t *testing.T) {
	e, _ := codex.Parse("codex/characters/m.md", []byte("---\nname: Mara Vell\naliases: [Mara]\n---\n"), codex.TypeCharacter)
	m := NewMatcher(codex.NewCatalog([]*codex.Entry{e}, nil))
	for name, word := range map[string]string{
		"ascii":      strings.Repeat("a", 4<<20),
		"capital":    "A" + strings.Repeat("a", 4<<20),
		"accented":   strings.Repeat("é", 2<<20),
		"apostrophe": strings.Repeat("a’", 1<<20),
	} {
		t.Run(name, func(t *testing.T) {
			text := "Mara said " + word + " to Mara Vell.\n"
			var found []Mention
			bytes := allocated(func() { found = m.Scan(text) })
			require.Len(t, found, 2, "the names on either side of the word are found")
			assert.Less(t, bytes, uint64(len(text)/8), "%d bytes allocated to scan %d", bytes, len(text))
		})
	}
}
