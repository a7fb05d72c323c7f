package namebench

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNamesWithinComeFromTheChains(t *testing.T) {
	tokens := [][]string{
		strings.Fields("the village of Raveloe lay near Dickensian Hill ."),
		strings.Fields("Raveloe and the Lord High Chancellor ."),
		strings.Fields("The Fuwalda sailed , and `` the Fuwalda '' sank ."),
		strings.Fields("On deck The Fuwalda creaked ."),
		strings.Fields("Lord Chancellor and Lord High Chancellor spoke to Dick ."),
	}
	span := func(sent, first, last int) TokenSpan { return TokenSpan{sent, first, last} }
	mentions := []Annotated{
		// The village, named by its PROP mention in sentence 1.
		{span(0, 0, 3), "raveloe", "NOM"},
		{span(1, 0, 0), "raveloe", "PROP"},
		// A phrase of Dick's that holds his name only inside a longer
		// token.
		{span(0, 6, 7), "dick", "NOM"},
		{span(4, 8, 8), "dick", "PROP"},
		// The chancellor, by two names: the longest is taken.
		{span(1, 2, 5), "chancellor", "NOM"},
		{span(4, 0, 1), "chancellor", "PROP"},
		{span(4, 3, 5), "chancellor", "PROP"},
		// The ship: its PROP mention took quotation marks in.
		{span(2, 5, 8), "fuwalda", "PROP"},
		{span(2, 0, 1), "fuwalda", "NOM"},
		{span(3, 2, 3), "fuwalda", "NOM"},
	}
	assert.Equal(t, []AddedName{
		{span(0, 3, 3), "raveloe", AddedWithin},
		{span(1, 3, 5), "chancellor", AddedWithin},
		{span(2, 0, 1), "fuwalda", AddedCapital},
	}, NamesWithin(tokens, mentions), "Raveloe within its village, the longest of the chancellor's names, "+
		"the ship's name capitalized where a sentence begins with it (not where a phrase "+
		"in mid-sentence does), and no name inside a longer token")
}

func TestNamesWithinKeepClearOfMarkedNames(t *testing.T) {
	tokens := [][]string{
		strings.Fields("the Essex marshes and Essex"),
		strings.Fields("Essex , the county of Essex"),
	}
	mentions := []Annotated{
		// A phrase of the marshes that holds the county's PROP mention:
		// the county is not the marshes' name.
		{TokenSpan{0, 0, 2}, "marshes", "NOM"},
		{TokenSpan{0, 1, 1}, "essex", "PROP"},
		{TokenSpan{0, 4, 4}, "essex", "PROP"},
		// The county's own phrase, which a marked name of another
		// chain overlaps, and the same phrase again.
		{TokenSpan{1, 0, 0}, "essex", "PROP"},
		{TokenSpan{1, 2, 5}, "essex", "NOM"},
		{TokenSpan{1, 5, 5}, "other", "PROP"},
		{TokenSpan{1, 2, 5}, "essex", "NOM"},
	}
	assert.Empty(t, NamesWithin(tokens, mentions), "nothing overlaps a marked name, and no name is added twice")

	mentions = mentions[:5]
	assert.Equal(t, []AddedName{{TokenSpan{1, 5, 5}, "essex", AddedWithin}}, NamesWithin(tokens, mentions))
	assert.Empty(t, NamesWithin(tokens[:1], mentions), "a mention outside the tokens is left out")
}

// TestNamesWithinUseNoMatcher holds that the names the benchmark adds
// are derived from LitBank's annotation, not with a finder the benchmark
// scores: neither the derivation nor the importer that writes them uses
// Grep, a regular expression or quire's matcher.
func TestNamesWithinUseNoMatcher(t *testing.T) {
	for _, path := range []string{"within.go", "litbank-import/main.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.NotContains(t, []string{"regexp", "github.com/quire-ink/quire/manuscript"}, p, "%s imports %s", path, p)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				assert.NotContains(t, []string{"Grep", "grepFinds", "quireFinds"}, id.Name, "%s uses %s", path, id.Name)
			}
			return true
		})
	}
}

// TestAddedNamesInTheData checks the names the data adds to LitBank's
// marks: each is one of its entity's names (capitalized, for
// AddedCapital), none overlaps another mark (LitBank's may: "Perrotin of
// Nice"), and there are some of each kind.
func TestAddedNamesInTheData(t *testing.T) {
	set, err := Load("testdata/litbank.json.gz")
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, n := range set.Novels {
		forms := map[string][]string{}
		for _, e := range n.Entities {
			forms[e.ID] = e.Forms
		}
		for i, m := range n.Mentions {
			if m.Added == "" {
				continue
			}
			for j, o := range n.Mentions {
				assert.False(t, j != i && o.Start < m.End && m.Start < o.End, "%s: an added name overlaps another mark at byte %d", n.Title, m.Start)
			}
			kinds[m.Added]++
			name := strings.Join(strings.Fields(n.Text[m.Start:m.End]), " ")
			switch m.Added {
			case AddedWithin:
				assert.Contains(t, forms[m.Entity], name, "%s: %q is a name of %s", n.Title, name, m.Entity)
			case AddedCapital:
				r, size := utf8.DecodeRuneInString(name)
				assert.True(t, unicode.IsUpper(r), "%s: %q is capitalized", n.Title, name)
				assert.Contains(t, forms[m.Entity], string(unicode.ToLower(r))+name[size:], "%s: %q is a name of %s", n.Title, name, m.Entity)
			default:
				t.Errorf("%s: an added name of no known kind, %q", n.Title, m.Added)
			}
		}
	}
	assert.Positive(t, kinds[AddedWithin])
	assert.Positive(t, kinds[AddedCapital])
}
