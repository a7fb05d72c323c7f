package dialogue

import (
	"slices"
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
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
// tag names as spoken to. It runs for every decided line: it reads the
// few words after the tag in place, without splitting the text.
func (a *attributor) tagAddressee(i int) {
	u := &a.utts[i]
	if u.Tag.End <= u.Tag.Start || u.Tag.End > len(a.text) {
		return
	}
	speaker := u.Best()
	end := min(len(a.text), u.Tag.End+addresseeLook)
	id := a.kinAddressee(speaker, u.Tag.End, end)
	if id == "" {
		id = a.nameAddressee(u.Tag, end)
	}
	if id != "" && id != speaker && !slices.Contains(a.addressed[i], id) {
		a.addressed[i] = append(a.addressed[i], id)
	}
}

// kinAddressee is the relative of speaker that "to his wife" right
// after a tag ending at from names, "" for none.
func (a *attributor) kinAddressee(speaker string, from, end int) string {
	rest := strings.TrimLeft(a.text[from:end], " \t\n")
	if speaker == "" || len(rest) < 3 || !strings.EqualFold(rest[:2], "to") || !isSpaceByte(rest[2]) {
		return ""
	}
	var words [3]string
	n := 0
	forEachWord(rest, func(w string, _ int) bool {
		words[n] = w
		n++
		return n < len(words)
	})
	if n < len(words) {
		return ""
	}
	id, _ := a.kinOf(speaker, words[1], words[2])
	return id
}

// nameAddressee is the character named right after the tag, when "to"
// ("said Emma to Harriet") or the tag's own verb ("he asked the vicar")
// makes them the one spoken to; "" for none.
func (a *attributor) nameAddressee(tag codex.Range, end int) string {
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= tag.End })
	if k == len(a.ments) || a.ments[k].r.Start >= end || len(a.ments[k].ids) != 1 || a.ments[k].inQuote {
		return ""
	}
	gap := strings.Fields(strings.ToLower(a.text[tag.End:a.ments[k].r.Start]))
	if n := len(gap); n > 0 && gap[n-1] == "the" {
		gap = gap[:n-1]
	}
	switch {
	case len(gap) == 1 && gap[0] == "to",
		len(gap) == 0 && objectVerbs[strings.ToLower(lastWordBefore(a.text, tag.Start, tag.End))]:
		return a.ments[k].ids[0]
	}
	return ""
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
