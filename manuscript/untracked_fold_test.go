package manuscript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// createdCount is what an untracked suggestion's entry finds once made
// as offered (its file's text, read back), beside the codex's entries:
// its mentions and the units they are in.
func createdCount(t testing.TB, cat *codex.Catalog, units []*Unit, u Untracked) (mentions, inUnits int) {
	t.Helper()
	src, err := codex.NewEntrySource(codex.EntryDraft{Type: codex.TypeCharacter, Name: u.Name, Aliases: u.Aliases, Exclude: u.Exclude})
	require.NoError(t, err)
	e, problems := codex.Parse("codex/characters/new-entry.md", []byte(src), codex.TypeCharacter)
	require.NotNil(t, e, src)
	require.Empty(t, problems, src)
	var entries []*codex.Entry
	if cat != nil {
		entries = cat.All()
	}
	ix := BuildMentionIndex(NewMatcherOf(append(entries, e)), units)
	for _, a := range ix.Appearances(e.ID) {
		mentions += a.Count
		inUnits++
	}
	return mentions, inUnits
}

// assertPromises holds every suggestion of units to its count.
func assertPromises(t *testing.T, cat *codex.Catalog, units []*Unit, got []Untracked) {
	t.Helper()
	for _, u := range got {
		mentions, inUnits := createdCount(t, cat, units, u)
		assert.Equal(t, u.Count, mentions, "%s: the created entry finds the uses promised", untrackedString(u))
		assert.Equal(t, u.Units, inUnits, "%s: in as many chapters", untrackedString(u))
	}
}

func TestUntrackedFoldingRule(t *testing.T) {
	wickham := catalogOf(t, "codex/wickham.md", "name: Wickham")
	for _, tt := range []struct {
		name string
		cat  *codex.Catalog
		text string
		want []string
	}{
		{"the name is the form the prose uses most",
			nil, "at Netherfield, to Netherfield, from Netherfield, of Netherfield House; near Netherfield.",
			[]string{"Netherfield×5 aka Netherfield House"}},
		{"a pair used most is the name",
			nil, "to Port Caddow, by Port Caddow, from Port Caddow, and Caddow.",
			[]string{"Port Caddow×4 aka Caddow"}},
		{"a titled name and the surname bare: the family kept apart",
			nil, "then Mr. Wickham, Mr. Wickham, Mr. Wickham; Wickham, Wickham, Wickham, Wickham; Mrs. Wickham, Mrs. Wickham, Mrs. Wickham.",
			[]string{"Wickham×7 aka Mr. Wickham", "Mrs. Wickham×3"}},
		{"a family's surname never bare belongs to no one",
			nil, "then Mr. Bennet, Mr. Bennet, Mr. Bennet; Mrs. Bennet, Mrs. Bennet, Mrs. Bennet; Miss Elizabeth Bennet. Elizabeth Bennet came. Jane Bennet went. Kitty Bennet sat.",
			[]string{"Mr. Bennet×3", "Mrs. Bennet×3"}},
		{"a surname after a title in lower case is not bare",
			nil, "then Mr. Phillips, Mr. Phillips, Mr. Phillips; Mrs. Phillips, Mrs. Phillips, Mrs. Phillips; my aunt Phillips, my uncle Phillips, her sister Phillips.",
			[]string{"Mr. Phillips×3", "Mrs. Phillips×3"}},
		{"a given name before a family's surname is that one's whole name",
			nil, "then Mr. Bennet, Mr. Bennet, Mr. Bennet; Mrs. Bennet, Mrs. Bennet, Mrs. Bennet; and Jane, Jane, Jane, and Jane Bennet.",
			[]string{"Jane×4 aka Jane Bennet", "Mr. Bennet×3", "Mrs. Bennet×3"}},
		{"a given name keeps its name beside a known surname",
			wickham, "then Lydia, Lydia, Lydia, and Lydia Wickham.",
			[]string{"Lydia×4 aka Lydia Wickham"}},
		{"a given name is no title's, used far less",
			nil, "then Catherine and Catherine and Catherine, and Lady Catherine " + strings.Repeat("and Lady Catherine ", 30),
			[]string{"Lady Catherine×31", "Catherine×3 not Lady Catherine"}},
		{"a word used only inside longer names is folded, but no alias",
			nil, "then Captain Wentworth came, and Captain Wentworth went, and Captain Wentworth stayed, and Frederick Wentworth Harville slept",
			[]string{"Captain Wentworth×3"}},
		{"another name's pair with an everyday word is excluded",
			nil, "then Mr. Lucas, Mr. Lucas, Mr. Lucas; Mrs. Lucas, Mrs. Lucas, Mrs. Lucas; and Lucas, Lucas, Lucas; at Lucas Lodge, Lucas Lodge, Lucas Lodge.",
			[]string{"Mr. Lucas×6 aka Lucas not Lucas Lodge", "Lucas Lodge×3 not Lucas", "Mrs. Lucas×3"}},
		{"a character's given name is kept off another's pairs",
			nil, "then Mrs. Corwin, Mrs. Corwin, Mrs. Corwin; and Corwin Hale, Corwin Hale, Corwin Hale.",
			[]string{"Corwin Hale×3 not Mrs. Corwin", "Mrs. Corwin×3"}},
		{"sentence starts count as the entry counts them",
			nil, "Corwin rowed. She met Corwin, and Corwin, and Corwin. Corwin slept.",
			[]string{"Corwin×5"}},
		{"an entry that finds too little is not offered",
			nil, "the Corwin family, the Corwin family, the Corwin family",
			[]string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			units := []*Unit{chapter("manuscript/a.md", 1, tt.text)}
			cat := tt.cat
			if cat == nil {
				cat = codex.NewCatalog(nil, nil)
			}
			got := BuildMentionIndex(NewMatcher(cat), units).Untracked(UntrackedMinCount)
			strs := []string{}
			for _, u := range got {
				strs = append(strs, untrackedString(u))
			}
			assert.Equal(t, tt.want, strs)
			assertPromises(t, cat, units, got)
		})
	}
}

// The counting cuts long paragraphs at sentences' ends and scans the
// blocks that may hold a name: what it finds is what the scan of the
// whole text finds.
func TestUntrackedCountsAsTheWholeScan(t *testing.T) {
	cat := catalogOf(t, "codex/mara.md", "name: Mara Vell\naliases: [Mara]\nexclude: [Mara Street]")
	var b strings.Builder
	for i := range 40 {
		b.WriteString("Then Corwin rowed past Mara Street to Port Caddow with Mr. Hesk and Mrs. Hesk. ")
		b.WriteString("Corwin's oar broke at the Caddow. ")
		if i%7 == 0 {
			b.WriteString("\n\nHESK! cried Mara, and Hesk came. “Corwin,” said Mrs.\nHesk. ")
		}
		b.WriteString("He said e.g. no. The Rev. Corwin came? Yes! And Port\nCaddow too. ")
	}
	units := []*Unit{chapter("manuscript/a.md", 1, "# One\n\n"+b.String()), chapter("manuscript/b.md", 2, "# Two\n\nCorwin, Corwin and Hesk.\n")}
	countsAsTheWholeScan(t, cat, units)
}

// countsAsTheWholeScan requires that the untracked names of units are
// counted, in blocks of any size, as an entry of each finds them.
func countsAsTheWholeScan(t *testing.T, cat *codex.Catalog, units []*Unit) {
	t.Helper()
	ix := BuildMentionIndex(NewMatcher(cat), units)
	for _, blockBytes := range []int{1, 64, untrackedBlockBytes, 1 << 20} {
		groups := ix.untrackedGroups(UntrackedMinCount)
		require.NotEmpty(t, groups)
		ix.countUntracked(groups, blockBytes)
		for _, g := range groups {
			u := Untracked{Name: g.name, Aliases: g.aliases, Exclude: g.exclude, Count: g.count, Units: g.units}
			mentions, inUnits := createdCount(t, cat, units, u)
			assert.Equal(t, mentions, g.count, "%s, blocks of %d bytes", untrackedString(u), blockBytes)
			assert.Equal(t, inUnits, g.units, "%s, blocks of %d bytes", untrackedString(u), blockBytes)
		}
	}
}

// The counts a unit remembers serve the next index while the unit's text
// and the codex stay; an edited unit is counted again.
func TestUntrackedCountsFollowEdits(t *testing.T) {
	units := []*Unit{
		chapter("manuscript/a.md", 1, "# One\n\nthen Corwin, and Corwin, and Mr. Hesk.\n"),
		chapter("manuscript/b.md", 2, "# Two\n\nthen Corwin and Mr. Hesk, Mr. Hesk.\n"),
	}
	m := NewMatcher(nil)
	ix := BuildMentionIndex(m, units)
	before := ix.Untracked(UntrackedMinCount)
	assert.Equal(t, []string{"Corwin×3", "Mr. Hesk×3"}, untrackedNamesCounts(before))
	edited := ix.WithUnit(m, chapter("manuscript/b.md", 2, "# Two\n\nthen Corwin and Corwin. Corwin! Mr. Hesk, Mr. Hesk.\n"))
	after := edited.Untracked(UntrackedMinCount)
	assert.Equal(t, []string{"Corwin×5", "Mr. Hesk×3"}, untrackedNamesCounts(after))
	fresh := BuildMentionIndex(m, edited.Units()).Untracked(UntrackedMinCount)
	assert.Equal(t, fresh, after)
	// The unchanged unit kept what it counted.
	um := edited.units["manuscript/a.md"]
	um.untracked.mu.Lock()
	assert.NotEmpty(t, um.untracked.found)
	um.untracked.mu.Unlock()
	assert.Same(t, ix.units["manuscript/a.md"].untracked, um.untracked)
}

// A unit remembers the counts it found above zero, one each, and its
// zeros as the set of forms the counting asked for, which every unit it
// counted shares: a book of many chapters, each naming its own few
// people of many, keeps no count a chapter a name.
func TestUntrackedCountsKeepNoZeros(t *testing.T) {
	names := []string{"Corwin", "Hesk", "Ilsabet", "Doran", "Margit", "Tobiah", "Wenna", "Fergal"}
	var units []*Unit
	for i, name := range names {
		text := fmt.Sprintf("# Part %d\n\nthen %s came, and %s spoke, and %s went.\n", i+1, name, name, name)
		units = append(units, chapter(fmt.Sprintf("manuscript/%02d.md", i+1), i+1, text))
	}
	ix := BuildMentionIndex(NewMatcher(nil), units)
	got := ix.Untracked(UntrackedMinCount)
	require.Len(t, got, len(names))
	shared := ix.order[0].untracked.asked
	require.Len(t, shared, 1)
	for i, um := range ix.order {
		um.untracked.mu.Lock()
		assert.Equal(t, map[string]int32{names[i] + "\x01\x02character": 3}, um.untracked.found, um.unit.Path)
		require.Len(t, um.untracked.asked, 1)
		assert.Same(t, shared[0], um.untracked.asked[0], um.unit.Path)
		// The others' counts here are known: none.
		for j, other := range names {
			n, ok := um.untracked.get(other + "\x01\x02character")
			assert.True(t, ok, "%s in %s", other, um.unit.Path)
			assert.Equal(t, int32(map[bool]int{true: 3}[i == j]), n, "%s in %s", other, um.unit.Path)
		}
		um.untracked.mu.Unlock()
	}
	assert.Equal(t, got, ix.Untracked(UntrackedMinCount), "counted again from what the units remember")
}

func untrackedNamesCounts(us []Untracked) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, untrackedString(u))
	}
	return out
}

// Past its bound, a unit's counting takes the finder's tallies for the
// names left, most used first.
func TestUntrackedCountingIsBounded(t *testing.T) {
	text := "# One\n\nthen Corwin, and Corwin, and Corwin. Corwin rowed, and Hesk, Hesk, Hesk. Hesk slept.\n"
	ix := BuildMentionIndex(NewMatcher(nil), []*Unit{chapter("manuscript/a.md", 1, text)})
	groups := ix.untrackedGroups(UntrackedMinCount)
	require.Len(t, groups, 2)
	c := newGroupCounter(ix.matcher, groups, untrackedBlockBytes)
	c.scanFactor, c.scanSlack = 0, len(text)
	counts := c.countUnit(ix.order[0])
	// Corwin, first by name among the most used, is counted by the scan
	// (with the sentence's first word); Hesk then finds the budget spent,
	// and takes its tally (without it).
	assert.Equal(t, "Corwin", groups[0].name)
	assert.Equal(t, []int32{4, 3}, counts)
}

// A name in Russian is found declined (codex/declension.go): the counting
// scans the blocks that hold any of its forms, so what it finds is still
// what an entry of the name would find.
func TestUntrackedCountsDeclinedNames(t *testing.T) {
	cat := catalogOf(t, "codex/anna.md", "name: Анна")
	var b strings.Builder
	for range 10 {
		b.WriteString("Она видела, как пришёл Петрицкий. Вчера она говорила с Петрицким.\n\nВсе ждали Петрицкого. А потом и Яшвин пришёл. ")
	}
	units := []*Unit{chapter("manuscript/a.md", 1, "# Один\n\n"+b.String())}
	countsAsTheWholeScan(t, cat, units)
}
