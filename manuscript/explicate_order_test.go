package manuscript

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExplicateOrdersTiesByPathThenPosition: passages that score the same
// come in the order of their chapters' paths, then of their place in the
// chapter, however the index was filled.
func TestExplicateOrdersTiesByPathThenPosition(t *testing.T) {
	var units []*Unit
	for i := range 30 {
		// Two tied paragraphs in every chapter.
		units = append(units, NewUnit(filepathOf(i), "# Tide\n\nThe tide came in over the salt flats.\n\nThe tide came in over the salt flats.\n", 0))
	}
	var first []Passage
	for run := range 5 {
		shuffled := slices.Clone(units)
		rng := rand.New(rand.NewPCG(uint64(run), 7))
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// A fresh index every run, as a fresh cache would be.
		p := openMemoryPassages(t)
		syncUnits(t, p, shuffled)
		ex := explicate(t, p, "tide over the salt flats", ExplicateOptions{Limit: 10})
		require.Len(t, ex.Passages, 10)
		for i := 1; i < len(ex.Passages); i++ {
			a, b := ex.Passages[i-1], ex.Passages[i]
			require.Equal(t, a.Score, b.Score, "the passages tie")
			assert.True(t, a.Path < b.Path || a.Path == b.Path && a.Range.Start < b.Range.Start,
				"run %d: %s@%d before %s@%d", run, a.Path, a.Range.Start, b.Path, b.Range.Start)
		}
		assert.Equal(t, filepathOf(0), ex.Passages[0].Path)
		if run == 0 {
			first = ex.Passages
			continue
		}
		assert.Equal(t, first, ex.Passages, "run %d orders as the first", run)
	}
}
