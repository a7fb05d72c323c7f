package continuity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spellingBook is a book whose codex knows Séverine Aubrac and
// Bartholomew Crane, and whose first chapter names Séverine six times and
// Bartholomew and Carew five times each; the second chapter holds the
// words under test.
func spellingBook(t *testing.T, second string, opts Options) ([]Diagnostic, string) {
	t.Helper()
	first := "# One\n\n" + strings.Repeat("Séverine Aubrac came. Séverine laughed. ", 3) +
		strings.Repeat("Bartholomew slept. ", 5) + strings.Repeat("Carew stayed. ", 5) + "\n"
	root := writeBook(t, map[string]string{
		"codex/characters/severine.md":    "---\nname: Séverine Aubrac\naliases: [Séverine]\n---\n",
		"codex/characters/bartholomew.md": "---\nname: Bartholomew Crane\naliases: [Bartholomew]\n---\n",
		"codex/characters/carew.md":       "---\nname: Carew\n---\n",
		"codex/characters/marra.md":       "---\nname: Marra Lind\n---\n",
		"manuscript/01-one.md":            first,
		"manuscript/02-two.md":            "# Two\n\n" + second + "\n",
	})
	return nameSpellingIn(t, root, "manuscript/02-two.md", opts)
}

// nameSpellingIn opens the book at root and returns the name-spelling
// warnings of its chapter rel, and that chapter's text.
func nameSpellingIn(t *testing.T, root, rel string, opts Options) ([]Diagnostic, string) {
	t.Helper()
	tl, snap := openBook(t, root, opts)
	u, ok := snap.Unit(rel)
	require.True(t, ok)
	var out []Diagnostic
	for _, d := range Check(tl, u) {
		if d.Code == CodeNameSpelling {
			out = append(out, d)
		}
	}
	return out, u.Text
}

func TestNameSpelling(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		opts   Options
		flag   []string // the words flagged
		fix    []string // their fixes
		inText string   // a phrase of the first message
	}{
		{name: "a letter dropped", text: "Then Sevrine smiled.", flag: []string{"Sevrine"}, fix: []string{"Séverine"},
			inText: "“Sevrine” may be a misspelling of Séverine: the book names Séverine Aubrac 6 times, and writes “Sevrine” once"},
		{name: "two letters swapped, possessive kept out", text: "It was Sévernie's.", flag: []string{"Sévernie"}, fix: []string{"Séverine"}},
		{name: "at a sentence's start too", text: "Severnie came.", flag: []string{"Severnie"}, fix: []string{"Séverine"}},
		{name: "a name with a word elided after it is the name", text: "She has out-Bartholomew'd them; Séverine’d come, Bartholomew'll go.", flag: nil},
		{name: "a slip with a word elided after it, kept out", text: "Then Sevrine'll smile.", flag: []string{"Sevrine"}, fix: []string{"Séverine"}},
		{name: "two edits in a long name", text: "Old Batholomeu waved.", flag: []string{"Batholomeu"}, fix: []string{"Bartholomew"}},
		{name: "two edits in a short name are another name", text: "Then Kareu and Caerw came.", flag: []string{"Caerw"}, fix: []string{"Carew"}},
		{name: "an everyday word is no misspelling", text: "The Crew and the Cares came.", flag: nil},
		{name: "a family or a people of a name", text: "The Carews and a Carewan sailed.", flag: nil},
		{name: "a name the book keeps using is a name", text: "Sevrine came. Sevrine went. Sevrine stayed.", flag: nil},
		{name: "a name the book uses rarely gives no measure", text: "Then Mara came.", flag: nil},
		{name: "in lower case it is no name", text: "then sevrine came.", flag: nil},
		{name: "in capitals it is no name", text: "SEVRINE, said the sign.", flag: nil},
		{name: "a word the writer accepts", text: "Then Sevrine smiled.", opts: Options{Spelling: []string{"sevrine"}}, flag: nil},
		{name: "the check turned off", text: "Then Sevrine smiled.", opts: Options{Checks: map[string]Level{CodeNameSpelling: LevelOff}}, flag: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := spellingBook(t, tt.text, tt.opts)
			var words, fixes []string
			for _, d := range got {
				words = append(words, text[d.Range.Start:d.Range.End])
				fixes = append(fixes, d.Fix.NewText)
				assert.Equal(t, d.Range, d.Fix.Range)
			}
			assert.Equal(t, tt.flag, words)
			if tt.fix != nil {
				assert.Equal(t, tt.fix, fixes)
				assert.Equal(t, "Change to "+tt.fix[0], got[0].Fix.Title)
				assert.Equal(t, "codex/characters/"+map[string]string{"Séverine": "severine.md", "Bartholomew": "bartholomew.md", "Carew": "carew.md"}[tt.fix[0]], got[0].Entry)
			}
			if tt.inText != "" {
				assert.Equal(t, tt.inText, got[0].Message)
			}
		})
	}
}

// namesBook is a book of the codex files and the chapters given; the
// name-spelling warnings of its last chapter, and that chapter's text.
func namesBook(t *testing.T, codexFiles map[string]string, chapters ...string) ([]Diagnostic, string) {
	t.Helper()
	files := map[string]string{}
	for rel, src := range codexFiles {
		files["codex/characters/"+rel] = src
	}
	for i, text := range chapters {
		files[fmt.Sprintf("manuscript/%02d.md", i+1)] = fmt.Sprintf("# %d\n\n%s\n", i+1, text)
	}
	return nameSpellingIn(t, writeBook(t, files), fmt.Sprintf("manuscript/%02d.md", len(chapters)), Options{})
}

// A warning names the entry the word is nearest to with that entry's
// own uses, and every entry that shares a misspelled word, each with
// its own: never one entry with the others' uses added to it.
func TestNameSpellingNamesItsEntries(t *testing.T) {
	bingleys := map[string]string{
		"charles.md":  "---\nname: Charles Bingley\naliases: [Mr. Bingley]\n---\n",
		"caroline.md": "---\nname: Caroline Bingley\naliases: [Caroline]\n---\n",
	}
	bennets := map[string]string{
		"elizabeth.md": "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\n---\n",
		"jane.md":      "---\nname: Jane Bennet\naliases: [Jane]\n---\n",
		"lydia.md":     "---\nname: Lydia Bennet\naliases: [Lydia]\n---\n",
		"mary.md":      "---\nname: Mary Bennet\naliases: [Mary]\n---\n",
	}
	// Ada Brenna is listed before Ida Brenda, and is used less.
	brennas := map[string]string{
		"ada.md": "---\nname: Ada Brenna\n---\n",
		"ida.md": "---\nname: Ida Brenda\n---\n",
	}
	tests := []struct {
		name    string
		codex   map[string]string
		book    string
		slip    string
		message string
		entry   string
		fix     string
	}{
		{name: "a word two entries share", codex: bingleys,
			book: strings.Repeat("Mr. Bingley came. ", 10) + "Caroline sang.",
			slip: "Then Mr. Bingly left.",
			message: "“Bingly” may be a misspelling of Bingley: the book names Charles Bingley 10 times and Caroline Bingley once, " +
				"and writes “Bingly” once",
			entry: "codex/characters/charles.md", fix: "Bingley"},
		{name: "a word many entries share", codex: bennets,
			book: strings.Repeat("Elizabeth came. ", 9) + strings.Repeat("Jane came. ", 7) + strings.Repeat("Lydia came. ", 5) + "Mary came.",
			slip: "Then Mr. Bennit left.",
			message: "“Bennit” may be a misspelling of Bennet: the book names Elizabeth Bennet 9 times, Jane Bennet 7 times " +
				"and 2 others of that name 6 times, and writes “Bennit” once",
			entry: "codex/characters/elizabeth.md", fix: "Bennet"},
		{name: "as near to two names, the one the book uses more", codex: brennas,
			book:    strings.Repeat("Ida Brenda came. ", 8) + "Ada Brenna came.",
			slip:    "Then Brenka left.",
			message: "“Brenka” may be a misspelling of Brenda: the book names Ida Brenda 8 times, and writes “Brenka” once",
			entry:   "codex/characters/ida.md", fix: "Brenda"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := namesBook(t, tt.codex, tt.book, tt.slip)
			require.Len(t, got, 1)
			assert.Equal(t, tt.message, got[0].Message)
			assert.Equal(t, tt.entry, got[0].Entry)
			assert.Equal(t, tt.fix, got[0].Fix.NewText)
		})
	}
}

// A word the codex uses as a name is a name, everyday word or not, and a
// title before a word makes it one.
func TestNameSpellingNamesThatAreWords(t *testing.T) {
	people := map[string]string{
		"kitty.md":  "---\nname: Kitty Bennet\naliases: [Kitty]\n---\n",
		"louisa.md": "---\nname: Louisa Hurst\naliases: [Mrs. Hurst]\n---\n",
	}
	book := strings.Repeat("Kitty came. ", 8) + strings.Repeat("Mrs. Hurst came. ", 10)
	tests := []struct {
		name string
		slip string
		flag []string
		fix  []string
	}{
		{name: "misspellings of a name that is a word", slip: "Then Kittty left, and Kityt and Kitty's cat ran.",
			flag: []string{"Kittty", "Kityt"}, fix: []string{"Kitty", "Kitty"}},
		{name: "an everyday word after a title", slip: "Then Mrs. Hurts left, and Mr. Hurts too.",
			flag: []string{"Hurts", "Hurts"}, fix: []string{"Hurst", "Hurst"}},
		{name: "an everyday word with no title is the word", slip: "It hurts. Nothing Hurts so. Hurts, he said.", flag: nil},
		{name: "a title's word the codex has no name near", slip: "Then Mrs. Long left.", flag: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, people, book, tt.slip)
			var words, fixes []string
			for _, d := range got {
				words = append(words, text[d.Range.Start:d.Range.End])
				fixes = append(fixes, d.Fix.NewText)
			}
			assert.Equal(t, tt.flag, words)
			assert.Equal(t, tt.fix, fixes)
		})
	}
}

// Two slips in a name of five to seven letters are a misspelling where
// the book's evidence says so: the word is written once, and its letters
// are the name's moved, or the book names the name often.
func TestNameSpellingTwoSlipsInAShortName(t *testing.T) {
	lydia := map[string]string{"lydia.md": "---\nname: Lydia Bennet\naliases: [Lydia]\n---\n"}
	tests := []struct {
		name  string
		uses  int // of Lydia
		slip  string
		flag  []string
		inMsg string
	}{
		{name: "letters moved", uses: 6, slip: "Then Lidya left.", flag: []string{"Lidya"},
			inMsg: "“Lidya” may be a misspelling of Lydia: the book names Lydia Bennet 6 times, and writes “Lidya” once"},
		{name: "letters changed in a name the book uses often", uses: 30, slip: "Then Ludya left.", flag: []string{"Ludya"}},
		{name: "letters changed in a name the book uses less", uses: 10, slip: "Then Ludya left.", flag: nil},
		{name: "written twice the same way", uses: 30, slip: "Then Lidya left, and Lidya came back.", flag: nil},
		{name: "letters moved in a name the book hardly uses", uses: 2, slip: "Then Lidya left.", flag: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, lydia, strings.Repeat("Lydia came. ", tt.uses), tt.slip)
			var words []string
			for _, d := range got {
				words = append(words, text[d.Range.Start:d.Range.End])
				assert.Equal(t, "Lydia", d.Fix.NewText)
				assert.Equal(t, "codex/characters/lydia.md", d.Entry)
			}
			assert.Equal(t, tt.flag, words)
			if tt.inMsg != "" && len(got) > 0 {
				assert.Equal(t, tt.inMsg, got[0].Message)
			}
		})
	}
}

// A word far longer than any name is near none, and a name word past
// maxNameRunes is not filed: looking near a word costs the square of
// its length in keys, so a pasted run of letters, in the prose or the
// codex, must not reach the index (a 200,000-letter word took hours).
func TestNameSpellingBoundsLongWords(t *testing.T) {
	long := "Q" + strings.Repeat("x", 200_000)
	got, _ := namesBook(t, map[string]string{
		"long.md":  "---\nname: " + long[:maxNameRunes+1] + "\n---\n",
		"lydia.md": "---\nname: Lydia Bennet\naliases: [Lydia]\n---\n",
	}, strings.Repeat("Lydia came. ", 6), "Then "+long+" and Lidya came.")
	require.Len(t, got, 1)
	assert.Equal(t, "Lydia", got[0].Fix.NewText)

	tl, _ := openBook(t, writeBook(t, map[string]string{
		"codex/characters/long.md": "---\nname: " + long[:maxNameRunes+1] + " Vell\n---\n",
	}), Options{})
	var words []string
	for _, w := range tl.Canon().spelling().words {
		words = append(words, w.norm)
	}
	assert.Equal(t, []string{"vell"}, words)
}

// A word that names no one is no slip, however near a name: a word of
// address ("Ma'am" beside a character the codex calls Madam) or one made
// from a title of a name ("Admiralty" beside Admiral Croft), and a
// people ("the Frenchwoman" and "two Frenchmen" beside a character
// called the Frenchman, "Saxon" beside a Baron). Nor is a name an
// English dictionary knows ("Julia" beside Julius): another name.
func TestNameSpellingLeavesWordsThatNameNoOne(t *testing.T) {
	people := map[string]string{
		"croft.md":  "---\nname: Admiral Croft\naliases: [the Admiral]\n---\n",
		"rocha.md":  "---\nname: Madam Rocha\naliases: [Madam]\n---\n",
		"griers.md": "---\nname: Marquis De Griers\naliases: [the Frenchman]\n---\n",
		"baron.md":  "---\nname: Baron Wurmerhelm\naliases: [the Baron]\n---\n",
		"julius.md": "---\nname: Julius Beaufort\naliases: [Julius]\n---\n",
	}
	many := strings.Repeat("Admiral Croft came. Madam Rocha came. The Admiral sat. Madam sat. The Frenchman bowed. The Baron sat. Julius smiled. ", 30)
	tests := []struct {
		name, slip string
		flag       []string
	}{
		{name: "an institution near a title", slip: "The letter came from the Admiralty.", flag: nil},
		{name: "a contraction near an honorific", slip: "Yes, Ma'am, and thank you, Ma’am.", flag: nil},
		{name: "a people of a name's word", slip: "Then the Frenchwoman and two Frenchmen left.", flag: nil},
		{name: "a people near a title", slip: "He spoke like a Saxon.", flag: nil},
		{name: "names a dictionary knows, near a name", slip: "Then Roche came, and Julia, and Jules.", flag: nil},
		{name: "a slip of a name like a dictionary's", slip: "Then Juluis came.", flag: []string{"Juluis"}},
		{name: "a slip of a name", slip: "Then Corft left.", flag: []string{"Corft"}},
		{name: "a slip of a people's name", slip: "Then the Frenchmab left.", flag: []string{"Frenchmab"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, people, many, tt.slip)
			assert.Equal(t, tt.flag, flagged(got, text))
		})
	}
}

// A capitalized word among words of another language, or of a dialect
// spelled as it sounds, is that language's, no slip: The Gambler's
// French "Mais" beside its Marquis, Oliver Twist's Barney with a cold
// ("Wud of Bister Fagid's lads") beside Fagin. It takes two such words
// around it in its sentence; one is a place or a person the codex does
// not hold, beside which a slip is still a slip.
func TestNameSpellingLeavesForeignWords(t *testing.T) {
	people := map[string]string{
		"mavis.md": "---\nname: Mavis Hale\naliases: [Mavis]\n---\n",
		"allen.md": "---\nname: Allen Ward\naliases: [Allen]\n---\n",
		"bette.md": "---\nname: Bette Ward\naliases: [Bette]\n---\n",
		"fagin.md": "---\nname: Fagin\n---\n",
	}
	many := strings.Repeat("Mavis bowed. Allen smiled. Bette sat. Fagin laughed. ", 30)
	tests := []struct {
		name, slip string
		flag       []string
	}{
		{name: "French after a quotation mark", slip: "\"Mais le Baron est si irascible, vous savez!\"", flag: nil},
		{name: "French with an honorific", slip: "\"Mais, madame, cela sera un plaisir,\" he said.", flag: nil},
		{name: "French in italics", slip: "\"_Allez vous-en! Allez vous-en!_ That's all right!\"", flag: nil},
		{name: "French, its accents lost", slip: "\"Cette vieille est tomb e en enfance,\" he whispered.", flag: nil},
		{name: "a dialect", slip: "\"Wud of Bister Fagid's lads,\" exclaimed Barney.", flag: nil},
		{name: "one word the codex does not hold", slip: "Then Fagid went to Pentonville.", flag: []string{"Fagid"}},
		{name: "English around a slip", slip: "Then Mais came in and sat down.", flag: []string{"Mais"}},
		{name: "names a French word makes, in capitals", slip: "Then Allez met Le and Si.", flag: []string{"Allez"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, people, many, tt.slip)
			assert.Equal(t, tt.flag, flagged(got, text))
		})
	}
}

// The check's dictionary is English: in a chapter in another language,
// a word opening a sentence ("Слава" beside Стива) is no slip it can
// judge, and it says nothing. A slip in English is flagged; a name
// declined ("Дарье" of Дарья) is a mention, no slip, in either.
func TestNameSpellingReadsEnglishProseOnly(t *testing.T) {
	people := map[string]string{
		"dolly.md": "---\nname: Дарья Александровна\naliases: [Дарья]\n---\n",
		"stiva.md": "---\nname: Стива\n---\n",
	}
	russian := strings.Repeat("Дарья вошла в комнату. Стива сидел у окна и читал письмо. ", 20)
	english := strings.Repeat("Дарья came into the room. Стива sat by the window and read his letter. ", 20)
	tests := []struct {
		name, before, slip string
		flag               []string
	}{
		{name: "Russian", before: russian, slip: "Он вошёл в комнату и сел у окна.\n\n— Дарье Александровне? Слава богу.", flag: nil},
		{name: "English", before: english, slip: "He said to Дарбя that he would go, and she did not cry.", flag: []string{"Дарбя"}},
		{name: "English, the name declined", before: english, slip: "He said to Дарье that he would go, and she did not cry.", flag: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, people, tt.before, tt.slip)
			assert.Equal(t, tt.flag, flagged(got, text))
		})
	}
}

// The book's uses of a word count wherever the prose writes it, also
// beside a name ("Master Corwen Vell", as Oliver Twist's "Master Charles
// Bates" beside Charley): a word the book writes three times is a name
// of its own, no slip, however near a name it is.
func TestNameSpellingCountsAWordBesideANameToo(t *testing.T) {
	corwin := map[string]string{"corwin.md": "---\nname: Corwin Vell\naliases: [Corwin, Master Vell]\n---\n"}
	many := strings.Repeat("Corwin laughed. ", 30)
	tests := []struct {
		name     string
		chapters []string
		flag     []string
	}{
		{name: "written beside a name in three chapters", chapters: []string{many + "Then Master Corwen Vell came.", "Then Mr. Corwen Vell came.", "Then Corwen Vell came."}, flag: nil},
		{name: "written once", chapters: []string{many, "Then Corwen Vell came."}, flag: []string{"Corwen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := namesBook(t, corwin, tt.chapters...)
			assert.Equal(t, tt.flag, flagged(got, text))
		})
	}
}

// flagged are the words the diagnostics got cover in text.
func flagged(got []Diagnostic, text string) []string {
	var words []string
	for _, d := range got {
		words = append(words, text[d.Range.Start:d.Range.End])
	}
	return words
}
