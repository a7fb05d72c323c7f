package manuscript

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// entryForms calls f with each phrase of e a matcher finds or excludes,
// and its kind: the name, the aliases, each of them without the
// capitalized article it opens with ("The Caterpillar" is written "the
// Caterpillar" inside a sentence), each declined when written in
// Cyrillic (codex/declension.go), a character's given name alone
// (GivenName), and the exclusions. The trie is made of
// them, and a series book's matcher hides an overridden entry's by them.
func entryForms(e *codex.Entry, f func(phrase string, kind nameFormKind)) {
	f(e.Name, formName)
	for _, a := range e.Aliases {
		f(a, formAlias)
	}
	for i := -1; i < len(e.Aliases); i++ {
		if rest, ok := withoutArticle(nameOrAlias(e, i)); ok {
			f(rest, formAlias)
		}
	}
	for i := -1; i < len(e.Aliases); i++ {
		for _, d := range codex.DeclinedForms(nameOrAlias(e, i)) {
			f(d, formDeclined)
		}
	}
	if g, everyday, ok := givenName(e); ok {
		kind := formGiven
		if everyday {
			kind = formGivenEveryday
		}
		f(g, kind)
	}
	for _, x := range e.Exclude {
		f(x, formExclude)
	}
}

// GivenName is the given name a character's entry is also found by,
// alone, though the codex does not list it: the first word of a name of
// two words or more, "Teodora" of "Teodora Quill". Prose calls its
// people by their given names more than by any other form, and a writer
// who names a character in full expects "Teodora said" to be hers.
//
// Only a name shaped like a person's has one: its first and last words
// capitalized words of letters (no initial, "J. Alfred Prufrock"; no
// possessive, "Lucy's Mother"), no title or form of address ("Captain
// Wentworth": the word after a title may be a family name), no article
// and no date ("May Ellery" is found as the writer lists her). Its first
// word is no everyday word ("Old Jory") unless it is one people are
// named ("Will Turner", "Rose Tremaine": isEverydayGivenName); such a
// given name is found only inside a sentence (givenName). Places and the
// other types have none. A given name the entry lists as an alias
// already, or excludes, is not added again.
func GivenName(e *codex.Entry) (string, bool) {
	g, _, ok := givenName(e)
	return g, ok
}

// givenName is GivenName, and whether the given name is also an
// everyday word ("Will", "Rose", "Hope"). Such a word begins sentences
// and speeches as the word ("Will you come?", "Rose from her chair"), so
// the matcher finds it alone only where its capital is the name's: not
// at a sentence's start, not at a quotation's, not in capitals
// (nameForm.fits). The writer who lists it as an alias has it found
// everywhere, as every alias is.
func givenName(e *codex.Entry) (name string, everyday, ok bool) {
	if e == nil || e.Type != codex.TypeCharacter {
		return "", false, false
	}
	// Read without allocating: the matcher of ten thousand entries asks
	// this of each while the writer waits for a first hover.
	full := strings.TrimSpace(e.Name)
	i := strings.IndexFunc(full, unicode.IsSpace)
	if i < 0 {
		return "", false, false
	}
	first, last := full[:i], full[strings.LastIndexFunc(full, unicode.IsSpace)+1:]
	if !personalWord(first) || !personalWord(last) {
		return "", false, false
	}
	var buf, other [64]byte
	key := appendWordKey(buf[:0], first)
	if isTitleWord(string(key)) || isTitleAbbreviation(key) || isHonorific(string(key)) || isCalendarWord(string(key)) {
		return "", false, false
	}
	if isCommonish(string(key)) {
		if !isEverydayGivenName(string(key)) {
			return "", false, false
		}
		everyday = true
	}
	// A form of one word that normalizes alike is the given name.
	listed := func(forms []string) bool {
		for _, f := range forms {
			f = strings.TrimSpace(f)
			if strings.IndexFunc(f, unicode.IsSpace) < 0 && string(appendWordKey(other[:0], f)) == string(key) {
				return true
			}
		}
		return false
	}
	if listed(e.Aliases) || listed(e.Exclude) {
		return "", false, false
	}
	return first, everyday, true
}

// isEverydayGivenName reports the everyday words people are named, as a
// character's first name (normalized): flowers and jewels, virtues,
// short forms ("Will", "Jack", "Bill"), words of the weather and the
// seasons. Left out are the adjectives of nicknames ("Old Jory", "Little
// Nell", "Big Jim"), the words that capitalize a place's name ("Drury
// Lane", "Hampstead Heath", "the Thames River": lane, heath, river,
// brook, glen, dale, cliff, star, sky, storm, rocky), those of faith
// ("Angel", "Christian") and forms of address ("Don", "Grace"), which a
// capital inside a sentence does not make a person's.
func isEverydayGivenName(word string) bool {
	switch word {
	case "amber", "autumn", "basil", "bill", "buck", "bud", "carol", "chase", "charity", "clay", "cole",
		"constance", "crystal", "daisy", "dawn", "dean", "drew", "dusty", "earnest", "faith", "felicity",
		"fern", "frank", "gene", "ginger", "grant", "guy", "hazel", "heather", "herb", "holly", "honey",
		"hope", "hunter", "iris", "ivy", "jack", "jade", "jay", "jean", "jewel", "joy", "kit", "lance",
		"lily", "marigold", "mark", "mercy", "merry", "miles", "misty", "moss", "nick", "noel", "olive",
		"pat", "patience", "pearl", "penny", "poppy", "primrose", "prudence", "raven", "ray", "reed",
		"rob", "robin", "rod", "rose", "rowan", "ruby", "rusty", "sage", "sandy", "sonny", "sue",
		"summer", "sunny", "verity", "violet", "wade", "warren", "will", "willow":
		return true
	}
	return false
}

// personalWord reports a word that may be part of a person's name: a
// capital, then letters (a hyphen or apostrophe inside them: "Jean-Luc",
// "O'Hara"), at least two in all, and no possessive.
func personalWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || utf8.RuneCountInString(w) < 2 {
		return false
	}
	prev := ' '
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
		case (r == '-' || r == '\'' || r == '’') && unicode.IsLetter(prev):
		default:
			return false
		}
		prev = r
	}
	if !unicode.IsLetter(prev) {
		return false
	}
	// A possessive is someone else's: "Lucy's Mother" is no Lucy.
	before, _ := utf8.DecodeLastRuneInString(w[:len(w)-1])
	return w[len(w)-1]|0x20 != 's' || !isApostropheRune(before)
}

// entryFinds calls f with each phrase of e a matcher finds: entryForms
// less the exclusions.
func entryFinds(e *codex.Entry, f func(phrase string)) {
	entryForms(e, func(phrase string, kind nameFormKind) {
		if kind != formExclude {
			f(phrase)
		}
	})
}

// nameOrAlias is e's name for i -1, else its alias i.
func nameOrAlias(e *codex.Entry, i int) string {
	if i < 0 {
		return e.Name
	}
	return e.Aliases[i]
}

// entryPhrases are the phrases of e a matcher finds or excludes
// (entryForms).
func entryPhrases(e *codex.Entry) []string {
	var out []string
	entryForms(e, func(phrase string, _ nameFormKind) { out = append(out, phrase) })
	return out
}
