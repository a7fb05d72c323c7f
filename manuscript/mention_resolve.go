package manuscript

import "slices"

// What a match of the name trie names: the forms ending at its node that
// fit how the text is written, and among them the entry the mention is
// given (by kind, then entry), exclusions and given names giving way.

// accepts reports whether a form ending at node matches text written as
// tc.
func (m *Matcher) accepts(node int32, tc textCase) bool {
	return acceptsForms(m.nodes[node].forms, tc)
}

func acceptsForms(forms []nameForm, tc textCase) bool {
	for i := range forms {
		if forms[i].fits(tc) {
			return true
		}
	}
	return false
}

// resolve turns a match into a mention: the first entry whose name it is,
// else the first whose alias it is, by ID, with every other entry that
// has the same name or alias listed (the mention is ambiguous between
// them). It reports false when only exclusions matched: the span is
// consumed and names nothing.
func (m *Matcher) resolve(f trieMatch) (Mention, bool) {
	return resolveForms(m.nodes[f.node].forms, f)
}

// resolveForms is resolve over the forms that end where f does, sorted
// by kind, then entry.
func resolveForms(forms []nameForm, f trieMatch) (Mention, bool) {
	var mention Mention
	hit, given := false, false
	for _, fm := range forms {
		if fm.kind == formExclude || !fm.fits(f.tc) || excludedAt(forms, fm.entry) {
			continue
		}
		if !hit {
			mention = Mention{Entry: fm.entry, Range: f.span, Alias: fm.kind != formName, Declined: fm.kind == formDeclined}
			given = fm.kind.given()
			hit = true
			continue
		}
		// A given name the codex does not list is no one's where another
		// entry lists the word ("Lucas" the alias of Mr. Lucas, not the
		// given name of Lucas Fane); two given names alike are either's.
		if fm.kind.given() && !given {
			continue
		}
		// A name as the codex writes it is read so, not as another
		// entry's name declined (Каренина is Анна's alias, and Каренин's
		// genitive).
		if fm.kind == formDeclined && !mention.Declined {
			continue
		}
		if fm.entry != mention.Entry && !slices.Contains(mention.Others, fm.entry) {
			mention.Others = append(mention.Others, fm.entry)
		}
	}
	slices.Sort(mention.Others)
	return mention, hit
}

func excludedAt(forms []nameForm, entry string) bool {
	for _, f := range forms {
		if f.kind == formExclude && f.entry == entry {
			return true
		}
	}
	return false
}
