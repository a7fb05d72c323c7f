package manuscript

import "github.com/quire-ink/quire/codex"

// entryForms calls f with each phrase of e a matcher finds or excludes,
// and its kind: the name, the aliases, each of them without the
// capitalized article it opens with ("The Caterpillar" is written "the
// Caterpillar" inside a sentence), each declined when written in
// Cyrillic (codex/declension.go), and the exclusions. The trie is made of
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
	for _, x := range e.Exclude {
		f(x, formExclude)
	}
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
