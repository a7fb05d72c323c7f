package namebench

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// The names LitBank's scheme cannot mark are derived here from its
// annotation alone: its tokens, its mentions' token offsets and its
// coreference chains. Nothing here reads the novel's text or matches a
// name form the way a finder does (Grep, quire's matcher), so the marks
// added to the answer key owe nothing to a matcher the benchmark scores.

// TokenSpan is a mention's place in LitBank's tokens: its sentence and
// its first and last token (inclusive).
type TokenSpan struct {
	Sent, First, Last int
}

// Annotated is one mention of LitBank's coreference annotation.
type Annotated struct {
	Span TokenSpan
	// Chain is the coreference chain the mention belongs to: its entity.
	Chain string
	// Cat is LitBank's category: PROP (a proper name), NOM (a common
	// noun phrase) or PRON.
	Cat string
}

// The kinds of name the benchmark adds to LitBank's marks.
const (
	// AddedWithin is a name of an entity inside a longer common-noun
	// mention of the same entity ("the village of Raveloe").
	AddedWithin = "within"
	// AddedCapital is a name whose first word LitBank writes in lower
	// case ("the Fuwalda"), capitalized where a common-noun mention of
	// the same entity begins a sentence with it ("The Fuwalda").
	AddedCapital = "capital"
)

// AddedName is a name derived from the annotation: its tokens, the
// chain it names and its kind (AddedWithin or AddedCapital).
type AddedName struct {
	Span  TokenSpan
	Chain string
	Kind  string
}

// NamesWithin are the names LitBank's scheme cannot mark, found in its
// annotation. LitBank marks a mention as a whole noun phrase, and a
// phrase about an entity cannot hold another mention of that entity: in
// "the village of Raveloe" or "Dick, who had already set to work" the
// phrase is a common-noun (NOM) mention, and the name in it is not
// marked, though it is one of the entity's proper (PROP) mentions
// elsewhere. For each NOM mention of a chain, the names of that chain
// are the token sequences of the chain's PROP mentions (less quotation
// marks at either end); the first and longest of them that the phrase's
// tokens hold, as whole tokens, is AddedWithin, unless it overlaps a
// PROP mention or a name already added. A NOM mention that begins its
// sentence with one of its chain's names whose first word is lower case
// there capitalized ("The Fuwalda" where the chain's name is "the
// Fuwalda"; LitBank calls it a name after "the" and not at a sentence's
// start) gives AddedCapital, the same way, at the phrase's start only.
//
// tokens are LitBank's tokens, a slice a sentence. The result is in the
// order of mentions.
func NamesWithin(tokens [][]string, mentions []Annotated) []AddedName {
	names := map[string][][]string{}
	var props []TokenSpan
	for _, m := range mentions {
		if m.Cat != "PROP" || !m.Span.in(tokens) {
			continue
		}
		props = append(props, m.Span)
		name := trimQuotes(tokens[m.Span.Sent][m.Span.First : m.Span.Last+1])
		if len(name) > 0 && !slices.ContainsFunc(names[m.Chain], func(n []string) bool { return slices.Equal(n, name) }) {
			names[m.Chain] = append(names[m.Chain], name)
		}
	}
	taken := slices.Clone(props)
	var out []AddedName
	add := func(s TokenSpan, chain, kind string) {
		if !slices.ContainsFunc(taken, s.overlaps) {
			out = append(out, AddedName{Span: s, Chain: chain, Kind: kind})
			taken = append(taken, s)
		}
	}
	for _, m := range mentions {
		if m.Cat != "NOM" || len(names[m.Chain]) == 0 || !m.Span.in(tokens) {
			continue
		}
		phrase := tokens[m.Span.Sent][m.Span.First : m.Span.Last+1]
		if at, n := firstLongest(phrase, names[m.Chain]); n > 0 {
			add(TokenSpan{m.Span.Sent, m.Span.First + at, m.Span.First + at + n - 1}, m.Chain, AddedWithin)
		} else if m.Span.First == 0 {
			if n := capitalAtStart(phrase, names[m.Chain]); n > 0 {
				add(TokenSpan{m.Span.Sent, m.Span.First, m.Span.First + n - 1}, m.Chain, AddedCapital)
			}
		}
	}
	return out
}

// in says the span is a place in tokens.
func (s TokenSpan) in(tokens [][]string) bool {
	return s.Sent >= 0 && s.Sent < len(tokens) && s.First >= 0 && s.First <= s.Last && s.Last < len(tokens[s.Sent])
}

func (s TokenSpan) overlaps(t TokenSpan) bool {
	return s.Sent == t.Sent && s.First <= t.Last && t.First <= s.Last
}

// firstLongest is where in phrase the first of names begins, as whole
// tokens, and how many tokens the longest of those beginning there has;
// 0 tokens when phrase holds none.
func firstLongest(phrase []string, names [][]string) (at, n int) {
	for i := range phrase {
		for _, name := range names {
			if len(name) > n && i+len(name) <= len(phrase) && slices.Equal(phrase[i:i+len(name)], name) {
				n = len(name)
			}
		}
		if n > 0 {
			return i, n
		}
	}
	return 0, 0
}

// capitalAtStart is how many tokens the longest of names whose first
// word is lower case has, capitalized, where phrase begins with it.
func capitalAtStart(phrase []string, names [][]string) int {
	n := 0
	for _, name := range names {
		r, size := utf8.DecodeRuneInString(name[0])
		if !unicode.IsLower(r) || len(name) <= n || len(name) > len(phrase) {
			continue
		}
		if phrase[0] == string(unicode.ToUpper(r))+name[0][size:] && slices.Equal(phrase[1:len(name)], name[1:]) {
			n = len(name)
		}
	}
	return n
}

// trimQuotes is a name's tokens less those at either end that have no
// letter or digit (quotation marks a mention took in).
func trimQuotes(name []string) []string {
	word := func(tok string) bool {
		return slices.ContainsFunc([]rune(tok), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	}
	for len(name) > 0 && !word(name[0]) {
		name = name[1:]
	}
	for len(name) > 0 && !word(name[len(name)-1]) {
		name = name[:len(name)-1]
	}
	return name
}
