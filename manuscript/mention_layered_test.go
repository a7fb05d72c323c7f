package manuscript

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// layeredWords are few, so that series and book names share words,
// prefixes of one another, and common words that need a capital.
var layeredWords = []string{"Mara", "Vell", "Hope", "Port", "Caddow", "the", "Tide", "Jory", "O'Brien", "Street", "hope", "Séverine", "St.", "Agnes", "Ka\xffi", "Вронский", "Вронского", "Анна", "Анны", "Каренина", "Каренин"}

func randomPhrase(r *rand.Rand) string {
	n := 1 + r.IntN(3)
	words := make([]string, n)
	for i := range words {
		words[i] = layeredWords[r.IntN(len(layeredWords))]
	}
	return strings.Join(words, " ")
}

func randomEntry(r *rand.Rand, id string) *codex.Entry {
	e := &codex.Entry{ID: id, Type: codex.TypeCharacter, Name: randomPhrase(r), Mentions: r.IntN(10) > 0}
	for range r.IntN(3) {
		e.Aliases = append(e.Aliases, randomPhrase(r))
	}
	if r.IntN(4) == 0 {
		e.Exclude = append(e.Exclude, randomPhrase(r))
	}
	return e
}

// randomSeries makes a series of n entries and a book of m entries, some
// of which override series entries by name (with their own aliases,
// exclusions and mentions setting), merged as the books of a series are.
func randomSeries(r *rand.Rand, shared *codex.SeriesCatalogs, n, m int) (*codex.Catalog, *codex.Catalog) {
	var series, book []*codex.Entry
	for i := range n {
		series = append(series, randomEntry(r, fmt.Sprintf("characters/s%d.md", i)))
	}
	for i := range m {
		e := randomEntry(r, fmt.Sprintf("characters/b%d.md", i))
		if r.IntN(2) == 0 {
			e.Name = series[r.IntN(n)].Name
		}
		book = append(book, e)
	}
	seriesCat := codex.NewCatalog(series, nil)
	return seriesCat, shared.Merge(filepath.FromSlash("/book"), codex.NewCatalog(book, nil), seriesCat).Catalog
}

func randomProse(r *rand.Rand, words int) string {
	var b strings.Builder
	for range words {
		w := layeredWords[r.IntN(len(layeredWords))]
		switch r.IntN(6) {
		case 0:
			w = strings.ToLower(w)
		case 1:
			w += "'s"
		case 2:
			w = strings.ToUpper(w)
		}
		b.WriteString(w)
		b.WriteString([]string{" ", " ", " ", ", ", "\n", "\n\n", ". "}[r.IntN(7)])
	}
	return b.String()
}

// The matcher of a book in a series, laid over the series' shared one,
// finds exactly what a matcher of the merged catalog finds.
func TestLayeredMatcherFindsWhatTheMergedOneFinds(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 19))
		shared := codex.NewSeriesCatalogs(filepath.FromSlash("/series"))
		_, merged := randomSeries(r, shared, 2+r.IntN(30), 1+r.IntN(8))
		l, ok := merged.SeriesLayer()
		require.True(t, ok)
		layered, flat := NewMatcher(merged), NewMatcherOf(merged.All())
		require.NotNil(t, layered.layer, "seed %d", seed)
		require.Nil(t, flat.layer)
		require.Equal(t, flat.version, layered.version, "seed %d", seed)
		require.Equal(t, flat.ids, layered.ids, "seed %d", seed)
		for _, w := range layeredWords {
			key := codex.Normalize(w)
			require.Equal(t, flat.IsNameWord(key), layered.IsNameWord(key), "seed %d word %q hidden %v", seed, key, l.Hidden)
		}
		for range 5 {
			text := randomProse(r, 60)
			require.Equal(t, flat.Scan(text), layered.Scan(text), "seed %d text %q", seed, text)
		}
	}
}

// Every book of a series shares one matcher of the series' entries.
func TestLayeredMatchersShareTheSeries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shared := codex.NewSeriesCatalogs(filepath.FromSlash("/series"))
	var series []*codex.Entry
	for i := range 20 {
		series = append(series, randomEntry(r, fmt.Sprintf("s%d.md", i)))
	}
	seriesCat := codex.NewCatalog(series, nil)
	one := NewMatcher(shared.Merge(filepath.FromSlash("/one"), codex.NewCatalog([]*codex.Entry{randomEntry(r, "a.md")}, nil), seriesCat).Catalog)
	two := NewMatcher(shared.Merge(filepath.FromSlash("/two"), codex.NewCatalog([]*codex.Entry{randomEntry(r, "b.md")}, nil), seriesCat).Catalog)
	require.NotNil(t, one.layer)
	require.Same(t, one.layer.base, two.layer.base)
}

// An override replaces the series entry's forms: its exclusions and
// mentions setting, and the series entry is no longer found.
func TestLayeredMatcherOverride(t *testing.T) {
	seriesCat := codex.NewCatalog([]*codex.Entry{
		{ID: "mara.md", Type: codex.TypeCharacter, Name: "Mara Vell", Aliases: []string{"Mara"}, Exclude: []string{"Mara Street"}, Mentions: true},
		{ID: "port.md", Type: codex.TypeLocation, Name: "Port Caddow", Aliases: []string{"the Port"}, Mentions: true},
		{ID: "vell.md", Type: codex.TypeLocation, Name: "Vell", Mentions: true},
	}, nil)
	book := codex.NewCatalog([]*codex.Entry{
		{ID: "mara.md", Type: codex.TypeCharacter, Name: "Mara Vell", Aliases: []string{"Mara V"}, Mentions: true},
		{ID: "port.md", Type: codex.TypeLocation, Name: "Port Caddow", Mentions: false},
		{ID: "mara-vell-jr.md", Type: codex.TypeCharacter, Name: "Mara Vell Junior", Mentions: true},
	}, nil)
	merged := codex.NewSeriesCatalogs(filepath.FromSlash("/series")).Merge(filepath.FromSlash("/book"), book, seriesCat).Catalog
	layered, flat := NewMatcher(merged), NewMatcherOf(merged.All())
	require.NotNil(t, layered.layer)
	text := "Mara Street. Mara V and Mara Vell met Mara Vell Junior at Port Caddow, by the Port, near Vell."
	require.Equal(t, flat.Scan(text), layered.Scan(text))
	require.NotEmpty(t, layered.Scan(text))
	require.Equal(t, flat.IsNameWord("port"), layered.IsNameWord("port"))
}

// Versions hash each entry's shape as fmt.Sprint wrote it, and its type
// after, which decides its given name.
func TestEntryShapeIsSprints(t *testing.T) {
	for _, e := range []*codex.Entry{
		{},
		{Mentions: true, Aliases: []string{"a", "b"}, Type: codex.TypeCharacter},
		{Exclude: make([]string, 12), Aliases: make([]string, 101), Type: codex.TypeLocation},
	} {
		require.Equal(t, fmt.Sprint(e.Mentions, len(e.Aliases), len(e.Exclude))+" "+string(e.Type), string(appendEntryShape(nil, e)))
	}
}

// A matcher with one entry more, made for counting what an untracked
// name's entry would find, finds what a matcher of the whole catalog
// with that entry finds: laid over a book's matcher or, for a book of a
// series, made again over the series'.
func TestWithEntryFindsWhatTheCatalogWithItFinds(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 23))
		var entries []*codex.Entry
		if seed%2 == 0 {
			shared := codex.NewSeriesCatalogs(filepath.FromSlash("/series"))
			_, merged := randomSeries(r, shared, 2+r.IntN(30), 1+r.IntN(8))
			checkWithEntry(t, r, NewMatcher(merged), merged.All(), seed)
			continue
		}
		for i := range 1 + r.IntN(20) {
			entries = append(entries, randomEntry(r, fmt.Sprintf("characters/e%d.md", i)))
		}
		checkWithEntry(t, r, NewMatcherOf(entries), entries, seed)
	}
}

func checkWithEntry(t *testing.T, r *rand.Rand, m *Matcher, entries []*codex.Entry, seed uint64) {
	t.Helper()
	e := randomEntry(r, whatIfID)
	e.Mentions = true
	with, flat := m.withEntry(e), NewMatcherOf(append(entries[:len(entries):len(entries)], e))
	for _, w := range layeredWords {
		key := codex.Normalize(w)
		require.Equal(t, flat.IsNameWord(key), with.IsNameWord(key), "seed %d word %q", seed, key)
	}
	for range 5 {
		text := randomProse(r, 60)
		require.Equal(t, flat.Scan(text), with.Scan(text), "seed %d entry %+v text %q", seed, e, text)
	}
}
