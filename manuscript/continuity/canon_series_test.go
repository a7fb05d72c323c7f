package continuity

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// A book of a series reads the series' names from the map its books
// share, and finds exactly the entries a canon of the merged catalog
// read on its own finds, in the same order, overridden entries left out.
func TestSeriesCanonNamesAsMerged(t *testing.T) {
	names := []string{"Mara", "Vell", "Mara Vell", "Port Caddow", "the Tide", "Jory", "Hope"}
	types := []codex.Type{codex.TypeCharacter, codex.TypeLocation}
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 16))
		entry := func(id string) *codex.Entry {
			e := &codex.Entry{ID: id, Type: types[r.IntN(2)], Name: names[r.IntN(len(names))], Mentions: true}
			for range r.IntN(3) {
				e.Aliases = append(e.Aliases, names[r.IntN(len(names))])
			}
			return e
		}
		var series, book []*codex.Entry
		for i := range 2 + r.IntN(12) {
			series = append(series, entry(fmt.Sprintf("s%d.md", i)))
		}
		for i := range 1 + r.IntN(5) {
			book = append(book, entry(fmt.Sprintf("b%d.md", i)))
		}
		shared := codex.NewSeriesCatalogs(filepath.FromSlash("/series"))
		merged := shared.Merge(filepath.FromSlash("/book"), codex.NewCatalog(book, nil), codex.NewCatalog(series, nil)).Catalog
		_, ok := merged.SeriesLayer()
		require.True(t, ok)
		layered, flat := NewCanon(merged, Options{}), NewCanon(codex.NewCatalog(merged.All(), nil), Options{})
		require.NotNil(t, layered.series)
		require.Nil(t, flat.series)
		for _, n := range append(names, "Mara's", "nobody") {
			require.Equal(t, flat.Named(n), layered.Named(n), "seed %d name %q", seed, n)
		}
	}
}
