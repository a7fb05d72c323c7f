package dialogue

import (
	"strings"
	"unicode"
)

// English inverts a subject after a quotation, as a rule, only for a
// verb of saying (`"…," flashed Lucy`, `"…," comforted Matthew`),
// whatever the verb: such a verb in the past tense speaks though
// speechVerbs lacks it. The same verb before its subject ("Lucy flashed
// a look") is narration. The tag's reading knows the names (inverted);
// the scan that joins two quotations does not, and takes a capital for
// one (nameFollows).

// inverted says the first word of a tag after the speech is a verb in
// the past tense that its subject, a name, follows.
func inverted(toks []token) bool {
	return len(toks) > 1 && toks[1].ids != nil && toks[1].word != "'s" && pastTense(toks[0].word)
}

// pastTense says w, written in lower case, looks like a verb in the
// past tense: more than four letters ending in "ed".
func pastTense(w string) bool {
	l := strings.ToLower(w)
	return len(l) > 4 && strings.HasSuffix(l, "ed") && unicode.IsLower(firstLetter(w))
}

// nameFollows says s opens with a capitalized word after white space: a
// name, as far as the scan can tell without the codex.
func nameFollows(s string) bool {
	t := strings.TrimLeft(s, " \t\n")
	return len(t) < len(s) && unicode.IsUpper(firstLetter(t))
}
