package namebench

import (
	"cmp"
	"hash/fnv"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeldOutSplit holds the split of the excerpts: the frozen list is
// what its rule draws from the data (the 30 titles of lowest FNV-1a
// hash, so nobody picked them), every held-out excerpt is in the data,
// and the two parts are disjoint and make up the set.
func TestHeldOutSplit(t *testing.T) {
	set, err := Load("testdata/litbank.json.gz")
	require.NoError(t, err)
	var titles []string
	for _, n := range set.Novels {
		titles = append(titles, n.Title)
	}
	hash := func(title string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(title))
		return h.Sum64()
	}
	drawn := slices.Clone(titles)
	slices.SortStableFunc(drawn, func(a, b string) int { return cmp.Compare(hash(a), hash(b)) })
	drawn = drawn[:30]
	slices.Sort(drawn)
	assert.Equal(t, drawn, heldOut, "the frozen list is the one its rule draws")

	dev, held := set.Split()
	assert.Len(t, held, 30)
	assert.Len(t, dev, 70)
	seen := map[string]int{}
	for _, n := range held {
		assert.True(t, n.HeldOut())
		assert.Contains(t, heldOut, n.Title)
		seen[n.Title]++
	}
	for _, n := range dev {
		assert.False(t, n.HeldOut())
		assert.NotContains(t, heldOut, n.Title)
		seen[n.Title]++
	}
	for _, title := range titles {
		assert.Equal(t, 1, seen[title], "%s is in one part exactly", title)
	}
	again, heldAgain := set.Split()
	assert.Equal(t, dev, again, "the split is the same every time")
	assert.Equal(t, held, heldAgain)
}
