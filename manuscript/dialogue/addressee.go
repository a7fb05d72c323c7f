package dialogue

import (
	"slices"
	"sort"
	"strings"
)

// A tag may say whom the line is said to: "said Mr. Bennet to his
// wife", "he asked the vicar", "Mr. Knightley answered Emma". That
// character is addressed as a name in the speech would make them
// ("Emma, come here"): the line is not theirs, and the next turn is.

// addresseeLook bounds how far after a tag its addressee is looked for.
const addresseeLook = 40

// objectVerbs take the one spoken to as their object ("he asked the
// vicar"); "said" does not ("said Emma" names the speaker).
var objectVerbs = wordSet(`asked asks told tells answered answers addressed addresses thanked thanks assured assures
begged begs urged urges reminded reminds warned warns informed informs interrupted interrupts implored implores
entreated entreats questioned questions bade bid accosted accosts`)

// tagAddressee adds to the characters utterance i speaks to the one its
// tag names as spoken to.
func (a *attributor) tagAddressee(i int) {
	u := &a.utts[i]
	if u.Tag.End <= u.Tag.Start || u.Tag.End > len(a.text) {
		return
	}
	speaker := u.Best()
	end := min(len(a.text), u.Tag.End+addresseeLook)
	add := func(id string) {
		if id != "" && id != speaker && !slices.Contains(a.addressed[i], id) {
			a.addressed[i] = append(a.addressed[i], id)
		}
	}
	words := strings.Fields(a.text[u.Tag.End:end])
	if len(words) >= 3 && strings.EqualFold(words[0], "to") && speaker != "" {
		if id, ok := a.kinOf(speaker, words[1], strings.TrimRight(words[2], ",.;:!?")); ok {
			add(id)
			return
		}
	}
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= u.Tag.End })
	if k == len(a.ments) || a.ments[k].r.Start >= end || len(a.ments[k].ids) != 1 || a.ments[k].inQuote {
		return
	}
	gap := strings.ToLower(strings.TrimSpace(a.text[u.Tag.End:a.ments[k].r.Start]))
	gap = strings.TrimSpace(strings.TrimSuffix(gap, "the"))
	verb := ""
	if tagWords := strings.Fields(a.text[u.Tag.Start:u.Tag.End]); len(tagWords) > 0 {
		verb = strings.ToLower(strings.Trim(tagWords[len(tagWords)-1], ",.;:!?"))
	}
	if gap == "to" || gap == "" && objectVerbs[verb] {
		add(a.ments[k].ids[0])
	}
}

// kinOf is the relative of owner that "his wife", "her father" and the
// like name, when the codex has one such.
func (a *attributor) kinOf(owner, possessive, noun string) (string, bool) {
	rel, g, ok := kinPhrase(possessive, noun)
	if !ok || !a.fits(owner, g) {
		return "", false
	}
	return a.cast.relative(owner, rel)
}
