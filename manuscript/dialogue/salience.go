package dialogue

import (
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// salienceReach is how far back, in bytes, the narration is read for the
// character its pronouns follow: within a conversation's window
// (lookBack), so that an edit further off leaves the reading as it was.
const salienceReach = 4000

// current is the character the narration's pronouns of gender g follow
// at off, in utterance i's tag or paragraph, when the narration of its
// own paragraph before off, or of the paragraph before, says he (she):
// the one the narration last turned to, a character of that gender who
// is the first of a sentence to be referred to (not one after its "he":
// "He was warm in his reprobation of Mr. Elton's conduct" is still about
// him), or whom a tag gave a line since ("said he", as the chain
// resolved it). A possessive ("Mr. Woodhouse's fire") and a name after
// "a" ("a Leonardo") are no one the narration turns to. Emma's Frank
// Churchill comes in hot and is "he" for three paragraphs: "said he" is
// his, not Mr. Woodhouse's, named since. "" when the narration there has
// no such pronoun.
func (a *attributor) current(i, off int, g Gender) string {
	if g != GenderMale && g != GenderFemale {
		return ""
	}
	pi := a.paraOf(off)
	from := a.paras[pi].start
	if pi > 0 {
		from = a.paras[pi-1].start
	}
	at := a.lastPronoun(i, max(from, off-salienceReach), off, g)
	if at < 0 {
		return ""
	}
	floor := max(off-salienceReach, 0)
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= off }) - 1
	for ; k >= 0 && a.ments[k].r.Start >= floor; k-- {
		if m := a.ments[k]; !m.inQuote && len(m.ids) == 1 && a.known(m.ids[0], g) && !a.indefinite(m.r.Start) && !a.possessive(m.r) && a.leads(i, m.r.Start, g) {
			break
		}
	}
	named, nameAt := "", floor
	if k >= 0 && a.ments[k].r.Start >= floor {
		named, nameAt = a.ments[k].ids[0], a.ments[k].r.Start
	}
	// A tag later than the name gives its speaker the narration's he
	// (she) as much: "said Frank Churchill", or "said he" as the chain
	// resolved it.
	for j := i - 1; j >= 0 && a.utts[j].Marks[len(a.utts[j].Marks)-1].End >= nameAt; j-- {
		u := &a.utts[j]
		if u.Tag.Start >= off || u.Tag.Start <= nameAt || u.Tag.End == 0 {
			continue
		}
		s := a.heard(j)
		switch {
		case s == "":
		case u.Rule == RuleExplicit && a.known(s, g), u.Rule == RulePronoun && a.tagSays(u.Tag, g):
			return s
		}
	}
	return named
}

// leads says the name at off is the first of its sentence (from its
// paragraph's start or the last full stop, question or exclamation mark
// or semicolon) to refer to a character of gender g, by name or as the
// subject he (she): "He was warm in his reprobation of Mr. Elton's
// conduct" goes on about its "he", not about Mr. Elton; "Emma had no
// opportunity of speaking to Mr. Knightley" turns to him, and so does
// "Before they were beyond her hearing, Louisa spoke again" to Louisa
// (measured on the development novels: a name a preposition governs
// left out too, 15 lines fewer right).
func (a *attributor) leads(i, off int, g Gender) bool {
	// Read back no further than salienceReach: a paragraph of a
	// megabyte with no full stop would otherwise be read again for each
	// name in it.
	from := max(a.paras[a.paraOf(off)].start, off-salienceReach)
	for s := off - 1; s > from; s-- {
		if c := a.text[s]; (c == '.' || c == '!' || c == '?' || c == ';') && !a.spokenAt(i, s) {
			from = s + 1
			break
		}
	}
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= from })
	for ; k < len(a.ments) && a.ments[k].r.Start < off; k++ {
		if m := a.ments[k]; !m.inQuote && len(m.ids) == 1 && a.known(m.ids[0], g) {
			return false
		}
	}
	subject := false
	eachPronoun(a.text, from, off, func(w string, at int) bool {
		if pg, ok := tagPronoun(w); ok && pg == g && !a.spokenAt(i, at) {
			subject = true
		}
		return !subject
	})
	return !subject
}

// tagSays says the tag's words hold a subject pronoun of gender g.
func (a *attributor) tagSays(tag codex.Range, g Gender) bool {
	found := false
	forEachWord(a.text[tag.Start:tag.End], func(w string, _ int) bool {
		tg, ok := tagPronoun(w)
		found = ok && tg == g
		return !found
	})
	return found
}

// lastPronoun is the offset of the last third-person pronoun of gender g
// in the narration of text[from:to] (not in utterance i's speech or any
// before it), or -1.
func (a *attributor) lastPronoun(i, from, to int, g Gender) int {
	last := -1
	eachPronoun(a.text, from, to, func(w string, at int) bool {
		if pg, ok := subjectPronoun(w); ok && pg == g && !a.spokenAt(i, at) {
			last = at
		}
		return true
	})
	return last
}

// spokenAt says off is inside the speech of utterance i or of one before
// it.
func (a *attributor) spokenAt(i, off int) bool {
	j := sort.Search(i+1, func(j int) bool { return a.utts[j].Marks[0].Start > off }) - 1
	if j < 0 {
		return false
	}
	for _, m := range a.utts[j].Marks {
		if m.Start <= off && off < m.End {
			return true
		}
	}
	return false
}

// known says the codex or the chapter's pronouns say id is of gender g:
// a character of no known gender (a painter a chapter names once) is no
// one the narration's he or she is seen to follow.
func (a *attributor) known(id string, g Gender) bool { return a.genderOf(id) == g }

// indefinite says an indefinite article stands right before the name at
// off: "From a Leonardo she had become a living woman" names a painting,
// not the painter.
func (a *attributor) indefinite(off int) bool {
	end := trimSpaceEnd(a.text, max(off-4, 0), off)
	start := end
	for start > 0 && end-start < 3 && isASCIILetter(a.text[start-1]) {
		start--
	}
	w := strings.ToLower(a.text[start:end])
	return (w == "a" || w == "an") && (start == 0 || !isASCIILetter(a.text[start-1]))
}
