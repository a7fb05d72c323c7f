package manuscript

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// untrackedIn indexes texts as consecutive chapters and lists the names
// used at least min times, as "Name×count", then " aka" and the aliases
// and " not" and the exclusions, if any.
func untrackedIn(t testing.TB, cat *codex.Catalog, min int, texts ...string) []string {
	t.Helper()
	var units []*Unit
	for i, text := range texts {
		units = append(units, chapter("manuscript/"+string(rune('a'+i))+".md", i+1, text))
	}
	out := []string{}
	for _, u := range BuildMentionIndex(NewMatcher(cat), units).Untracked(min) {
		out = append(out, untrackedString(u))
	}
	return out
}

func untrackedString(u Untracked) string {
	s := u.Name + "×" + strconv.Itoa(u.Count)
	if len(u.Aliases) > 0 {
		s += " aka " + strings.Join(u.Aliases, ", ")
	}
	if len(u.Exclude) > 0 {
		s += " not " + strings.Join(u.Exclude, ", ")
	}
	return s
}

func TestUntrackedRules(t *testing.T) {
	cat := catalogOf(t,
		"mara", "name: Mara Vell\naliases: [Mara]",
		"greyhands", "type: organization\nname: Greyhand Company\naliases: [the Greyhands]",
		"quiet", "name: Ebba Strand\nmentions: false",
	)
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"mid-sentence name",
			"She sailed with Corwin. Later, Corwin slept. They woke Corwin at dawn.",
			[]string{"Corwin×3"}},
		{"sentence-initial does not count",
			"Corwin sailed. Corwin slept. “Corwin!” she cried. Corwin woke.",
			[]string{}},
		{"a word that opens sentences is no name, capitalized mid-sentence now and then",
			strings.Repeat("Но она ушла. Он ждал. ", 15) + "Я люблю Но, ради бога. Он сказал «Но нет». Ты знаешь Но тоже.",
			[]string{}},
		{"a Russian name's other cases are one suggestion, counted together",
			strings.Repeat("Она ждала, и пришёл Петрицкий. Вчера она говорила с Петрицким. Все ждали Петрицкого. ", 3),
			[]string{"Петрицкий×9"}},
		{"a Russian name's other cases, its nominative never suggested, are one suggestion of it",
			strings.Repeat("Они ехали в Москву. Он жил в Москве. Письмо из Москвы пришло. ", 3),
			[]string{"Москва×9"}},
		{"the nominative the book writes wins",
			strings.Repeat("Они жили около Петербурга. Он жил в Петербурге. ", 3) + "Они ехали в Петербург.",
			[]string{"Петербург×7"}},
		{"the nominative suggested wins a tie",
			strings.Repeat("Тогда Ласка побежала. Он видел Ласку. ", 3),
			[]string{"Ласка×6"}},
		{"a name opening sentences as often is still one",
			strings.Repeat("Корвин ушёл. Она ждала Корвин. ", 4) + "Корвин ушёл.",
			[]string{"Корвин×9"}},
		{"after ! ? … and a closing quote",
			"Go! Corwin ran. Why? Corwin ran. Wait… Corwin ran. “Go.” Corwin ran.",
			[]string{}},
		{"dialogue line and dash",
			"—Corwin, come here.\n“Corwin,” she said.\n‘Corwin,’ she said.",
			[]string{}},
		{"soft-wrapped line is not a sentence start",
			"the boat of\nCorwin and the oars of\nCorwin and the net of\nCorwin",
			[]string{"Corwin×3"}},
		// Tallis is used bare three times mid-sentence; an entry of him
		// would count the titled uses too.
		{"title abbreviation keeps the sentence going",
			"She met Mr. Tallis, then Dr. Tallis, then St. Tallis, then Tallis, Tallis, Tallis.",
			[]string{"Tallis×6"}},
		{"initials keep the sentence going",
			"by J. Tallis and by R. Tallis and by K. Tallis",
			[]string{"Tallis×3"}},
		{"a lower-case letter or I ends a sentence",
			"she had a. Tallis came, braver than I. Tallis went, plan a. Tallis ate",
			[]string{}},
		{"pair", "rowing to Port Caddow, past Port Caddow, home from Port Caddow",
			[]string{"Port Caddow×3"}},
		{"pair of common words never in lower case", "she reached the Old Harbor, the Old Harbor, the Old Harbor",
			[]string{"Old Harbor×3"}},
		{"pair of common words also in lower case", "she reached the Old Harbor, the Old Harbor, the Old Harbor by the old harbor",
			[]string{}},
		{"sentence-initial pair leaves its second word", "Port Caddow slept. Port Caddow woke. Port Caddow ate.",
			[]string{"Caddow×3"}},
		{"a title before a whole name", "met Lord Alaric Fenn, Lord Alaric Fenn, and Lord Alaric Fenn",
			[]string{"Alaric Fenn×3"}},
		// Neither word alone is what an entry would find: each is beside
		// another unknown name, so the mention scan counts it for no one.
		{"three words stand alone", "met Gray Alaric Fenn, Gray Alaric Fenn, and Gray Alaric Fenn",
			[]string{}},
		{"common words are not names", "in March the Captain said Hope and Faith were English",
			[]string{}},
		{"I is not part of a name", "told Corwin I would, asked Corwin I think, saw Corwin I guess",
			[]string{"Corwin×3"}},
		{"contractions", "and I'm sure, and I'd go, and I've seen, and Isn't it, and Don't",
			[]string{}},
		{"possessive joins its name", "with Corwin's oar, and Corwin’s net, and Corwin",
			[]string{"Corwin×3"}},
		{"possessive ends a pair", "the Corwin's Boat and Corwin's Boat and Corwin's Boat, a boat",
			[]string{"Corwin×3"}},
		{"shouting alone is not a name", "she yelled STOP and KRAKEN and KRAKEN and KRAKEN",
			[]string{}},
		{"shouting counts for a name written normally", "the Kraken rose, the KRAKEN roared, the KRAKEN sank",
			[]string{"Kraken×3"}},
		{"mentions are tracked", "saw Mara, Mara Vell, and Mara",
			[]string{}},
		{"words of known names are tracked", "saw Vell and Vell and Vell, and a Greyhand and a Greyhand and a Greyhand",
			[]string{}},
		{"entries without mentions still have names", "saw Ebba and Ebba and Ebba",
			[]string{}},
		{"lone letters are not names", "plan B and plan B and plan B",
			[]string{}},
		{"below the minimum", "met Corwin and Corwin",
			[]string{}},
		{"headings are skipped", "# Corwin\n\n## Corwin\n\n### Corwin\n\nand then Corwin",
			[]string{}},
		{"code is skipped", "wrote `Corwin` and `Corwin`\n\n```\nx Corwin\n```\n\nand Corwin",
			[]string{}},
		{"after a heading a paragraph begins", "## Part\nCorwin slept.\n\n## Part\nCorwin woke.\n\n## Part\nCorwin ate.",
			[]string{}},
		{"list items begin sentences", "- Corwin\n- Corwin\n- Corwin\n1. Corwin",
			[]string{}},
		{"parenthesis keeps a sentence start", "It ended. (Corwin ran.) It ended. (Corwin ran.) It ended. (Corwin ran.)",
			[]string{}},
		{"emphasis", "the *Hesper* sailed, the _Hesper_ sank, the **Hesper** rose",
			[]string{"Hesper×3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, untrackedIn(t, cat, UntrackedMinCount, tt.text))
		})
	}
}

// A known name after a title its entry is never given, where the codex
// writes it with another, is someone else of the family: offered.
func TestUntrackedOffersAnotherTitle(t *testing.T) {
	cat := catalogOf(t, "leonce", "name: Léonce Pontellier\naliases: [Mr. Pontellier, Pontellier]")
	got := untrackedIn(t, cat, UntrackedMinCount, "then Mrs. Pontellier, and Mrs. Pontellier, and Pontellier, and Mrs. Pontellier")
	assert.Equal(t, []string{"Mrs. Pontellier×3"}, got)
}

func TestUntrackedPairAcrossTheLine(t *testing.T) {
	// A name wraps onto the next line of hard-wrapped prose, or takes
	// two spaces, as the mention scan reads it: one name, three times.
	got := untrackedIn(t, codex.NewCatalog(nil, nil), 1, "to Port  Caddow, to Port\nCaddow, to Port Caddow")
	assert.Equal(t, []string{"Port Caddow×3"}, got)
	got = untrackedIn(t, codex.NewCatalog(nil, nil), 1, "to Mrs.\nCaddow, to Mrs. Caddow, to Mrs.\r\nCaddow")
	assert.Equal(t, []string{"Mrs. Caddow×3"}, got)
}

func TestUntrackedFoldsAWordIntoItsName(t *testing.T) {
	cat := catalogOf(t, "mara", "name: Mara Vell\naliases: [Mara]")
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"a given name into the whole name", "then Carl came, and Carl left, with Carl Linstrum.", []string{"Carl×3 aka Carl Linstrum"}},
		{"into the most used pair", "then Carl came, Carl Linstrum and Carl Linstrum and Carl Berg.", []string{"Carl Linstrum×3 aka Carl"}},
		{"not into a pair whose other word is used alone more", "then Darcy came, and Darcy left, and Darcy sat with Georgiana Darcy, then Georgiana, Georgiana, Georgiana.", []string{"Darcy×3", "Georgiana×3"}},
		{"two names side by side are no pair", "from London Lydia came; then Lydia, Lydia, Lydia, and London, London", []string{"Lydia×3"}},
		{"into a title's pair", "then Aunt Polly came, and Polly, and Polly", []string{"Polly×3 aka Aunt Polly"}},
		// Miss Darcy is not Darcy's alias, but an entry of Darcy alone
		// would find her too.
		{"not into a title's pair for a word used far more alone", "then Darcy, Darcy, Darcy, and Darcy came with Miss Darcy", []string{"Darcy×5"}},
		{"not into a title's pair for a word used far less alone", "then Catherine and Catherine and Catherine, and Lady Catherine " + strings.Repeat("and Lady Catherine ", 24),
			[]string{"Lady Catherine×25", "Catherine×3 not Lady Catherine"}},
		{"titles, honorifics and peoples are no names", "then Esq and his Ladyship, two Englishmen and an Indian, and Esq, Ladyship, Englishmen, Indian; Esq, Ladyship, Englishmen, Indian", []string{}},
		{"a known name's family", "then the Maras came, the Maras left, the Maras stayed", []string{}},
		// The Corwins are no mention of an entry for Corwin: not counted.
		{"an untracked name's family", "then Corwin came, and the Corwins left, and Corwin stayed, and Corwin slept", []string{"Corwin×3"}},
		{"a family of a name used less is a name", "then Corwin came, and the Corwins left, and the Corwins stayed, and the Corwins slept", []string{"Corwins×3"}},
		{"months and days are dates", "in June, in June, in June, on a Sunday, of Sundays, and Sunday", []string{}},
		{"feasts and the New Year are dates", "at Michaelmas, at Michaelmas, at Michaelmas, at Christmas, at Christmas, at Christmas, by the New Year, the New Year, the New Year", []string{}},
		{"a word joined to lower case", "it was Mig-u-ell, Mig-u-ell, and Mig-u-ell", []string{}},
		{"an everyday word never in lower case", "then my sister Rose came, and Rose left, and Rose stayed", []string{"Rose×3"}},
		{"an everyday word also in lower case", "then my sister Rose came, and Rose left, and Rose stayed by a rose", []string{}},
		{"two everyday words never in lower case", "at Maple Grove, to Maple\nGrove, from Maple Grove", []string{"Maple Grove×3"}},
		{"two everyday words also so in lower case", "at Maple Grove, to Maple Grove, from Maple Grove, by a maple grove", []string{}},
		{"words of reverence and address", "thank God, and God, and God, and Mamma, Mamma, Mamma", []string{}},
		{"a title and its full stop are part of a name", "then Mr. Tallis, and Mr. Tallis. Mr. Tallis came.", []string{"Mr. Tallis×3"}},
		{"a title tells a family apart", "then Mr. Tallis, and Mrs. Tallis, Mrs. Tallis, Mrs. Tallis and Tallis", []string{"Mrs. Tallis×4 aka Tallis"}},
		{"a known name with a title the codex does not give it", "then Mrs. Vell, and Mrs. Vell, and Mrs. Vell", []string{"Mrs. Vell×3"}},
		{"a quotation opened mid-sentence", "she said, “Corwin is here,” and, “Corwin left,” and, “Corwin ate.”", []string{"Corwin×3"}},
		// The quotation's first word is capitalized as its sentence's:
		// an everyday word there is no part of the name after it.
		{"an article opening a quotation", "then the Moonstone came, the Moonstone went, the Moonstone stayed, and he said--\"The Moonstone will go.\"", []string{"Moonstone×4"}},
		{"an everyday word opening a quotation", "then Corwin came, and Corwin left, and she said, “Tell Corwin to stay.”", []string{"Corwin×3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, untrackedIn(t, cat, UntrackedMinCount, tt.text))
		})
	}
}

// A name first written after a quotation's article is first used there,
// under its own name, not the article's pair.
func TestUntrackedFirstUseAfterAQuotedArticle(t *testing.T) {
	text := "# One\n\nHe said--\"The Moonstone will go.\" Then the Moonstone came, the Moonstone went, the Moonstone stayed.\n"
	ix := BuildMentionIndex(NewMatcher(codex.NewCatalog(nil, nil)), []*Unit{chapter("manuscript/01.md", 1, text)})
	got := ix.Untracked(UntrackedMinCount)
	require.Len(t, got, 1)
	at := strings.Index(text, "Moonstone")
	assert.Equal(t, Untracked{Name: "Moonstone", Count: 4, First: FirstSeen{Path: "manuscript/01.md", Range: codex.Range{Start: at, End: at + len("Moonstone")}}, Units: 1}, got[0])
}

func TestUntrackedAcrossUnits(t *testing.T) {
	cat := catalogOf(t, "mara", "name: Mara Vell\naliases: [Mara]")
	texts := []string{
		"# One\n\nThe KRAKEN woke. Mara saw the Hesper leave.\n",
		"# Two\n\nThe Hesper came back with the Kraken behind it, and Corwin.\n",
		"# Three\n\nNo ships. Then the Hesper again, and the Kraken, and Corwin.\n",
	}
	var units []*Unit
	for i, text := range texts {
		units = append(units, chapter("manuscript/0"+strconv.Itoa(i+1)+".md", i+1, text))
	}
	ix := BuildMentionIndex(NewMatcher(cat), units)
	got := ix.Untracked(1)
	require.Len(t, got, 3)
	hesper := strings.Index(texts[0], "Hesper")
	assert.Equal(t, Untracked{Name: "Hesper", Count: 3, First: FirstSeen{Path: "manuscript/01.md", Range: codex.Range{Start: hesper, End: hesper + 6}}, Units: 3}, got[0])
	// The shouted KRAKEN counts, but the name is spelled and located as
	// it is first written normally.
	kraken := strings.Index(texts[1], "Kraken")
	assert.Equal(t, Untracked{Name: "Kraken", Count: 3, First: FirstSeen{Path: "manuscript/02.md", Range: codex.Range{Start: kraken, End: kraken + 6}}, Units: 3}, got[1])
	assert.Equal(t, "Corwin", got[2].Name)
	assert.Equal(t, 2, got[2].Count)

	// Incremental: dropping a chapter drops its names.
	without := ix.Without("manuscript/03.md")
	assert.Empty(t, without.Untracked(3))
	assert.Equal(t, []string{"Hesper", "Kraken"}, untrackedNames(without.Untracked(2)))
	assert.Empty(t, ix.Untracked(4))
}

func TestUntrackedRealProse(t *testing.T) {
	// From the sample book: the ship Hesper has no entry; everyone else
	// does, or is only ever named at the start of a sentence.
	text := `The lamp in the Tally House burned low and steady, and Teodora Quill wrote by it.

“Sorry, Teo. Sorry. Warden Strand sent me the long way round.”

She copied both figures into the margin of the Brass Ledger. A little later a single
masthead lamp came round the point: *the Hesper, Greyhand trader, in at the first
hour and a quarter, unannounced.*

Then there was the Hesper. She had written *in at the first hour*. But the chain
log, kept by a different clerk at the boom, had the Hesper pass the chain at the
second. Corwin had drifted over. “Put that away, Corwin,” said Betts sharply.
`
	cat := catalogOf(t,
		"teo", "name: Teodora Quill\naliases: [Teo, the Tallywoman]",
		"ebba", "name: Ebba Strand\naliases: [Warden Strand]",
		"tally", "type: organization\nname: Harbor Tally\naliases: [the Tally, the Tally House]",
		"ledger", "type: item\nname: Brass Ledger",
		"greyhands", "type: organization\nname: Greyhand Company",
		"betts", "name: Bettany Crewe\naliases: [Betts]",
	)
	assert.Equal(t, []string{"Hesper×3"}, untrackedIn(t, cat, UntrackedMinCount, text))
	// Corwin also opens a sentence: an entry would count that too.
	assert.Equal(t, []string{"Hesper×3", "Corwin×2"}, untrackedIn(t, cat, 1, text))
}

func untrackedNames(us []Untracked) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}

func TestIsCommonish(t *testing.T) {
	for _, w := range []string{"isn't", "don't", "won't", "ma'am", "harbor", "they're"} {
		assert.True(t, isCommonish(w), w)
	}
	for _, w := range []string{"o'brien", "d'arcy", "caddow", "'tis"} {
		assert.False(t, isCommonish(w), w)
	}
}

// The finder's tallies, by key: uses written normally, shouted, and
// written as a piece of a longer name.
func TestUntrackedTallies(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       map[string][3]int
	}{
		{"a title wrapped onto the next line", "then Mrs.\nBennet came, and Mrs.\r\nBennet", map[string][3]int{"mrs bennet": {2, 0, 0}}},
		{"two names wrapped are a pair, as on one line", "then Corwin\nVarro came", map[string][3]int{"corwin varro": {1, 0, 0}}},
		{"two names a blank line parts are no pair", "then Corwin\n\nVarro came", map[string][3]int{"corwin": {1, 0, 0}}},
		{"a title before a whole name", "then Miss Elizabeth Bennet came", map[string][3]int{"elizabeth bennet": {1, 0, 0}}},
		{"three names are pieces", "then Gray Alaric Fenn came", map[string][3]int{"alaric": {1, 0, 1}, "fenn": {1, 0, 1}}},
		{"a pair cut by a sentence's start", "Elizabeth Bennet came.", map[string][3]int{"bennet": {1, 0, 1}}},
		{"after a title in lower case", "then my aunt Phillips came", map[string][3]int{"phillips": {1, 0, 1}}},
		{"bare", "then Phillips came, and PHILLIPS", map[string][3]int{"phillips": {1, 1, 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := chapter("manuscript/a.md", 1, tt.text)
			got := map[string][3]int{}
			for k, n := range findUntracked(NewMatcher(nil), u, u.BodyRange(), nil) {
				got[k] = [3]int{n.count, n.shouted, n.pieces}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
