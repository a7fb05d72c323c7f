package manuscript

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A name found in prose is not always the entry's. Measured against
// people's annotations of real novels (manuscript/namebench), the
// matches a writer would call wrong were of a few kinds, and the scan
// judges each match by them:
//
//   - inside a hyphenated compound ("Bennet-Hope"): not a mention;
//   - before a capitalized word that is no known name and no common word
//     ("Anthony Comstock" when the codex knows Anthony Patch), or after
//     one ("Arnold Armstrong"), or before one that begins a longer name
//     the text does not finish ("Anthony Comstock" when the codex knows
//     Anthony Comstock Patch), or after a form of address the entry is
//     never given where the codex writes the name with another ("Mrs.
//     Pontellier" beside Mr. Pontellier): another person who shares a
//     name;
//   - as a modifier: before "family", "cottages", "Lane"…
//     ("the Pendleton family", "Maule's Lane"): a family, a place or a
//     firm named after the entry. Not before "people", "houses" or
//     "estate": "Avonlea people" and "his Tarrytown estate" are the
//     place itself to the annotators, and "the house of Agnes" is Agnes.
//
// The last two are uncertain mentions: Scan leaves them out, so no count,
// reference or hover puts them on the entry, and the untracked-name
// finder offers what they may name instead.

// proseContext is what a scan knows of the tokens before the one it is
// at: whether that one begins a sentence, and what came just before.
type proseContext struct {
	// sentenceStart says the current token begins a sentence; pending
	// says the next will.
	sentenceStart, pending bool
	// quoteStart says the current token opens a quotation; quotePending
	// says the next will.
	quoteStart, quotePending bool
	// adjacent says the current token follows a word with nothing but
	// spaces (at most one line break) between.
	adjacent bool
	prevWord bool
	// prevUnknown says the word before was capitalized, began no
	// sentence, and is no common word, title or known name.
	prevUnknown bool
}

// see starts the context of tok.
func (c *proseContext) see(tok *proseToken) {
	if tok.lineBreaks > 1 {
		c.pending = true
	}
	c.sentenceStart = c.pending
	c.quoteStart = c.quotePending
	c.adjacent = c.prevWord && tok.lineBreaks <= 1
}

// after moves the context past tok, which began no mention; key is tok's
// normalized form, or empty when it was not worth making.
func (c *proseContext) after(m *Matcher, text string, tok *proseToken, key []byte) {
	switch tok.kind {
	case proseWord:
		// Only a capitalized word inside a sentence may be an unknown
		// name; most words are neither, and cost no lookup.
		c.prevUnknown = false
		if tok.upper && !tok.allCaps && !c.sentenceStart && m.mayBeFormWord(tok) {
			if len(key) == 0 {
				key = appendTokenKey(key, text, tok)
			}
			w := string(key)
			// Half of a compound ("out-Heroded") is a word made from a
			// name, not another person's.
			c.prevUnknown = !isCommonWord(w) && !isTitleAbbreviation(key) && !isTitleWord(w) && !m.IsNameWord(w) &&
				!joinedToLower(text, tok.start, tok.end)
		}
		c.prevWord = true
		c.pending, c.quotePending = false, false
	case prosePunct:
		c.prevWord, c.prevUnknown = false, false
		r, _ := utf8.DecodeRuneInString(text[tok.start:])
		c.quotePending = isOpeningQuote(r, text, tok)
		switch r {
		case '.', '!', '?', '…':
			c.pending = true
		case ',', ';', ':':
			c.pending = false
		}
	default:
		*c = proseContext{}
	}
}

// afterName moves the context past a mention.
func (c *proseContext) afterName() {
	c.prevWord, c.prevUnknown, c.pending, c.quotePending = true, false, false, false
}

// judge marks mention uncertain where its use says it may name someone
// else, and reports false where it is no mention at all. resume is where
// the scan goes on after it; scratch is room for a word's key.
func (m *Matcher) judge(text string, mention *Mention, resume int, c *proseContext, scratch []byte) bool {
	span := mention.Range
	if hyphenated(text, span.Start, span.End) {
		return false
	}
	// A heading in capitals says nothing by its capitals.
	if !hasLower(text[span.Start:span.End]) {
		return true
	}
	if c.adjacent && c.prevUnknown || m.otherTitle(text, mention) {
		mention.Uncertain = true
		return true
	}
	t := proseTokenizer{text: text, pos: resume}
	var next proseToken
	if !t.next(&next) || next.kind != proseWord || next.lineBreaks > 1 || !m.mayBeFormWord(&next) {
		return true
	}
	key := appendTokenKey(scratch[:0], text, &next)
	possessive := resume > span.End
	switch {
	case isModifierHead(string(key)) && (!possessive || next.upper):
		mention.Uncertain = true
	case !possessive && next.upper && !next.allCaps && !isCommonWord(string(key)) &&
		(!m.IsNameWord(string(key)) || m.continuesForm(text[span.Start:span.End], key)):
		mention.Uncertain = true
	}
	return true
}

// continuesForm reports whether word, after the name phrase, goes on
// into a longer form that the text then leaves: "Anthony Comstock" when
// the codex knows Anthony Comstock Patch is a longer name of its own,
// perhaps his grandfather's, not a way of writing Anthony.
func (m *Matcher) continuesForm(phrase string, word []byte) bool {
	return m.inTries(func(t *Matcher, formsAt func(int32) []nameForm) bool {
		return t.continuesIn(phrase, word, formsAt)
	})
}

// inTries reports whether f holds in the matcher's own trie or, for a
// book of a series, in the series' trie, each with the forms that count
// at a node: the series' without those of the entries the book
// overrides.
func (m *Matcher) inTries(f func(t *Matcher, formsAt func(int32) []nameForm) bool) bool {
	if f(m, func(n int32) []nameForm { return m.nodes[n].forms }) {
		return true
	}
	return m.layer != nil && f(m.layer.base, m.layer.baseForms)
}

// maxContinuationNodes bounds the trie nodes continuesIn looks at.
const maxContinuationNodes = 256

// continuesIn is continuesForm in m's own trie, whose forms at a node
// formsAt gives.
func (m *Matcher) continuesIn(phrase string, word []byte, formsAt func(int32) []nameForm) bool {
	node, ok := m.find(phrase)
	if !ok {
		return false
	}
	c, more := m.nodes[node].child(word)
	if !more {
		return false
	}
	// A node may lead to no form: a phrase cut short by a word no form
	// may hold, or only the forms of a series entry the book overrides.
	// The search is bounded, so that a scan stays linear in the text
	// whatever the codex; past the bound the phrase is taken to go on.
	stack := []int32{c}
	for seen := 0; len(stack) > 0; seen++ {
		if seen == maxContinuationNodes {
			return true
		}
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(formsAt(n)) > 0 {
			return true
		}
		m.nodes[n].children(func(_ string, next int32) { stack = append(stack, next) })
	}
	return false
}

// addressTitles are the forms of address that tell the people of one
// family apart.
var addressTitles = [...]string{"mr", "mrs", "miss", "ms", "master", "mistress", "sir", "lady", "lord", "dame",
	"monsieur", "madame", "mademoiselle"}

// otherTitle reports a mention after a form of address that its entry
// is never given, where the codex writes the same name with another:
// "Mrs. Pontellier" matching the alias Pontellier of an entry written
// "Mr. Pontellier" is his wife, not him.
func (m *Matcher) otherTitle(text string, mention *Mention) bool {
	title, ok := addressBefore(text, mention.Range.Start)
	if !ok {
		return false
	}
	phrase := text[mention.Range.Start:mention.Range.End]
	var buf [64]byte
	for _, other := range addressTitles {
		if other == title {
			continue
		}
		titled := append(append(append(buf[:0], other...), ' '), phrase...)
		if m.writes(string(titled), mention.Entry) {
			return true
		}
	}
	return false
}

// writes reports whether phrase is a form of entry, in the matcher's
// own trie or, for the series' entries the book does not override, in
// the series'.
func (m *Matcher) writes(phrase, entry string) bool {
	return m.inTries(func(t *Matcher, formsAt func(int32) []nameForm) bool {
		node, ok := t.find(phrase)
		return ok && slices.ContainsFunc(formsAt(node), func(f nameForm) bool { return f.entry == entry && f.kind != formExclude })
	})
}

// addressBefore is the form of address just before start ("Mrs. ",
// "Lady "), as addressTitles has it.
func addressBefore(text string, start int) (string, bool) {
	i := start
	if i == 0 || (text[i-1] != ' ' && text[i-1] != '\n') {
		return "", false
	}
	i--
	dot := i > 0 && text[i-1] == '.'
	if dot {
		i--
	}
	j := i
	for j > 0 && j > i-12 && isASCIILetter(text[j-1]) {
		j--
	}
	if j == i || j > 0 && isWordRune(rune(text[j-1])) {
		return "", false
	}
	var key [12]byte
	w := appendWordKey(key[:0], text[j:i])
	if dot && !isTitleAbbreviation(w) {
		return "", false
	}
	for _, t := range addressTitles {
		if string(w) == t {
			return t, true
		}
	}
	return "", false
}

// hyphenated reports whether text[start:end] is part of a hyphenated
// compound: a hyphen joins it to a word before or after.
func hyphenated(text string, start, end int) bool {
	if r, size := utf8.DecodeLastRuneInString(text[:start]); isHyphen(r) {
		if p, _ := utf8.DecodeLastRuneInString(text[:start-size]); isWordRune(p) {
			return true
		}
	}
	if r, size := utf8.DecodeRuneInString(text[end:]); isHyphen(r) {
		if n, _ := utf8.DecodeRuneInString(text[end+size:]); isWordRune(n) {
			return true
		}
	}
	return false
}

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

// isModifierHead reports the nouns a name modifies when it names a
// family, a place or a firm rather than the entry: "the Pendleton
// family", "the Lebrun cottages", "Maule's Lane".
func isModifierHead(word string) bool {
	switch word {
	case "family", "families", "household", "clan", "tribe", "race", "name",
		"cottage", "cottages", "manor", "lane", "street", "road", "avenue", "square", "alley",
		"hotel", "inn", "mill", "mills", "company", "firm",
		"children", "boys", "girls", "brothers", "sisters":
		return true
	}
	return false
}

// isTitleWord reports the titles and forms of address that come before
// a name ("the Reverend Mr. Kronborg", "Monsieur Quesnel"): such a word
// before a name is no unknown given name.
func isTitleWord(word string) bool {
	switch word {
	case "reverend", "colonel", "captain", "lieutenant", "general", "major", "sergeant", "corporal",
		"admiral", "commander", "doctor", "professor", "madame", "monsieur", "mademoiselle", "signor",
		"signora", "señor", "señora", "herr", "frau", "fraulein", "lady", "lord", "sir", "dame", "saint",
		"father", "mother", "brother", "sister", "uncle", "aunt", "cousin", "judge", "governor",
		"president", "senator", "king", "queen", "prince", "princess", "duke", "duchess", "earl",
		"count", "countess", "baron", "baroness", "emperor", "empress", "pope", "bishop", "archbishop",
		"cardinal", "rabbi", "miss", "master", "mistress", "squire", "widow", "citoyen", "citoyenne":
		return true
	}
	return false
}

// nameEndings make other words of a name: a family ("the Bennets",
// "the Jarndyces") or its people ("Ruritanian", "Israelite").
var nameEndings = []string{"s", "es", "n", "an", "ian", "ite", "ites", "ese"}

// derivedFromName reports whether a normalized word is a word of a known
// name with one of nameEndings: the name's family or people, not a name
// of its own nor a misspelling of one.
func (m *Matcher) derivedFromName(word string) bool {
	for _, end := range nameEndings {
		if stem, ok := strings.CutSuffix(word, end); ok && utf8.RuneCountInString(stem) >= 3 && m.IsNameWord(stem) {
			return true
		}
	}
	return false
}

// DerivedFromName is derivedFromName for the continuity checks.
func (m *Matcher) DerivedFromName(normalizedWord string) bool {
	return m.derivedFromName(normalizedWord)
}

// isHonorific reports the words of address and rank that are no name:
// "Esq", "his Lordship", "Sahib".
func isHonorific(word string) bool {
	switch word {
	case "esq", "esquire", "ladyship", "lordship", "majesty", "highness", "excellency", "eminence",
		"grace", "honour", "honor", "worship", "reverence", "holiness", "sahib", "memsahib", "mem",
		"ayah", "bwana", "effendi", "pasha", "bey", "signor", "signora", "signorina", "senor", "senora",
		"senorita", "herr", "frau", "fraulein", "mynheer", "madam", "madame", "mademoiselle", "monsieur",
		"mlle", "mme", "messieurs", "mesdames", "ma'am", "sir", "missus", "mister":
		return true
	}
	return false
}

// isDemonym reports the names of peoples, faiths and nations' members
// that prose capitalizes: "an Indian cook", "two Englishmen".
func isDemonym(word string) bool {
	switch word {
	case "american", "americans", "english", "englishman", "englishmen", "englishwoman", "englishwomen",
		"british", "briton", "britons", "french", "frenchman", "frenchmen", "frenchwoman", "irish",
		"irishman", "irishmen", "scotch", "scots", "scottish", "scotsman", "scotsmen", "welsh",
		"welshman", "welshmen", "german", "germans", "dutch", "dutchman", "dutchmen", "spanish",
		"spaniard", "spaniards", "italian", "italians", "russian", "russians", "chinese", "japanese",
		"indian", "indians", "african", "africans", "roman", "romans", "greek", "greeks", "turk",
		"turks", "turkish", "jew", "jews", "jewish", "christian", "christians", "catholic", "catholics",
		"protestant", "protestants", "puritan", "puritans", "quaker", "quakers", "yankee", "yankees",
		"european", "europeans", "asiatic", "arab", "arabs", "persian", "persians", "egyptian",
		"egyptians", "canadian", "canadians", "mexican", "mexicans", "australian", "australians",
		"swiss", "swede", "swedes", "swedish", "norwegian", "norwegians", "dane", "danes", "danish",
		"pole", "poles", "polish", "portuguese", "hindu", "hindus", "muslim", "muslims", "moslem",
		"mohammedan", "brahmin", "brahmins", "negro", "negroes", "gypsy", "gypsies", "martian",
		"martians", "saxon", "saxons", "norman", "normans", "celt", "celts", "celtic", "latin",
		"parisian", "parisians", "londoner", "londoners", "bohemian", "bohemians", "hungarian",
		"austrian", "prussian", "prussians", "belgian", "cossack", "cossacks", "tartar", "tartars",
		"moor", "moors", "saracen", "saracens", "viking", "vikings", "hebrew", "hebrews", "gentile",
		"gentiles", "anglican", "methodist", "methodists", "baptist", "presbyterian", "mormon":
		return true
	}
	return false
}
