package dialogue

import (
	"slices"
	"unicode"

	"github.com/quire-ink/quire/codex"
)

// narration reads the paragraph's narration around the utterance: one
// character named there, or a sentence that opens with a pronoun
// resolved as a tag's would be.
func (a *attributor) narration(i int) bool {
	p := a.paras[a.para[i]]
	// Only the paragraph's first utterance reads its narration, and only
	// when the paragraph holds that one speaker.
	if i > 0 && a.para[i-1] == a.para[i] {
		if b := a.utts[i-1]; b.Speaker != "" && b.Rule != RuleVocative && b.Rule != RuleTurn {
			// The line before's decision, its clue with it.
			return a.setClued(i, b.Rule, b.Clue, b.Tag, b.Speaker)
		}
		return false
	}
	var named []string
	var at codex.Range
	for _, m := range a.ments {
		if m.r.Start < p.start || m.inQuote || len(m.ids) != 1 {
			continue
		}
		if m.r.Start >= p.end {
			break
		}
		// "She looked up at Harriet": a name a preposition governs is
		// no one acting there (on the development novels such lines
		// were a fifth right).
		if a.afterPreposition(m.r.Start, p.start) {
			continue
		}
		if !slices.Contains(named, m.ids[0]) {
			named = append(named, m.ids[0])
			at = m.r
		}
	}
	if len(named) == 1 {
		return a.set(i, RuleNarration, at, named...)
	}
	if len(named) > 1 {
		return false
	}
	// A narration sentence before the speech that opens with a pronoun.
	first := a.utts[i].Marks[0].Start
	if first > p.start {
		var w string
		var wr codex.Range
		forEachWord(a.text[p.start:first], func(word string, off int) bool {
			w, wr = word, codex.Range{Start: p.start + off, End: p.start + off + len(word)}
			return false
		})
		if g, ok := tagPronoun(w); ok && unicode.IsUpper(firstLetter(w)) {
			return a.pronoun(i, g, wr.Start, wr)
		}
	}
	// An action after the speech, in a sentence that opens with a
	// pronoun: "'The long way round…' She held out her hand."
	last := a.utts[i].Marks[len(a.utts[i].Marks)-1].End
	if (i+1 == len(a.utts) || a.para[i+1] != a.para[i]) && last < p.end {
		var w string
		var wr codex.Range
		forEachWord(a.text[last:min(p.end, last+maxWindow)], func(word string, off int) bool {
			w, wr = word, codex.Range{Start: last + off, End: last + off + len(word)}
			return false
		})
		if g, ok := tagPronoun(w); ok && unicode.IsUpper(firstLetter(w)) && g != genderI {
			if a.pronoun(i, g, wr.Start, wr) {
				a.utts[i].Rule = RuleNarration
				return true
			}
		}
	}
	return false
}
