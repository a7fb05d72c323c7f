package manuscript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// parseEntry parses one codex entry from its front matter, as the codex
// reads it from disk.
func parseEntry(t testing.TB, id, frontMatter string) *codex.Entry {
	t.Helper()
	e, problems := codex.Parse(id, []byte("---\n"+frontMatter+"\n---\n"), "character")
	require.NotNil(t, e, "entry %s", id)
	require.Empty(t, problems, "entry %s", id)
	return e
}

// catalogOf builds a catalog from id → front matter pairs.
func catalogOf(t testing.TB, idAndFrontMatter ...string) *codex.Catalog {
	t.Helper()
	require.Zero(t, len(idAndFrontMatter)%2)
	var entries []*codex.Entry
	for i := 0; i < len(idAndFrontMatter); i += 2 {
		entries = append(entries, parseEntry(t, idAndFrontMatter[i], idAndFrontMatter[i+1]))
	}
	return codex.NewCatalog(entries, nil)
}

// seen is a mention as a test states it: the entry and the text its
// range covers.
type seen struct {
	entry, text string
	alias       bool
	others      []string
}

func seenIn(text string, mentions []Mention) []seen {
	out := []seen{}
	for _, m := range mentions {
		out = append(out, seen{entry: m.Entry, text: text[m.Range.Start:m.Range.End], alias: m.Alias, others: m.Others})
	}
	return out
}

// harbor is a small codex with the kinds of names the rules are about.
func harbor(t testing.TB) *codex.Catalog {
	return catalogOf(t,
		"mara", "name: Mara Vell\naliases: [Mara, the Harbor Witch]",
		"ilse", "name: Ilse Dorn\naliases: [Ilse]",
		"hope", "name: Hope\nexclude: [Hope Street]",
		"hope-street", "type: location\nname: Hope Street",
		"lantern", "type: organization\nname: the Lantern",
		"will", "name: Will Oyelaran\naliases: [Will]",
		"moss", "name: Moss Kettering\naliases: [Moss]",
		"severine", "name: Séverine Aubrac\naliases: [Séverine]",
		"thomas", "name: Thomas",
		"obrien", "name: Aidan O'Brien\naliases: [O'Brien]",
		"agnes", "type: location\nname: St. Agnes",
		"jeanluc", "name: Jean-Luc Ferrand\naliases: [Jean-Luc]",
		"quiet", "name: Ebba Strand\nmentions: false",
		"caterpillar", "name: The Caterpillar",
	)
}

func TestScan(t *testing.T) {
	m := NewMatcher(harbor(t))
	tests := []struct {
		name string
		text string
		want []seen
	}{
		{"word boundaries", "Maradona and Tamara waved at Mara.",
			[]seen{{entry: "mara", text: "Mara", alias: true}}},
		{"no name inside a hyphenated compound", "a Mara-like calm, the Vell-Dorn house, Ilse-",
			[]seen{{entry: "ilse", text: "Ilse", alias: true}}},
		{"digits are word runes", "Mara2 and 2Mara are robots", []seen{}},
		{"case as the codex writes it, or capitals", "mara and MARA and Mara",
			[]seen{{entry: "mara", text: "MARA", alias: true}, {entry: "mara", text: "Mara", alias: true}}},
		{"diacritics folded", "Severine met SÉVERINE AUBRAC and séverine",
			[]seen{{entry: "severine", text: "Severine", alias: true}, {entry: "severine", text: "SÉVERINE AUBRAC"}}},
		{"combining accent", "Se\u0301verine laughed.",
			[]seen{{entry: "severine", text: "Se\u0301verine", alias: true}}},
		{"common-word name needs its capital", "Hope arrived. We hope she stays; hope is cheap.",
			[]seen{{entry: "hope", text: "Hope"}}},
		{"common-word alias needs its capital", "Will said you will see. Moss grew moss.",
			[]seen{{entry: "will", text: "Will", alias: true}, {entry: "moss", text: "Moss", alias: true}}},
		{"all capitals keep the capital", "HOPE, she wrote.",
			[]seen{{entry: "hope", text: "HOPE"}}},
		{"only capitalized words need capitals", "the Lantern met. The Lantern met. the lantern burned.",
			[]seen{{entry: "lantern", text: "the Lantern"}, {entry: "lantern", text: "The Lantern"}}},
		{"a name's capitalized article is the sentence's inside it", "said the Caterpillar. The Caterpillar smiled.",
			[]seen{{entry: "caterpillar", text: "Caterpillar", alias: true}, {entry: "caterpillar", text: "The Caterpillar"}}},
		{"possessive straight", "Mara's boat",
			[]seen{{entry: "mara", text: "Mara", alias: true}}},
		{"possessive curly", "Mara’s boat and Ilse’s",
			[]seen{{entry: "mara", text: "Mara", alias: true}, {entry: "ilse", text: "Ilse", alias: true}}},
		{"possessive after s", "Thomas' coat and Thomas's hat",
			[]seen{{entry: "thomas", text: "Thomas"}, {entry: "thomas", text: "Thomas"}}},
		{"possessive of a full name", "Mara Vell's ledger",
			[]seen{{entry: "mara", text: "Mara Vell"}}},
		{"contractions are clitics too", "Mara'd gone and Ilse'll follow",
			[]seen{{entry: "mara", text: "Mara", alias: true}, {entry: "ilse", text: "Ilse", alias: true}}},
		{"apostrophe inside a name", "O'Brien, O’Brien’s oar, and Aidan O’Brien",
			[]seen{{entry: "obrien", text: "O'Brien", alias: true}, {entry: "obrien", text: "O’Brien", alias: true}, {entry: "obrien", text: "Aidan O’Brien"}}},
		{"apostrophe-like words do not match", "Mara'sk and d'Mara", []seen{}},
		{"longest match", "Mara Vell sailed",
			[]seen{{entry: "mara", text: "Mara Vell"}}},
		{"name wraps a line", "she saw Mara\nVell at the rail",
			[]seen{{entry: "mara", text: "Mara\nVell"}}},
		{"name wraps a CRLF line", "Mara\r\nVell",
			[]seen{{entry: "mara", text: "Mara\r\nVell"}}},
		{"extra spaces", "Mara  \t Vell",
			[]seen{{entry: "mara", text: "Mara  \t Vell"}}},
		{"not across a paragraph", "It was Mara\n\nVell came later",
			[]seen{{entry: "mara", text: "Mara", alias: true}}},
		{"not across punctuation", "It was Mara. Vell came later",
			[]seen{{entry: "mara", text: "Mara", alias: true}}},
		{"nor emphasis", "*Mara* Vell",
			[]seen{{entry: "mara", text: "Mara", alias: true}}},
		{"a title's full stop may be left out", "at St. Agnes, and St Agnes, not St, Agnes",
			[]seen{{entry: "agnes", text: "St. Agnes"}, {entry: "agnes", text: "St Agnes"}}},
		{"hyphen in a name", "Jean-Luc and Jean Luc",
			[]seen{{entry: "jeanluc", text: "Jean-Luc", alias: true}}},
		{"multi-word alias", "they called her the Harbor Witch",
			[]seen{{entry: "mara", text: "the Harbor Witch", alias: true}}},
		{"exclusion consumes", "on Hope Street, Hope waited",
			[]seen{{entry: "hope-street", text: "Hope Street"}, {entry: "hope", text: "Hope"}}},
		{"mentions false", "Ebba Strand watched", []seen{}},
		{"invalid UTF-8 stops a name", "Mara\xffVell and Mara \xff Vell",
			[]seen{{entry: "mara", text: "Mara", alias: true}, {entry: "mara", text: "Mara", alias: true}}},
		{"empty", "", []seen{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, seenIn(tt.text, m.Scan(tt.text)))
		})
	}
}

func TestScanPrecedence(t *testing.T) {
	cat := catalogOf(t,
		"a-teo", "name: Teodora Quill\naliases: [Teo]",
		"b-teo", "name: Teo",
		"c-twin", "name: Ada Pell\naliases: [the Twins]",
		"d-twin", "name: Ida Pell\naliases: [the Twins]",
		"e-ash", "name: Ash",
		"f-ash", "name: Ash",
		"g-gull", "name: Gull\nexclude: [Gull Rock]",
		"h-gull", "name: Gull Keeper\naliases: [Gull]",
	)
	m := NewMatcher(cat)
	tests := []struct {
		name string
		text string
		want []seen
	}{
		{"a name another entry has as its alias is ambiguous, the name first", "Teo smiled", []seen{{entry: "b-teo", text: "Teo", others: []string{"a-teo"}}}},
		{"duplicate alias", "the Twins ran", []seen{{entry: "c-twin", text: "the Twins", alias: true, others: []string{"d-twin"}}}},
		{"duplicate name", "Ash burned", []seen{{entry: "e-ash", text: "Ash", others: []string{"f-ash"}}}},
		{"exclusion leaves other entries", "Gull Rock", []seen{}},
		{"exclusion only for its entry", "Gull flew", []seen{{entry: "g-gull", text: "Gull", others: []string{"h-gull"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, seenIn(tt.text, m.Scan(tt.text)))
		})
	}
}

func TestScanExcludeFallsBackToAlias(t *testing.T) {
	// Excluding a phrase that is also another entry's alias hands it to
	// that entry.
	cat := catalogOf(t,
		"a", "name: Rook\nexclude: [the Rook]",
		"b", "name: Bram Lusk\naliases: [the Rook]",
	)
	got := NewMatcher(cat).Scan("the Rook and Rook")
	assert.Equal(t, []seen{{entry: "b", text: "the Rook", alias: true}, {entry: "a", text: "Rook"}}, seenIn("the Rook and Rook", got))
}

func TestScanEmptyMatcher(t *testing.T) {
	assert.Empty(t, NewMatcher(nil).Scan("Mara Vell"))
	assert.Empty(t, NewMatcher(codex.NewCatalog(nil, nil)).Scan("Mara Vell"))
}

func TestScanIgnoresPunctuationOnlyNames(t *testing.T) {
	cat := codex.NewCatalog([]*codex.Entry{
		{ID: "dash", Type: codex.TypeConcept, Name: "—", Mentions: true},
		{ID: "empty", Type: codex.TypeConcept, Name: "   ", Aliases: []string{""}, Mentions: true},
	}, nil)
	assert.Empty(t, NewMatcher(cat).Scan("a — b"))
}

func TestScanRealProse(t *testing.T) {
	text := `The lamp in the Tally House burned low, and Teodora Quill wrote by it.
Moss Kettering came in with the tide-sheet. “Sorry, Teo. Warden Strand
sent me the long way round.” Moss dropped onto the bench; moss grew on
the pilings outside. Teodora’s hand was not quite steady.`
	cat := catalogOf(t,
		"teo", "name: Teodora Quill\naliases: [Teo, Teodora]",
		"moss", "name: Moss Kettering\naliases: [Moss]",
		"ebba", "name: Ebba Strand\naliases: [Warden Strand]",
		"tally", "type: location\nname: the Tally House\naliases: [the Tally]",
	)
	want := []seen{
		{entry: "tally", text: "the Tally House"},
		{entry: "teo", text: "Teodora Quill"},
		{entry: "moss", text: "Moss Kettering"},
		{entry: "teo", text: "Teo", alias: true},
		{entry: "ebba", text: "Warden Strand", alias: true},
		{entry: "moss", text: "Moss", alias: true},
		{entry: "teo", text: "Teodora", alias: true},
	}
	assert.Equal(t, want, seenIn(text, NewMatcher(cat).Scan(text)))
}

func TestMatcherIsNameWord(t *testing.T) {
	m := NewMatcher(harbor(t))
	for _, w := range []string{"mara", "vell", "harbor", "witch", "o'brien", "severine", "strand", "ebba"} {
		assert.True(t, m.IsNameWord(w), w)
	}
	for _, w := range []string{"lamp", "Mara", "caddow", ""} {
		assert.False(t, m.IsNameWord(w), w)
	}
}

func TestAppendWordKeyAgreesWithNormalize(t *testing.T) {
	text := "Mara O’Brien Séverine ǅemal ﬁnch İstanbul Øresund STRAẞE Maraʼs naïve Ångström d’Arcy 東京"
	tok := proseTokenizer{text: text}
	var tk proseToken
	n := 0
	for tok.next(&tk) {
		if tk.kind != proseWord {
			continue
		}
		word := text[tk.start:tk.end]
		assert.Equal(t, codex.Normalize(word), string(appendWordKey(nil, word)), word)
		n++
	}
	assert.Equal(t, 13, n)
}

func TestTokenizer(t *testing.T) {
	text := "“Mara’s—\n\nO'Brien,” Jean-Luc said. Thomas'\xff"
	type tk struct {
		kind       proseTokenKind
		text       string
		stem       string
		upper      bool
		lineBreaks int
	}
	var got []tk
	tok := proseTokenizer{text: text}
	var x proseToken
	for tok.next(&x) {
		stem := ""
		if x.stem > 0 {
			stem = text[x.start:x.stem]
		}
		got = append(got, tk{x.kind, text[x.start:x.end], stem, x.upper, x.lineBreaks})
	}
	want := []tk{
		{prosePunct, "“", "", false, 0},
		{proseWord, "Mara’s", "Mara", true, 0},
		{prosePunct, "—", "", false, 0},
		{proseWord, "O'Brien", "", true, 2},
		{prosePunct, ",", "", false, 0},
		{prosePunct, "”", "", false, 0},
		{proseWord, "Jean", "", true, 0},
		{prosePunct, "-", "", false, 0},
		{proseWord, "Luc", "", true, 0},
		{proseWord, "said", "", false, 0},
		{prosePunct, ".", "", false, 0},
		{proseWord, "Thomas", "", true, 0},
		{prosePunct, "'", "", false, 0},
		{proseInvalid, "\xff", "", false, 0},
	}
	assert.Equal(t, want, got)
}

func TestScanHugeInput(t *testing.T) {
	m := NewMatcher(harbor(t))
	// One enormous word, one enormous run of punctuation and a long name
	// chain: nothing may panic or go quadratic.
	text := strings.Repeat("a", 1<<20) + " " + strings.Repeat("—", 1<<18) + " " + strings.Repeat("Mara Vell ", 1<<14)
	got := m.Scan(text)
	require.Len(t, got, 1<<14)
	for _, mention := range got {
		require.Equal(t, "Mara Vell", text[mention.Range.Start:mention.Range.End])
	}
}

func TestCommonWords(t *testing.T) {
	for _, w := range []string{"hope", "will", "moss", "lantern", "the", "cafe", "fiancee", "i", "monday", "mr", "english", "ok", "captain", "lady"} {
		assert.True(t, isCommonWord(w), w)
	}
	for _, w := range []string{"Hope", "mara", "caddow", "teodora", "café", "", "o'brien"} {
		assert.False(t, isCommonWord(w), w)
	}
	// The list is real SCOWL, not a handful of words.
	assert.Greater(t, len(commonWords()), 40000)
}

func TestCommonWordListCarriesLicense(t *testing.T) {
	assert.Contains(t, commonWordList, "Copyright 2000-2016 by Kevin Atkinson")
	assert.Contains(t, commonWordList, "Permission to use, copy, modify, distribute and sell these word")
	for line := range strings.Lines(commonWordList) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "#") {
			continue
		}
		require.True(t, utf8.ValidString(line) && line != "" && line == strings.ToLower(line) && !strings.ContainsAny(line, " \t"), "bad line %q", line)
	}
}

func TestScanBoundsNameLength(t *testing.T) {
	words := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("Zed")
		}
		return b.String()
	}
	cat := codex.NewCatalog([]*codex.Entry{
		{ID: "long", Type: codex.TypeConcept, Name: words(maxFormTokens), Mentions: true},
		{ID: "too-long", Type: codex.TypeConcept, Name: words(maxFormTokens + 1), Mentions: true},
	}, nil)
	text := words(maxFormTokens + 1)
	got := NewMatcher(cat).Scan(text)
	require.Len(t, got, 1)
	assert.Equal(t, "long", got[0].Entry)
	assert.Equal(t, codex.Range{Start: 0, End: len(words(maxFormTokens))}, got[0].Range)
}

// An ID's place is its index among the matcher's sorted IDs, searched
// from a place on; an ID the matcher does not find has none.
func TestMatcherPlaceOf(t *testing.T) {
	m := &Matcher{ids: []string{"codex/a.md", "codex/b.md", "codex/c.md", "codex/d.md"}}
	tests := []struct {
		id    string
		from  int32
		place int32
		ok    bool
	}{
		{"codex/a.md", 0, 0, true},
		{"codex/c.md", 0, 2, true},
		{"codex/c.md", 2, 2, true},
		{"codex/d.md", 1, 3, true},
		{"codex/bb.md", 0, 0, false},
		{"codex/z.md", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		place, ok := m.placeOf(tt.id, tt.from)
		assert.Equal(t, tt.ok, ok, tt.id)
		if tt.ok {
			assert.Equal(t, tt.place, place, tt.id)
		}
	}
}

// A name used in a way that may name someone else is uncertain: Scan
// leaves it out, ScanAll keeps it marked.
func TestScanJudgesHowANameIsUsed(t *testing.T) {
	m := NewMatcher(catalogOf(t,
		"anthony", "name: Anthony Patch\naliases: [Anthony]",
		"pendleton", "name: Judy Pendleton\naliases: [Pendleton]",
		"maule", "name: Matthew Maule\naliases: [Maule]",
		"usher", "name: Roderick Usher\naliases: [Usher]",
		"darcy", "name: Mr. Darcy",
		"dewinter", "name: Maxim de Winter\naliases: [de Winter]",
		"herod", "name: Herod",
		"jarndyce", "name: Jarndyce & Co.",
		"lyle", "name: Edmund Bertram Lyle\naliases: [Edmund]",
		"leonce", "name: Léonce Pontellier\naliases: [Mr. Pontellier, Pontellier]",
	))
	tests := []struct {
		name            string
		text            string
		certain, unsure []string
	}{
		{"an unknown surname after", "the efforts of Anthony Comstock, and Anthony laughed", []string{"Anthony"}, []string{"Anthony"}},
		{"a longer name the text leaves", "the works of Edmund Bertram, then Edmund wept. Edmund Bertram Lyle came.", []string{"Edmund", "Edmund Bertram Lyle"}, []string{"Edmund"}},
		{"a title the codex gives the name only otherwise", "Mrs. Pontellier sewed; Mr. Pontellier and Pontellier read. Mrs Pontellier too.", []string{"Mr. Pontellier", "Pontellier"}, []string{"Pontellier", "Pontellier"}},
		{"a known word after is no surname", "Anthony I think. Anthony Patch came.", []string{"Anthony", "Anthony Patch"}, nil},
		{"an unknown given name before", "his son, Arnold Pendleton, and Pendleton", []string{"Pendleton"}, []string{"Pendleton"}},
		{"a modifier", "the Pendleton family; Maule's Lane; Maule's house", []string{"Maule"}, []string{"Pendleton", "Maule"}},
		{"the house of is the person", "the House of Usher, and Usher", []string{"Usher", "Usher"}, nil},
		{"a title without its full stop", "Mr Darcy bowed to Mr. Darcy", []string{"Mr Darcy", "Mr. Darcy"}, nil},
		{"a lower-case word capitalized by a sentence", "De Winter smiled. Then de Winter and De Winter left.", []string{"De Winter", "de Winter"}, nil},
		{"capitals say nothing of use", "ANTHONY COMSTOCK", []string{"ANTHONY"}, nil},
		{"half of a compound is no given name", "he out-Heroded Herod, and Herod", []string{"Herod", "Herod"}, nil},
		{"an abbreviation's full stop ends the name", "wrote to Jarndyce & Co. The reply", []string{"Jarndyce & Co."}, nil},
		{"or is left out", "Jarndyce & Co were", []string{"Jarndyce & Co"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var certain, unsure []string
			for _, x := range m.ScanAll(tt.text) {
				s := tt.text[x.Range.Start:x.Range.End]
				if x.Uncertain {
					unsure = append(unsure, s)
				} else {
					certain = append(certain, s)
				}
			}
			assert.Equal(t, tt.certain, certain)
			assert.Equal(t, tt.unsure, unsure)
			var scanned []string
			for _, x := range m.Scan(tt.text) {
				scanned = append(scanned, tt.text[x.Range.Start:x.Range.End])
			}
			assert.Equal(t, tt.certain, scanned, "Scan leaves the uncertain out")
		})
	}
}

// An excluded phrase names nothing, and neither does a shorter name
// inside it: "Lady Catherine" excluded from Catherine is no mention of
// her, though "Catherine" alone is.
func TestScanExclusionHoldsTheNamesInside(t *testing.T) {
	cat := catalogOf(t,
		"kitty", "name: Catherine\nexclude: [Lady Catherine]",
		"hope", "name: Hope\nexclude: [Port of Hope]",
	)
	text := "Lady Catherine and Catherine sailed from the Port of Hope with Hope."
	assert.Equal(t, []seen{{entry: "kitty", text: "Catherine"}, {entry: "hope", text: "Hope"}}, seenIn(text, NewMatcher(cat).Scan(text)))
}
