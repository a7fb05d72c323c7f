package codex

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type earlyKey struct{}

// What Early begins from a series' saved state is handed on only to the
// series catalog made from a store catalog of exactly those entries, in
// that order: its copies become the catalog's entries, and its derived
// values the first answer of Shared. Anything else, a changed series or
// a derivation that panicked, is made again.
func TestSeriesEarlyIsTakenOnlyForTheSameEntries(t *testing.T) {
	root := unixAbs("/books/tideward")
	series := catalogOf(t, seriesFiles)
	other := catalogOf(t, map[string]string{"codex/characters/ilse.md": seriesFiles["codex/characters/ilse.md"]})
	tests := []struct {
		name    string
		entries []*Entry
		derive  func([]*Entry) any
		// copies says the early copies are taken; want is Shared's answer.
		copies bool
		want   string
	}{
		{name: "the same entries", entries: series.All(), derive: func([]*Entry) any { return "early" }, copies: true, want: "early"},
		{name: "an entry changed offline", entries: other.All(), derive: func([]*Entry) any { return "early" }, want: "built"},
		{name: "another order", entries: reversed(series.All()), derive: func([]*Entry) any { return "early" }, want: "built"},
		{name: "a derivation that panicked", entries: series.All(), derive: func([]*Entry) any { panic("boom") }, copies: true, want: "built"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := NewSeriesCatalogs(root)
			var derivedFrom []*Entry
			sc.Early(tt.entries, map[any]func([]*Entry) any{earlyKey{}: func(copies []*Entry) any {
				derivedFrom = copies
				return tt.derive(copies)
			}})
			m := sc.Merge(unixAbs("/books/one"), catalogOf(t, nil), series)
			abs, ok := m.Catalog.SeriesLayer()
			require.True(t, ok)
			got := abs.Series.Shared(earlyKey{}, func() any { return "built" })
			assert.Equal(t, tt.want, got)
			require.Len(t, abs.Series.All(), len(series.All()))
			for i, e := range abs.Series.All() {
				assert.Equal(t, filepath.Join(root, filepath.FromSlash(series.All()[i].ID)), e.ID, "the copies are at absolute IDs")
				if tt.copies {
					assert.Same(t, derivedFrom[i], e, "the early copies are the catalog's entries")
				}
			}
			again := abs.Series.Shared(earlyKey{}, func() any { return "built again" })
			assert.Equal(t, got, again, "made once")
		})
	}
}

// Early after the first merge has nothing to give: it is ignored.
func TestSeriesEarlyAfterAMerge(t *testing.T) {
	series := catalogOf(t, seriesFiles)
	sc := NewSeriesCatalogs(unixAbs("/books/tideward"))
	m := sc.Merge(unixAbs("/books/one"), catalogOf(t, nil), series)
	called := false
	sc.Early(series.All(), map[any]func([]*Entry) any{earlyKey{}: func([]*Entry) any { called = true; return "early" }})
	l, _ := m.Catalog.SeriesLayer()
	assert.Equal(t, "built", l.Series.Shared(earlyKey{}, func() any { return "built" }))
	assert.False(t, called)
}

func reversed(es []*Entry) []*Entry {
	out := slices.Clone(es)
	slices.Reverse(out)
	return out
}
