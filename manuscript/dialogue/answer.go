package dialogue

import (
	"strings"

	"github.com/quire-ink/quire/codex"
)

// A paragraph of narration may tell of a question put, not ask it:
// "Emma was obliged to ask what they had told her." The speech after it
// is the answer, so it is neither the asker's nor led into by the
// question (reportsSpeech): it is the one the question was put to, as a
// guess.

// askVerbs tell of a question put.
var askVerbs = wordSet(`ask asks asked enquire enquires enquired inquire inquires inquired`)

// answer gives utterance i, opening its paragraph after a paragraph of
// narration whose last sentence reports a question, to the one asked: a
// character named right after the verb ("asked Emma whether"), else the
// speaker of the line before the narration, when that is not the one
// who asks ("…," said Harriet. / Emma was obliged to ask what they had
// told her. / "They told me--").
func (a *attributor) answer(i int) bool {
	pi := a.para[i]
	if pi < 2 || a.utts[i].Marks[0].Start > firstVisible(a.text, a.paras[pi].pieces[0]) || i > 0 && a.para[i-1] == pi-1 {
		return false
	}
	// A short paragraph: what it reports is the conversation's next
	// turn (and the line before it stays within what an edit's
	// attribution reads again, lookBack).
	p := a.paras[pi-1]
	if p.end-p.start > maxAside {
		return false
	}
	end := trimSpaceEnd(a.text, p.start, p.end)
	if end <= p.start {
		return false
	}
	sr := codex.Range{Start: a.sentenceStart(p.start, end-1), End: end}
	if !reportsQuestion(a.text[sr.Start:sr.End]) {
		return false
	}
	toks := a.tokens(sr)
	vi := -1
	for k, t := range toks {
		if t.ids == nil && askVerbs[strings.ToLower(t.word)] {
			vi = k
			break
		}
	}
	if vi < 0 {
		return false
	}
	asker := ""
	if j, ok := subjectBefore(a.text, toks, vi); ok && len(toks[j].ids) == 1 {
		asker = toks[j].ids[0]
	}
	if vi+1 < len(toks) && toks[vi+1].ids != nil && toks[vi+1].word != "'s" {
		if a.set(i, RuleNarration, toks[vi+1].r, toks[vi+1].ids...) {
			a.guess(i)
			return true
		}
		return false
	}
	if i == 0 || a.para[i-1] != pi-2 {
		return false
	}
	if s := a.heard(i - 1); s != "" && s != asker && a.set(i, RuleNarration, toks[vi].r, s) {
		a.guess(i)
		return true
	}
	return false
}

// reportsQuestion says the sentence tells of a question put: a verb of
// asking, then what was asked, a word of reported speech (what, if,
// whether, after) within the four words after it, past the one asked
// ("asked Mr. Knightley whether", "enquired after her husband").
func reportsQuestion(sentence string) bool {
	found := false
	ask := -1
	n := 0
	forEachWord(sentence, func(w string, _ int) bool {
		n++
		lower := strings.ToLower(w)
		switch {
		case askVerbs[lower]:
			ask = n
		case ask >= 0 && n-ask <= 4 && reportWords[lower] && lower != "that":
			found = true
		}
		return !found
	})
	return found
}
