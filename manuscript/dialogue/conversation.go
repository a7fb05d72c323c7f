package dialogue

import (
	"slices"
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// vocatives are the characters utterance i addresses by name: a name
// after "dear", "my", "oh", or set off by commas at the speech's edge;
// and the parent it calls "papa" or "mother" (parentAddressed).
func (a *attributor) vocatives(i int) []string {
	var out []string
	a.eachSpokenName(i, func(sp codex.Range, m charMention) bool {
		// "Sir" and "Madam" call anyone of that gender
		// (addresseeGender), though a codex name a character so.
		if _, polite := politeGender(a.text[m.r.Start:m.r.End]); !polite && a.isVocative(sp, m.r) && !a.echoes(i, sp, m) {
			out = append(out, m.ids[0])
		}
		return true
	})
	if p := a.parentAddressed(i); p != "" && !slices.Contains(out, p) {
		out = append(out, p)
	}
	return out
}

// eachSpokenName calls f with each name of one character that utterance
// i's speech holds, and the span that holds it, in order, until f
// returns false.
func (a *attributor) eachSpokenName(i int, f func(sp codex.Range, m charMention) bool) {
	for _, sp := range a.utts[i].Spans {
		k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= sp.Start })
		for ; k < len(a.ments) && a.ments[k].r.End <= sp.End; k++ {
			if m := a.ments[k]; len(m.ids) == 1 && !f(sp, m) {
				return
			}
		}
	}
}

func (a *attributor) isVocative(sp, r codex.Range) bool {
	// Only the words next to the name matter: a bounded look keeps a
	// long speech full of names linear.
	before := strings.TrimRight(a.text[max(sp.Start, r.Start-vocativeLook):r.Start], " \t\n")
	after := strings.TrimLeft(a.text[r.End:min(sp.End, r.End+vocativeLook)], " \t\n")
	if r.Start-vocativeLook > sp.Start && before == "" {
		before = "…"
	}
	// A name alone and stopped, the whole of a line, answers a question
	// ("What is his name?" "Bingley.") more often than it calls.
	if before == "" && after == "." {
		return false
	}
	lowerBefore := strings.ToLower(before)
	for _, w := range []string{"dear", "dearest", "my", "oh", "o", "ah"} {
		if strings.HasSuffix(lowerBefore, " "+w) || lowerBefore == w {
			return true
		}
	}
	ends := func(marks ...string) bool {
		return slices.ContainsFunc(marks, func(m string) bool { return strings.HasSuffix(before, m) })
	}
	starts := func(marks ...string) bool {
		return slices.ContainsFunc(marks, func(m string) bool { return strings.HasPrefix(after, m) })
	}
	// The name set off on both sides: "Emma, come here", "Well--Emma,
	// you see", "…, Harriet!", not "Emma is …". A full stop, a
	// semicolon or a dash after it calls only after a comma ("…,
	// Harriet.", "…pretty well, Harriet; but") or, but for the dash,
	// at the line's start.
	comma := ends(",")
	if a.aside(sp, r, before) {
		return false
	}
	if relative(strings.TrimLeft(a.text[r.End:min(sp.End, r.End+relativeLook)], " \t\n")) {
		return false
	}
	switch {
	case after == "" || starts(",", "!", "?"):
		return before == "" || comma || ends("!", "?", ".", "-", "—")
	case starts(".", ";"):
		return before == "" || comma
	case starts("-", "—"):
		return comma
	}
	return false
}

// relative says the words after a name open a relative clause about
// it: "Mr. Elton, who might marry any body!" speaks of him, where
// "Emma, who told you?" calls her: the clause's sentence ends on a
// full stop or an exclamation mark, not a question mark.
func relative(after string) bool {
	// Read no further than relativeLook: where the sentence runs on past
	// it, the name is taken to call.
	rest, ok := strings.CutPrefix(after, ",")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t\n")
	w, _, _ := strings.Cut(rest, " ")
	switch w {
	case "who", "whom", "whose", "which":
	default:
		return false
	}
	// "Miss Woodhouse, who have so few opportunities of dancing, you
	// are…": a verb that agrees with "you" calls the one it follows.
	if v, _, _ := strings.Cut(strings.TrimPrefix(rest, w+" "), " "); v == "have" || v == "are" || v == "were" {
		return false
	}
	end := strings.IndexAny(rest, ".!?")
	return end >= 0 && rest[end] != '?'
}

// relativeLook bounds, in bytes, the words read after a name for the
// end of a relative clause's sentence.
const relativeLook = 200

// addresseeGender is the gender of the one utterance i calls "sir" or
// "madam" ("how is he, sir?"): the one who answers it. GenderUnknown when
// it calls neither, or both.
func (a *attributor) addresseeGender(i int) Gender {
	found := GenderUnknown
	for _, sp := range a.utts[i].Spans {
		forEachWord(a.text[sp.Start:sp.End], func(w string, at int) bool {
			g, ok := politeGender(w)
			if !ok || !a.isVocative(sp, codex.Range{Start: sp.Start + at, End: sp.Start + at + len(w)}) {
				return true
			}
			if found != GenderUnknown && found != g {
				found = GenderUnknown
				return false
			}
			found = g
			return true
		})
	}
	return found
}

// politeAddress are the words that call someone by their gender alone.
var politeAddress = []struct {
	word string
	g    Gender
}{{"sir", GenderMale}, {"madam", GenderFemale}, {"ma'am", GenderFemale}, {"ma’am", GenderFemale}}

// politeGender is the gender w calls someone by (politeAddress), in any
// case. It is asked of every word of every speech, so it lowers none.
func politeGender(w string) (Gender, bool) {
	if len(w) < 3 || len(w) > 7 {
		return GenderUnknown, false
	}
	for _, p := range politeAddress {
		if strings.EqualFold(w, p.word) {
			return p.g, true
		}
	}
	return GenderUnknown, false
}

// vocative gives utterance i to the character the line before addressed
// by name, when they are in the same conversation.
func (a *attributor) vocative(i int) bool {
	if i == 0 || !a.sameConversation(i-1, i) || a.para[i-1] == a.para[i] {
		return false
	}
	if addr := a.addressed[i-1]; len(addr) == 1 {
		return a.set(i, RuleVocative, codex.Range{}, addr[0])
	}
	return false
}

// sameConversation says two utterances are close enough to be turns of
// one exchange: in paragraphs with no more than a short paragraph of
// narration between them, and no long narration opening the second's
// paragraph or closing the first's.
func (a *attributor) sameConversation(i, j int) bool {
	pi, pj := a.para[i], a.para[j]
	if pj-pi > 2 {
		return false
	}
	for p := pi + 1; p < pj; p++ {
		if a.paras[p].end-a.paras[p].start > maxInterlude {
			return false
		}
	}
	if pi == pj {
		return true
	}
	last := a.utts[i].Marks[len(a.utts[i].Marks)-1].End
	return a.paras[pi].end-last <= maxAside && a.utts[j].Marks[0].Start-a.paras[pj].start <= maxAside
}

// maxInterlude bounds a paragraph of narration, in bytes, between two
// turns of one conversation: a short line ("She paused."), not a
// sentence of action. maxAside bounds the narration on each turn's side facing the
// other, inside its own paragraph: a line's action beat ("Ebba smiled.
// She was tall and weathered, …") does not end the conversation, a page
// of narration does. Both were chosen on the development novels
// (docs/dialogue.md).
const (
	maxInterlude = 25
	maxAside     = 400
)

// turns fills in the lines of a conversation that no other rule
// decided. A turn is a paragraph's speech; a conversation, turns with at
// most a short paragraph of narration between them. An undecided turn
// goes to the speaker two turns before when the turn between was someone
// else's; when only the turn before is known, to the other party: the
// speaker of the nearest known turn of the same parity, else the one the
// turn before addressed, else the character named or heard nearest
// before who is not the turn before's speaker. The same runs backwards
// from the turns after.
func (a *attributor) turns(c conversation, decided []bool) {
	// groups[g] are the utterances of one paragraph.
	var groups [][]int
	for i := c.from; i < c.to; i++ {
		if n := len(groups); n > 0 && a.para[groups[n-1][0]] == a.para[i] {
			groups[n-1] = append(groups[n-1], i)
			continue
		}
		groups = append(groups, []int{i})
	}
	who := make([]string, len(groups))
	known := make([]bool, len(groups))
	for g, us := range groups {
		for _, i := range us {
			if decided[i] && a.utts[i].Best() != "" {
				who[g], known[g] = a.utts[i].Best(), true
				break
			}
		}
	}
	linked := func(g, h int) bool { // g < h, adjacent turns of one conversation
		return a.sameConversation(groups[g][len(groups[g])-1], groups[h][0])
	}
	fill := func(g int, s string) {
		if s == "" {
			return
		}
		for _, i := range groups[g] {
			if !decided[i] && a.set(i, RuleTurn, codex.Range{}, s) {
				decided[i] = true
				who[g], known[g] = a.utts[i].Best(), true
			}
		}
	}
	// want is the gender the turn before g calls its addressee by
	// ("…how is he, sir?"): g's speaker answers. Each turn's speech is
	// read for it once, and only for a turn that needs it.
	wants := make([]Gender, len(groups))
	wanted := make([]bool, len(groups))
	want := func(g int) Gender {
		if !wanted[g] {
			wanted[g] = true
			if g > 0 && linked(g-1, g) {
				wants[g] = a.addresseeGender(groups[g-1][len(groups[g-1])-1])
			}
		}
		return wants[g]
	}
	other := func(g, near, step int) string {
		// near is the known neighbour turn; step walks away from it.
		b := who[near]
		gw := want(g)
		// The nearest known turn of g's parity, on the far side of g
		// from near first (the turns ahead say who answers), then
		// behind near.
		for h := g + 2*step; h >= 0 && h < len(groups); h += 2 * step {
			if !(step > 0 && linked(h-2, h-1) && linked(h-1, h) || step < 0 && linked(h+1, h+2) && linked(h, h+1)) {
				break
			}
			if known[h] {
				if who[h] != b && a.fits(who[h], gw) {
					return who[h]
				}
				break
			}
		}
		for h := g - 2*step; h >= 0 && h < len(groups); h -= 2 * step {
			if !(step > 0 && linked(h, h+1) || step < 0 && linked(h-1, h)) {
				break
			}
			if known[h] && who[h] != b && a.fits(who[h], gw) {
				return who[h]
			}
		}
		if step > 0 {
			last := groups[near][len(groups[near])-1]
			for _, id := range a.addressed[last] {
				if id != b && a.fits(id, gw) {
					return id
				}
			}
		}
		// A narrator who says "I" takes part in most of the chapter's
		// conversations: one the lines beside the "I" lines show, not
		// one only the chapter's calls by name suggest (Holmes calls
		// the porter McMurdo by name as often as Watson).
		if a.narratorBeside && a.narrator != b && a.fits(a.narrator, gw) {
			return a.narrator
		}
		for _, id := range a.recent(groups[g][0], a.utts[groups[g][0]].Marks[0].Start, gw) {
			if id != b && a.fits(id, gw) {
				return id
			}
		}
		return ""
	}
	// A paragraph is one speaker's: its lines no rule decided are the
	// decided one's.
	for g := range groups {
		if known[g] {
			fill(g, who[g])
		}
	}
	for g := range groups {
		if known[g] || g == 0 || !linked(g-1, g) || !known[g-1] {
			continue
		}
		if g >= 2 && linked(g-2, g-1) && known[g-2] && who[g-2] != who[g-1] && a.fits(who[g-2], want(g)) {
			fill(g, who[g-2])
		} else {
			fill(g, other(g, g-1, 1))
		}
	}
	for g := len(groups) - 1; g >= 0; g-- {
		if known[g] || g+1 >= len(groups) || !linked(g, g+1) || !known[g+1] {
			continue
		}
		if g+2 < len(groups) && linked(g+1, g+2) && known[g+2] && who[g+2] != who[g+1] && a.fits(who[g+2], want(g)) {
			fill(g, who[g+2])
		} else {
			fill(g, other(g, g+1, -1))
		}
	}
}

// turnOf says utterances i..j are turns of one conversation, each in a
// paragraph of its own.
func (a *attributor) turnOf(i, j int) bool {
	for k := i; k < j; k++ {
		if a.para[k] == a.para[k+1] || !a.sameConversation(k, k+1) {
			return false
		}
	}
	return true
}

// echoes says the name m is the whole of utterance i's speech, thrown
// back rather than called: asked back ("How do you propose to silence
// him?" "The driver?"), or said by the line before ("How you do remind
// me of Charlotte Bartlett!" "Charlotte!" flashed Lucy).
func (a *attributor) echoes(i int, sp codex.Range, m charMention) bool {
	// The first line of a chapter is left to call: it answers nothing
	// (LitBank, one line more right).
	if i == 0 || len(a.utts[i].Spans) != 1 || strings.TrimSpace(a.text[sp.Start:m.r.Start]) != "" || strings.Trim(a.text[m.r.End:sp.End], " !?.") != "" {
		return false
	}
	if strings.TrimSpace(a.text[m.r.End:sp.End]) == "?" {
		return true
	}
	said := false
	a.eachSpokenName(i-1, func(_ codex.Range, n charMention) bool {
		said = n.ids[0] == m.ids[0]
		return !said
	})
	return said
}

// asides are the few words a speaker sets between a name and its verb:
// "Mrs. Elton, I suppose, has been the person…".
var asides = []string{", I suppose,", ", I believe,", ", I dare say,", ", I fancy,", ", I think,", ", I hope,", ", I am sure,"}

// aside says the name at r is the subject of what follows an aside
// ("Miss Fairfax, I suppose, … had been making up her mind"), not
// called: it opens its sentence, and words go on after the aside that
// do not turn to "you". A name set off before ("_You_ observed it, Mr.
// Darcy, I am sure,") or with nothing after the aside ("Mrs. David
// Copperfield, I think," said Miss Betsey) calls.
func (a *attributor) aside(sp, r codex.Range, before string) bool {
	if strings.HasSuffix(before, ",") {
		return false
	}
	after := a.text[r.End:min(sp.End, r.End+relativeLook)]
	for _, p := range asides {
		rest, ok := strings.CutPrefix(after, p)
		if !ok {
			continue
		}
		w, _, _ := strings.Cut(strings.TrimLeft(rest, " \t\n"), " ")
		w = strings.ToLower(strings.Trim(w, ",;.!?-"))
		return w != "" && w != "you" && w != "and"
	}
	return false
}
