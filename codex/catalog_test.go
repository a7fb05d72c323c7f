package codex

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entry parses a small codex file for catalog tests.
func entry(t testing.TB, id, src string) *Entry {
	t.Helper()
	e, _ := Parse(id, []byte(src), folderTypeOf(id[:max(0, len(id)-len(stemOf(id))-3)]))
	require.NotNil(t, e, "fixture %s is not an entry", id)
	return e
}

func testCatalog(t testing.TB) *Catalog {
	t.Helper()
	return NewCatalog([]*Entry{
		entry(t, "codex/characters/mara-vell.md", "---\nname: Mara Vell\naliases: [Mara, the Harbor Witch]\n---\n# Mara Vell\n\nSmuggler. Sister of [[Ilse Dorn]].\n"),
		entry(t, "codex/characters/ilse-dorn/index.md", "---\nname: Ilse Dorn\naliases: [Ilse]\n---\n# Ilse Dorn\n\nSee [[Mara Vell#History]] and [[Nobody]].\n"),
		entry(t, "codex/characters/aubrac.md", "---\nname: Séverine Aubrac\naliases: [the Harbormistress]\n---\n# Séverine Aubrac\n"),
		entry(t, "codex/locations/harbor.md", "---\nname: Brinmouth Harbor\ntitle: The Harbor of Brinmouth\naliases: [the Mouth, Mara]\n---\n# Harbor\n"),
		entry(t, "codex/items/tide-bell.md", "---\nname: Low Bell\n---\n# Low Bell\n\n## History\n"),
		entry(t, "codex/concepts/greyhand-company.md", "---\ntype: organization\nname: Greyhand Company\n---\n"),
	}, nil)
}

func TestLookupRanksTiers(t *testing.T) {
	c := testCatalog(t)
	tests := []struct {
		query string
		typ   Type
		want  string // ID of the best match, "" for none
		kind  MatchKind
	}{
		{"Mara Vell", "", "codex/characters/mara-vell.md", MatchName},
		{"mara vell", "", "codex/characters/mara-vell.md", MatchName},
		{"Mara Vell's", "", "codex/characters/mara-vell.md", MatchName},
		{"Mara’s", "", "codex/characters/mara-vell.md", MatchAlias},
		{"The Harbor of Brinmouth", "", "codex/locations/harbor.md", MatchTitle},
		{"tide-bell", "", "codex/items/tide-bell.md", MatchStem},
		{"Tide Bell", "", "codex/items/tide-bell.md", MatchStem},
		{"ilse-dorn", "", "codex/characters/ilse-dorn/index.md", MatchStem},
		{"the harbor witch", "", "codex/characters/mara-vell.md", MatchAlias},
		{"severine aubrac", "", "codex/characters/aubrac.md", MatchName},
		{"SÉVERINE", "", "codex/characters/aubrac.md", MatchPartial},
		{"aubrac", "", "codex/characters/aubrac.md", MatchStem},
		{"Séverine's", "", "codex/characters/aubrac.md", MatchPartial},
		{"Vell", "", "codex/characters/mara-vell.md", MatchPartial},
		{"harbor wit", "", "codex/characters/mara-vell.md", MatchPartial},
		{"Greyhnd", "", "codex/concepts/greyhand-company.md", MatchFuzzy},
		{"Ilse Dron", "", "codex/characters/ilse-dorn/index.md", MatchFuzzy},
		{"Mara", TypeLocation, "codex/locations/harbor.md", MatchAlias},
		{"Mara", TypeCharacter, "codex/characters/mara-vell.md", MatchAlias},
		{"Low Bell", TypeCharacter, "", ""},
		{"Xyzzy", "", "", ""},
		{"   ", "", "", ""},
		{"Bel", "", "codex/items/tide-bell.md", MatchPartial},
		{"Bll", "", "", ""}, // too short for a typo match
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s", tt.query, tt.typ), func(t *testing.T) {
			ms := c.Lookup(tt.query, tt.typ)
			if tt.want == "" {
				assert.Empty(t, ms)
				return
			}
			require.NotEmpty(t, ms)
			assert.Equal(t, tt.want, ms[0].Entry.ID)
			assert.Equal(t, tt.kind, ms[0].Kind)
			for i := 1; i < len(ms); i++ {
				assert.GreaterOrEqual(t, ms[i-1].Score, ms[i].Score, "results are best first")
			}
		})
	}
}

func TestLookupOrdersTiesAndTiers(t *testing.T) {
	c := testCatalog(t)
	ms := c.Lookup("Mara", "")
	require.Len(t, ms, 2)
	// Both hold "Mara" as an alias; the character sorts first by type.
	assert.Equal(t, "codex/characters/mara-vell.md", ms[0].Entry.ID)
	assert.Equal(t, "codex/locations/harbor.md", ms[1].Entry.ID)

	assert.Empty(t, c.Lookup("the", ""), "an article alone names nothing")
	ms = c.Lookup("the harbor", "")
	for _, m := range ms {
		assert.Equal(t, MatchPartial, m.Kind)
	}
	// Scored by how much of the matching name the query covers: "the
	// Harbor Witch" and "Brinmouth Harbor" alike (a character sorts
	// first), then "the Harbormistress".
	assert.Equal(t, []string{
		"codex/characters/mara-vell.md",
		"codex/locations/harbor.md",
		"codex/characters/aubrac.md",
	}, matchIDs(ms))
}

func TestResolve(t *testing.T) {
	c := testCatalog(t)
	for name, want := range map[string]string{
		"Ilse Dorn":        "codex/characters/ilse-dorn/index.md",
		"ilse":             "codex/characters/ilse-dorn/index.md",
		"Ilse's":           "codex/characters/ilse-dorn/index.md",
		"the mouth":        "codex/locations/harbor.md",
		"Mara":             "codex/characters/mara-vell.md",
		"greyhand-company": "codex/concepts/greyhand-company.md",
	} {
		e, ok := c.Resolve(name)
		require.True(t, ok, name)
		assert.Equal(t, want, e.ID, name)
	}
	_, ok := c.Resolve("Vell")
	assert.False(t, ok, "Resolve takes exact names only")
}

func TestCatalogProblems(t *testing.T) {
	c := testCatalog(t)
	var got []string
	for _, p := range c.Problems() {
		got = append(got, p.Path+" "+p.Code)
	}
	assert.Equal(t, []string{
		"codex/characters/ilse-dorn/index.md broken-link", // Mara Vell has no History section
		"codex/characters/ilse-dorn/index.md broken-link", // nobody is named Nobody
		"codex/characters/mara-vell.md duplicate-name",
		"codex/locations/harbor.md duplicate-name",
	}, got)
	dup := c.ProblemsIn("codex/locations/harbor.md")
	require.Len(t, dup, 1)
	e, _ := c.Get("codex/locations/harbor.md")
	assert.Equal(t, "Mara", e.Source[dup[0].Range.Start:dup[0].Range.End])
	assert.Contains(t, dup[0].Message, "Mara Vell")
	assert.Empty(t, c.ProblemsIn("codex/items/tide-bell.md"))
}

func TestCatalogListings(t *testing.T) {
	c := testCatalog(t)
	assert.Equal(t, 6, c.Len())
	// Built-in types in their order, then by name.
	assert.Equal(t, []string{
		"codex/characters/ilse-dorn/index.md",
		"codex/characters/mara-vell.md",
		"codex/characters/aubrac.md",
		"codex/locations/harbor.md",
		"codex/concepts/greyhand-company.md",
		"codex/items/tide-bell.md",
	}, ids(c.All()))
	assert.Equal(t, []string{
		"codex/characters/ilse-dorn/index.md",
		"codex/characters/mara-vell.md",
		"codex/characters/aubrac.md",
	}, ids(c.OfType(TypeCharacter)))
	assert.Len(t, c.OfType(""), 6)
	assert.Empty(t, c.OfType(TypeEvent))
	assert.Equal(t, map[Type]int{TypeCharacter: 3, TypeLocation: 1, TypeItem: 1, TypeOrganization: 1}, c.TypeCounts())
}

// TestCatalogWithMatchesRebuild applies random changes both ways and
// requires the patched catalog to answer exactly as a fresh one.
func TestCatalogWithMatchesRebuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	names := []string{"Mara", "Ilse", "Bell", "Harbor", "Vell", "Dorn", "Witch", "Mouth", "Tally", "Ledger"}
	types := []Type{TypeCharacter, TypeLocation, TypeItem}
	gen := func(id int) *Entry {
		name := names[rng.IntN(len(names))] + " " + names[rng.IntN(len(names))]
		alias := names[rng.IntN(len(names))]
		typ := types[rng.IntN(len(types))]
		src := fmt.Sprintf("---\nname: %s\naliases: [%s]\n---\n# %s\n\nSee [[%s]].\n", name, alias, name, names[rng.IntN(len(names))])
		return entry(t, fmt.Sprintf("codex/%s/e%03d.md", typ.Plural(), id), src)
	}
	var all []*Entry
	for i := range 200 {
		all = append(all, gen(i))
	}
	c := NewCatalog(all, nil)
	live := map[string]*Entry{}
	for _, e := range all {
		live[e.ID] = e
	}
	for round := range 60 {
		var updated []*Entry
		var removed []string
		for range 1 + rng.IntN(5) {
			if rng.IntN(3) == 0 && len(live) > 0 {
				ids := slices.Sorted(func(yield func(string) bool) {
					for id := range live {
						if !yield(id) {
							return
						}
					}
				})
				id := ids[rng.IntN(len(ids))]
				if !slices.Contains(removed, id) && !slices.ContainsFunc(updated, func(e *Entry) bool { return e.ID == id }) {
					removed = append(removed, id)
					delete(live, id)
				}
				continue
			}
			e := gen(rng.IntN(260))
			if slices.Contains(removed, e.ID) || slices.ContainsFunc(updated, func(u *Entry) bool { return u.ID == e.ID }) {
				continue
			}
			updated = append(updated, e)
			live[e.ID] = e
		}
		c = c.With(updated, removed, nil)
		fresh := NewCatalog(slices.Collect(func(yield func(*Entry) bool) {
			for _, e := range live {
				if !yield(e) {
					return
				}
			}
		}), nil)
		require.Equal(t, ids(fresh.All()), ids(c.All()), "round %d", round)
		for _, typ := range types {
			require.Equal(t, ids(fresh.OfType(typ)), ids(c.OfType(typ)), "round %d type %s", round, typ)
		}
		for _, q := range []string{"Mara", "Ilse Dorn", "bell", "Harb", "Witchh", "Ledger Tally's", "x"} {
			require.Equal(t, matchIDs(fresh.Lookup(q, "")), matchIDs(c.Lookup(q, "")), "round %d query %q", round, q)
		}
		require.Equal(t, fresh.Problems(), c.Problems(), "round %d", round)
	}
}

func TestCatalogWithLeavesBaseUnchanged(t *testing.T) {
	base := testCatalog(t)
	before := matchIDs(base.Lookup("Mara", ""))
	mara, _ := base.Get("codex/characters/mara-vell.md")
	renamed := entry(t, mara.ID, "---\nname: Mara Quill\naliases: [Mara]\n---\n")
	next := base.With([]*Entry{renamed}, []string{"codex/locations/harbor.md"}, nil)

	assert.Equal(t, before, matchIDs(base.Lookup("Mara", "")), "the base catalog must not see the change")
	assert.Equal(t, []string{"codex/characters/mara-vell.md"}, matchIDs(next.Lookup("Mara", "")))
	renamedMatch := next.Lookup("Mara Quill", "")
	require.NotEmpty(t, renamedMatch)
	assert.Equal(t, MatchName, renamedMatch[0].Kind)
	// The old name now matches only the title, which falls back to the file stem.
	old := next.Lookup("Mara Vell", "")
	require.NotEmpty(t, old)
	assert.Equal(t, MatchTitle, old[0].Kind)
	_, ok := next.Get("codex/locations/harbor.md")
	assert.False(t, ok)
	assert.Equal(t, 6, base.Len())
	assert.Equal(t, 5, next.Len())
}

func ids(es []*Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func matchIDs(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Entry.ID
	}
	return out
}

// folderTypeOf is the type implied by the nearest type folder among the
// folders of rel, a project-relative folder path.
func folderTypeOf(rel string) Type {
	segs := strings.Split(strings.Trim(rel, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if t, ok := TypeFromFolder(segs[i]); ok {
			return t
		}
	}
	return ""
}

func TestWithEntriesKeepsSkippedFiles(t *testing.T) {
	skipped := []Problem{{Path: "codex/items/huge.md", Code: CodeTooLarge, Severity: SeverityError}}
	base := NewCatalog(testCatalog(t).All(), skipped)
	assert.Same(t, base, base.WithEntries(nil))

	// The harbor no longer claims "Mara"; the skipped file stays listed.
	edited := base.WithEntries([]*Entry{entry(t, "codex/locations/harbor.md", "---\nname: Brinmouth Harbor\naliases: [the Mouth]\n---\n# Harbor\n")})
	var got []string
	for _, p := range edited.Problems() {
		got = append(got, p.Path+" "+p.Code)
	}
	assert.Equal(t, []string{
		"codex/characters/ilse-dorn/index.md broken-link",
		"codex/characters/ilse-dorn/index.md broken-link",
		"codex/items/huge.md too-large",
	}, got)
	assert.Len(t, base.ProblemsIn("codex/locations/harbor.md"), 1, "the base is left as it was")
}

// A large codex's keys are found on every core, each entry's its own.
func TestKeysOfAllMatchesKeysOf(t *testing.T) {
	var entries []*Entry
	for i := range 3*keysPerWorker + 7 {
		name := fmt.Sprintf("Person Number%d", i)
		entries = append(entries, &Entry{ID: fmt.Sprintf("codex/characters/p%d.md", i), Type: TypeCharacter, Name: name,
			Aliases: []string{fmt.Sprintf("Num%d", i)}, Stem: fmt.Sprintf("p%d", i)})
	}
	got := keysOfAll(entries)
	require.Len(t, got, len(entries))
	for i, e := range entries {
		require.Equal(t, keysOf(e), got[i], "entry %d", i)
	}
}

// TestLookupFindsRussianNamesDeclined: a Russian name asked for in
// another case is found as the name it is a case of, as a possessive
// is in English.
func TestLookupFindsRussianNamesDeclined(t *testing.T) {
	c := NewCatalog([]*Entry{
		entry(t, "codex/characters/vronsky.md", "---\nname: Вронский\naliases: [Алексей Вронский]\n---\n"),
		entry(t, "codex/characters/anna.md", "---\nname: Анна Аркадьевна\naliases: [Анна]\n---\n"),
		entry(t, "codex/characters/andrey.md", "---\nname: Андрей\n---\n"),
	}, nil)
	tests := []struct{ query, want string }{
		{"Вронского", "codex/characters/vronsky.md"},
		{"вронским", "codex/characters/vronsky.md"},
		{"Анну", "codex/characters/anna.md"},
		{"Андрея", "codex/characters/andrey.md"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			ms := c.Lookup(tt.query, "")
			require.NotEmpty(t, ms)
			assert.Equal(t, tt.want, ms[0].Entry.ID)
		})
	}
}
