package codex

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/codex/settings"
)

// catalogOf parses files (path → text) into a catalog, as a store would.
func catalogOf(t *testing.T, files map[string]string) *Catalog {
	t.Helper()
	var entries []*Entry
	for id, src := range files {
		e, _ := Parse(id, []byte(src), TypeCharacter)
		require.NotNil(t, e, id)
		entries = append(entries, e)
	}
	return NewCatalog(entries, nil)
}

var seriesFiles = map[string]string{
	"codex/characters/mara.md": entryMD("type: character\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler of the Tideward coast.\nrole: Protagonist\neyes: grey",
		"# Mara Vell\n\nMara grew up on the salt flats.\n"),
	"codex/locations/tideward.md": entryMD("type: location\nname: Tideward\nsummary: The drowned city.", "# Tideward\n\nA city under the sea.\n"),
	"codex/characters/ilse.md":    entryMD("type: character\nname: Ilse Dorn\nsummary: Harbor master.", "# Ilse Dorn\n\nIlse keeps the harbor.\n"),
}

func TestMergeSeries(t *testing.T) {
	bookRoot, seriesRoot := unixAbs("/books/one"), unixAbs("/books/tideward")
	series := catalogOf(t, seriesFiles)
	tests := []struct {
		name string
		book map[string]string
		// want maps an entry name to what the merged entry must hold.
		check func(t *testing.T, m *Merged)
	}{
		{
			name: "series entries join the book, at absolute paths",
			book: map[string]string{"codex/characters/ana.md": entryNamed("Ana Brisk")},
			check: func(t *testing.T, m *Merged) {
				assert.Equal(t, 4, m.Catalog.Len())
				e, ok := m.Catalog.Resolve("Mara")
				require.True(t, ok)
				assert.Equal(t, filepath.Join(seriesRoot, "codex/characters/mara.md"), e.ID)
				src := m.Source(e)
				require.NotNil(t, src)
				assert.Nil(t, src.Book)
				assert.Equal(t, OriginSeries, src.Of("summary"))
				r := m.Result(e)
				assert.Equal(t, CanonSeries, r.Canon)
				assert.Equal(t, seriesRoot, r.ProjectPath)
				assert.Equal(t, "codex/characters/mara.md", r.RelativePath)
				ana, ok := m.Catalog.Resolve("Ana Brisk")
				require.True(t, ok)
				assert.Nil(t, m.Source(ana), "the book's own entry")
				assert.Equal(t, filepath.Join(bookRoot, "codex/characters/ana.md"), m.File(ana, ""))
				assert.Empty(t, m.Catalog.Problems())
			},
		},
		{
			name: "override by overrides: field by field, book wins",
			book: map[string]string{"codex/people/mara-older.md": entryMD("name: Mara Vell-Ashdown\noverrides: Mara Vell\ntype: character\nsummary: Retired smuggler.\neyes: blind", "")},
			check: func(t *testing.T, m *Merged) {
				assert.Equal(t, 3, m.Catalog.Len(), "the series Mara is replaced")
				e, ok := m.Catalog.Resolve("Mara Vell-Ashdown")
				require.True(t, ok)
				assert.Equal(t, "codex/people/mara-older.md", e.ID, "a book override keeps the book's ID")
				assert.Equal(t, "Retired smuggler.", e.Summary)
				assert.Equal(t, []string{"Mara"}, e.Aliases, "aliases the book leaves out come from the series")
				eyes, _ := e.Custom.Get("eyes")
				role, _ := e.Custom.Get("role")
				assert.Equal(t, "blind", eyes)
				assert.Equal(t, "Protagonist", role)
				src := m.Source(e)
				require.NotNil(t, src)
				assert.Equal(t, OriginBook, src.Of("summary"))
				assert.Equal(t, OriginBook, src.Of("eyes"))
				assert.Equal(t, OriginSeries, src.Of("role"))
				assert.Equal(t, OriginSeries, src.Of("aliases"))
				assert.Equal(t, OriginSeries, src.Of("body"), "an empty body is the series'")
				assert.Equal(t, filepath.Join(seriesRoot, "codex/characters/mara.md"), m.File(e, "role"))
				assert.Equal(t, filepath.Join(bookRoot, "codex/people/mara-older.md"), m.File(e, "summary"))
				r := m.lookupResult(Match{Entry: e})
				assert.Equal(t, CanonBookOverSeries, r.Canon)
				assert.Equal(t, []string{"aliases", "body", "role"}, r.SeriesFields)
				assert.Contains(t, r.Excerpt, "salt flats")
				byName, ok := m.Catalog.Resolve("Mara")
				require.True(t, ok)
				assert.Same(t, e, byName)
				assert.Empty(t, m.Catalog.Problems(), "an override that says so is no problem")
			},
		},
		{
			name: "same name without overrides shadows, with a warning on its name",
			book: map[string]string{"codex/characters/tideward.md": entryMD("type: location\nname: Tideward\nstatus: tentative", "# Tideward\n\nIn this book the city has risen.\n")},
			check: func(t *testing.T, m *Merged) {
				e, ok := m.Catalog.Resolve("Tideward")
				require.True(t, ok)
				assert.Equal(t, "codex/characters/tideward.md", e.ID)
				assert.Equal(t, StatusTentative, e.Status)
				assert.Equal(t, "The drowned city.", e.Summary)
				assert.Equal(t, OriginBook, m.Source(e).Of("body"))
				ps := m.Catalog.ProblemsIn(e.ID)
				require.Len(t, ps, 1)
				assert.Equal(t, CodeSeriesShadow, ps[0].Code)
				assert.Equal(t, SeverityWarning, ps[0].Severity)
				assert.Equal(t, e.NameRange, ps[0].Range)
				assert.Equal(t, "Tideward", e.Source[ps[0].Range.Start:ps[0].Range.End])
				assert.Contains(t, ps[0].Message, "overrides: Tideward")
			},
		},
		{
			name: "overrides naming nothing is a problem and replaces nothing",
			book: map[string]string{"codex/characters/x.md": entryMD("name: Ilsa\noverrides: Nobody Here", "")},
			check: func(t *testing.T, m *Merged) {
				assert.Equal(t, 4, m.Catalog.Len())
				ps := m.Catalog.ProblemsIn("codex/characters/x.md")
				require.Len(t, ps, 1)
				assert.Equal(t, CodeSeriesOverrides, ps[0].Code)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, MergeSeries(bookRoot, catalogOf(t, tt.book), seriesRoot, series))
		})
	}
}

func TestMergeSeriesWithoutSeriesIsTheBook(t *testing.T) {
	book := catalogOf(t, map[string]string{"codex/a.md": entryNamed("Ana")})
	m := MergeSeries("/b", book, "", nil)
	assert.Same(t, book, m.Catalog)
	e, _ := book.Resolve("Ana")
	assert.Nil(t, m.Source(e))
}

func TestSeriesFromNode(t *testing.T) {
	tests := []struct {
		yaml, want, err string
	}{
		{yaml: "series: ../tideward\n", want: "../tideward"},
		{yaml: "series: /srv/tideward\n", want: "/srv/tideward"},
		{yaml: "series:\n"},
		{yaml: "title: x\n"},
		{yaml: "series: [a, b]\n", err: "quire.yaml: line 1: series must be the path of the series folder"},
		{yaml: "series: 12\n", err: "line 1: series must be the path"},
		{yaml: "series: ''\n", err: "line 1: series must be the path"},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			l := &settings.Loaded{Book: settings.Parse(settings.Name, []byte(tt.yaml)), User: &settings.File{}}
			got, err := SeriesOf(l)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				line, col := settings.Position(err)
				assert.Equal(t, 1, line)
				assert.Equal(t, 9, col)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	user := settings.Parse("/home/w/.config/quire/config.yaml", []byte("series: ../x\n"))
	_, err := SeriesOf(&settings.Loaded{Book: &settings.File{}, User: user})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config.yaml: line 1: series belongs in a book's quire.yaml")
	assert.Empty(t, (&settings.File{Doc: &yaml.Node{}}).UnknownKeys())
	assert.Empty(t, settings.Parse(settings.Name, []byte("series: ../x\n")).UnknownKeys(), "series is a known setting")
}

func TestSeriesRootConfinement(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	book := filepath.Join(base, "books", "one")
	series := filepath.Join(base, "books", "tideward")
	require.NoError(t, os.MkdirAll(filepath.Join(book, "lore"), 0o755))
	require.NoError(t, os.MkdirAll(series, 0o755))
	linktest.Symlink(t, series, filepath.Join(base, "link"))
	tests := []struct {
		path, want, err string
	}{
		{path: "../tideward", want: series},
		{path: series, want: series},
		{path: "../../link", want: series},
		{path: "../tideward/../tideward/.", want: series},
		{path: ".", err: "is the book's own folder"},
		{path: "lore", err: "is inside the book"},
		{path: "..", err: "holds the book itself"},
		{path: "../..", err: "holds the book itself"},
		{path: "../missing", err: "cannot be opened"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := SeriesRoot(book, tt.path)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// A series store is a codex of its own: a symlink out of the series
// folder is not followed, and its entries reach the book through the
// view only.
func TestViewReadsBothRoots(t *testing.T) {
	outside := newProject(t, projectFiles{"secret.md": entryMD("type: character\nname: Secret Agent", "# Secret\n")})
	seriesDir := newProject(t, projectFiles{
		"codex/characters/mara.md": seriesFiles["codex/characters/mara.md"],
		"codex/locations/tide.md":  seriesFiles["codex/locations/tideward.md"],
	})
	symlink(t, outside, seriesDir, "codex/escape")
	symlink(t, filepath.Join(outside, "secret.md"), seriesDir, "codex/characters/secret.md")
	bookDir := newProject(t, projectFiles{
		"codex/characters/mara.md": entryMD("name: Mara Vell\noverrides: Mara Vell\nsummary: Older now.", ""),
		"codex/characters/ana.md":  entryNamed("Ana Brisk"),
	})
	v := NewView(memStore(t, bookDir), memStore(t, seriesDir))
	names := resultNames(v.List(""))
	assert.ElementsMatch(t, []string{"Ana Brisk", "Mara Vell", "Tideward"}, names)
	_, ok := v.Catalog().Resolve("Secret Agent")
	assert.False(t, ok, "nothing outside the series folder is read")

	rs := v.Lookup("Mara", "")
	require.NotEmpty(t, rs)
	assert.Equal(t, "Older now.", rs[0].Summary)
	assert.Equal(t, CanonBookOverSeries, rs[0].Canon)
	assert.Contains(t, rs[0].Excerpt, "salt flats")

	found, err := v.Search(context.Background(), "drowned", SearchOptions{})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, "Tideward", found[0].Name)
	assert.Equal(t, CanonSeries, found[0].Canon)
	found, err = v.Search(context.Background(), "salt flats", SearchOptions{})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, "codex/characters/mara.md", found[0].RelativePath)
	assert.Equal(t, "Older now.", found[0].Summary, "a series hit on an overridden entry is the book's entry")

	assert.Same(t, v.Merged(), v.Merged(), "merged once per pair of catalogs")
	alone := NewView(memStore(t, bookDir), nil)
	assert.Equal(t, 2, alone.Catalog().Len())
}

// The books of a workspace merge with one SeriesCatalogs: the series'
// entries are indexed under their absolute paths once per change of the
// series, and each book lays only its own entries over them.
func TestSeriesCatalogsAreSharedByTheBooks(t *testing.T) {
	series := catalogOf(t, seriesFiles)
	sc := NewSeriesCatalogs(unixAbs("/books/tideward"))
	one := sc.Merge(unixAbs("/books/one"), catalogOf(t, map[string]string{"codex/a.md": entryNamed("Ana Brisk")}), series)
	abs := sc.of(series)
	two := sc.Merge(unixAbs("/books/two"), catalogOf(t, map[string]string{"codex/b.md": entryNamed("Bel Morrow")}), series)
	again := sc.of(series)
	assert.Same(t, abs, again, "indexed once for both books")
	for _, m := range []*Merged{one, two} {
		assert.Equal(t, 4, m.Catalog.Len())
		e, ok := m.Catalog.Resolve("Ilse Dorn")
		require.True(t, ok)
		src := m.Source(e)
		require.NotNil(t, src)
		assert.Equal(t, "codex/characters/ilse.md", src.Path)
		assert.Same(t, e, func() *Entry { f, _ := m.FromSeries("codex/characters/ilse.md"); return f }())
	}
	_, ok := one.Catalog.Resolve("Bel Morrow")
	assert.False(t, ok, "a book's own entries stay its own")
	changed := catalogOf(t, map[string]string{"codex/characters/ilse.md": seriesFiles["codex/characters/ilse.md"]})
	sc.Merge(unixAbs("/books/one"), catalogOf(t, nil), changed)
	fresh := sc.of(changed)
	assert.NotSame(t, abs, fresh, "a changed series is indexed again")
}

// A book's merge is a layer over the series' catalog, made once per
// pair of catalogs: every way of looking a name up finds the series
// entry as the book reads it (at its absolute path), never the series
// store's own entry, and the book's override in its place.
func TestMergedLookupsFindTheBooksEntries(t *testing.T) {
	seriesRoot := unixAbs("/books/tideward")
	series := catalogOf(t, seriesFiles)
	sc := NewSeriesCatalogs(seriesRoot)
	book := catalogOf(t, map[string]string{"codex/characters/mara.md": entryMD("type: character\nname: Mara Vell\noverrides: Mara Vell\nsummary: Retired.", "")})
	m := sc.Merge(unixAbs("/books/one"), book, series)
	assert.Same(t, m, sc.Merge(unixAbs("/books/one"), book, series), "the same catalogs give the same merge")
	ilse := filepath.Join(seriesRoot, "codex/characters/ilse.md")
	tests := []struct {
		query string
		// kind is how it matched; empty says any way.
		kind MatchKind
		want string
	}{
		{"Ilse Dorn", MatchName, ilse},
		{"Dorn", MatchPartial, ilse},
		{"Ilse Dorm", MatchFuzzy, ilse},
		{"Mara", "", "codex/characters/mara.md"},
		{"Mara Vwll", MatchFuzzy, "codex/characters/mara.md"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			ms := m.Catalog.Lookup(tt.query, "")
			require.NotEmpty(t, ms)
			assert.Equal(t, tt.want, ms[0].Entry.ID)
			if tt.kind != "" {
				assert.Equal(t, tt.kind, ms[0].Kind)
			}
			for _, match := range ms {
				own, _ := series.Get(match.Entry.ID)
				assert.NotSame(t, own, match.Entry, "the series store's own entry is not the book's")
			}
		})
	}
	assert.Equal(t, 3, m.Catalog.Len())
	e, ok := m.Catalog.Get(ilse)
	require.True(t, ok)
	assert.Equal(t, "Harbor master.", e.Summary)
	_, ok = m.Catalog.Get(filepath.Join(seriesRoot, "codex/characters/mara.md"))
	assert.False(t, ok, "the overridden series entry is gone from the book")
	sc.Forget(unixAbs("/books/one"))
	assert.NotSame(t, m, sc.Merge(unixAbs("/books/one"), book, series), "a forgotten book is merged again")
}

// Catalog.With shares its parent's maps: changes in the child leave the
// parent as it was, and a child of a child sees both changes.
func TestCatalogWithLeavesItsParent(t *testing.T) {
	parent := catalogOf(t, seriesFiles)
	child := parent.With([]*Entry{mustParse(t, "codex/characters/ana.md", entryNamed("Ana Brisk"), TypeCharacter)}, []string{"codex/characters/ilse.md"}, nil)
	grandchild := child.With([]*Entry{mustParse(t, "codex/characters/bel.md", entryNamed("Bel Morrow"), TypeCharacter)}, nil, nil)
	for _, tt := range []struct {
		name           string
		cat            *Catalog
		ana, ilse, bel bool
	}{
		{"parent", parent, false, true, false},
		{"child", child, true, false, false},
		{"grandchild", grandchild, true, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ana := tt.cat.Resolve("Ana Brisk")
			_, ilse := tt.cat.Resolve("Ilse Dorn")
			_, bel := tt.cat.Get("codex/characters/bel.md")
			assert.Equal(t, []bool{tt.ana, tt.ilse, tt.bel}, []bool{ana, ilse, bel})
			_, mara := tt.cat.Resolve("Mara")
			assert.True(t, mara)
			// Partial and one-typo lookups read the word lists a child
			// shares with its parent: a removed entry is not found, an
			// added one is.
			for query, want := range map[string]bool{"Dorn": tt.ilse, "Ilse Dorm": tt.ilse, "Brisk": tt.ana, "Ana Brisc": tt.ana, "Morrow": tt.bel} {
				found := slices.ContainsFunc(tt.cat.Lookup(query, ""), func(m Match) bool { return m.Entry.Name != "Mara Vell" && m.Entry.Name != "Tideward" })
				assert.Equal(t, want, found, query)
			}
		})
	}
}

// The series at absolute paths finds, for each series entry, its own
// copy and, for each copy, the series entry's keys (both by ID),
// without maps of its own: every lookup returns
// copies, and an entry that is no copy of its is not taken for one.
func TestSeriesCopiesFindTheirOriginals(t *testing.T) {
	seriesRoot := unixAbs("/books/tideward")
	series := catalogOf(t, seriesFiles)
	sc := NewSeriesCatalogs(seriesRoot)
	abs := sc.of(series)
	m := &Merged{SeriesRoot: seriesRoot}
	require.Equal(t, series.Len(), abs.Len())
	for i, own := range series.All() {
		cp := abs.All()[i]
		assert.Equal(t, m.abs(own.ID), cp.ID)
		assert.Equal(t, own.ID, m.seriesID(cp.ID), "seriesID undoes abs")
		assert.Same(t, cp, abs.mine(own), "%s: the copy of the series entry", own.ID)
		k, ok := abs.keys.get(cp)
		require.True(t, ok, cp.ID)
		assert.Equal(t, series.keys.at(own), k)
		got, ok := abs.Resolve(own.Name)
		require.True(t, ok, own.Name)
		assert.Same(t, cp, got)
		assert.Contains(t, abs.OfType(own.Type), cp)
		stranger := *cp
		_, ok = abs.keys.get(&stranger)
		assert.False(t, ok, "an entry with a copy's ID is not the copy")
	}
	assert.Empty(t, m.seriesID(unixAbs("/elsewhere/codex/a.md")))
	foreign := catalogOf(t, map[string]string{"codex/characters/ilse.md": seriesFiles["codex/characters/ilse.md"]}).All()[0]
	assert.Same(t, foreign, abs.mine(foreign), "an entry of another catalog stays itself")
}
