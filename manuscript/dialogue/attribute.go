package dialogue

import (
	"slices"
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// The attribution chain, in the order its links are tried for each
// utterance; the first that decides wins:
//
//  1. writer: a `<!-- speaker: Name -->` line in the utterance's paragraph.
//  2. explicit: a speech verb beside a character's name or alias in the
//     utterance's tag ("said Emma", "Mr. Knightley replied", "was
//     Mary's reply").
//  3. pronoun: a speech verb beside he, she, they or I ("said she"),
//     resolved to a character it fits (by the entry's pronouns or
//     gender, else a title, else the chapter's own pronouns): one named
//     in the paragraph's narration, else the subject of the narration
//     just before, else the one an explicit tag gives the turn two, four
//     or six on (an exchange alternates), else the character the chapter
//     follows if they take part in the conversation, else the
//     conversation's, else the character the chapter follows, else the
//     one the narration's he or she goes on about (salience.go), else the
//     last named, those an explicit tag of the
//     chapter gives a line first; the one who spoke just before in
//     another paragraph last. I is the chapter's
//     point of view, else the book's narrator (narrator.go), else the
//     narrator the chapter's own lines show (findNarrator). A
//     relative ("said his wife", "cried her father") is the one
//     character the codex calls by the family name of the character the
//     possessive refers to, with a married title (Mrs., Mr.; kin.go).
//  4. narration: the paragraph's narration names one character (a name
//     a preposition governs, "looked up at Harriet", is none), or
//     opens with a pronoun that resolves to one ("Anne looked up. '…'").
//  5. vocative: the utterance before, in the same conversation, was
//     addressed to a character by name ("my dear Mr. Bennet"): that
//     character answers.
//  6. turn-taking: in a conversation, a line with no other clue is given
//     to the speaker two turns before when the turn before was someone
//     else's.
//
// An utterance the chain cannot settle is uncertain, with the characters
// it may be (the conversation's speakers and the characters mentioned
// near it) as candidates.

// charMention is one place the chapter names a character.
type charMention struct {
	r   codex.Range
	ids []string
	// inQuote says the name is spoken, not narrated.
	inQuote bool
}

type attributor struct {
	text string
	cast *Cast
	pov  string
	// ch is the chapter, for the point of view of each scene.
	ch    Chapter
	utts  []Utterance
	paras []paragraph
	// para[i] is the index in paras of utterance i's paragraph.
	para  []int
	ments []charMention
	// genders are what the chapter says of each character's gender when
	// the codex does not say.
	genders map[string]Gender
	// addressed[i] are the characters utterance i speaks to by name.
	addressed [][]string
	// said maps an utterance to the speaker comment about it.
	said map[int]codex.Range
	// focal is the character the chapter's narration follows: its
	// point of view when it names one, else the character its narration
	// names far most often.
	focal string
	// speaks are the characters an explicit tag of the chapter gives a
	// line.
	speaks map[string]bool
	// byI marks the utterances whose tag's subject is "I"
	// (findSpeakers); narrator is who "I" is where no pov says
	// (findNarrator), narratorBeside whether the lines beside "I" lines
	// showed it, rather than the chapter's calls by name.
	byI            []bool
	narrator       string
	narratorBeside bool
	// narratorOfBook says narrator is the book's, by its chapters' votes
	// (bookNarrator), not this chapter's own reading.
	narratorOfBook bool
	// toks is the memory tokens reuses.
	toks []token
	// conv is the conversation being attributed.
	conv conversation
	// namesOnly says the tags are read for names alone (findSpeakers):
	// a pronoun or a relative in a tag ends its reading unresolved.
	namesOnly bool
}

// attribute attributes an's utterances, found in ch, taking from prev
// (when not nil; e the edit since) the conversations the edit did not
// reach.
func attribute(prev *Analysis, e edit, an *Analysis, ch Chapter) {
	if len(an.utts) == 0 {
		return
	}
	a, decided := prepare(an, ch)
	if n := a.bookNarrator(an); n != "" {
		a.narrator, a.narratorBeside, a.narratorOfBook = n, true, true
	}
	an.convs = a.conversations()
	if prev != nil && !a.sameFacts(prev, e) {
		prev = nil
	}
	an.windows = make([]codex.Range, len(an.convs))
	for k, c := range an.convs {
		an.windows[k] = a.window(c)
		if prev != nil && a.reuse(prev, e, c, an.windows[k]) {
			an.reused++
			continue
		}
		a.chain(c, decided)
	}
	an.ments, an.addressed, an.facts = a.ments, a.addressed, a.facts()
}

// prepare reads what attribution needs of the whole chapter before it
// attributes a line: the characters' mentions and who each line
// addresses, the lines an explicit tag decides (decided), and who the
// chapter's own lines show "I" to be, which it records as the
// chapter's vote for the book's narrator (an.vote).
func prepare(an *Analysis, ch Chapter) (a *attributor, decided []bool) {
	a = &attributor{text: ch.Text, cast: an.cast, utts: an.utts, paras: an.found.paras, pov: ch.POV, ch: ch}
	a.index(ch)
	decided = a.findSpeakers()
	a.narrator, a.narratorBeside = a.findNarrator()
	an.vote = a.ownVote()
	return a, decided
}

// conversation is a run of utterances, utts[from:to], each a turn of one
// exchange with the one before (sameConversation).
type conversation struct{ from, to int }

// conversations splits the chapter's utterances into its exchanges.
func (a *attributor) conversations() []conversation {
	var out []conversation
	for i := range a.utts {
		if i > 0 && a.sameConversation(i-1, i) {
			out[len(out)-1].to = i + 1
			continue
		}
		out = append(out, conversation{from: i, to: i + 1})
	}
	return out
}

// chain runs the attribution chain over one conversation. The chapter's
// facts (index, findSpeakers, findNarrator) are known by then, and so is
// every conversation before it, whole: a conversation is attributed from
// those and its own text alone, so that an edit elsewhere leaves it as
// it was (AnalyzeAfter).
func (a *attributor) chain(c conversation, decided []bool) {
	a.conv = c
	for i := c.from; i < c.to; i++ {
		decided[i] = decided[i] || a.writer(i) || a.tag(i) || a.narration(i) || a.answer(i)
		if decided[i] {
			a.tagAddressee(i)
		}
	}
	for i := c.from; i < c.to; i++ {
		if !decided[i] {
			decided[i] = a.vocative(i)
		}
	}
	a.turns(c, decided)
	for i := c.from; i < c.to; i++ {
		if !decided[i] {
			a.uncertain(i)
		} else {
			a.settle(i)
		}
	}
}

// findSpeakers reads the chapter's tags ahead of the chain, for the
// characters its explicit tags and the writer's lines give a line
// (speakersFirst). Those lines it decides as the chain would and reports
// decided; it leaves every other as it was. A pronoun ends a tag's
// reading here as it does in the chain, unresolved: resolving it needs
// the speakers before it.
func (a *attributor) findSpeakers() []bool {
	a.speaks = map[string]bool{}
	decided := make([]bool, len(a.utts))
	a.byI = make([]bool, len(a.utts))
	a.namesOnly = true
	defer func() { a.namesOnly = false }()
	for i := range a.utts {
		u := &a.utts[i]
		if (a.writer(i) || a.tag(i)) && (u.Rule == RuleExplicit || u.Rule == RuleWriter) && u.Speaker != "" {
			a.speaks[u.Speaker] = true
			decided[i] = true
			continue
		}
		u.Speaker, u.Uncertain, u.Candidates, u.Rule, u.Clue, u.Tag = "", false, nil, "", "", codex.Range{}
	}
	return decided
}

// settle marks uncertain every attribution but the writer's own and an
// explicit tag's by a name: measured on the development novels, only
// those are right often enough (98% and more) to be shown without a
// question mark. A tag that names the speaker by a description ("said
// the stranger") is not: prose also describes its named characters so
// (A Room with a View's Mr. Beebe is "the clergyman", who is also a
// character of his own there), and shown certain, such tags made that
// novel's certain speakers right 96% of the time instead of 99%. The
// rule's choice stays the first candidate, with the characters it may be
// instead after it.
func (a *attributor) settle(i int) {
	u := &a.utts[i]
	if u.Rule == RuleWriter || u.Rule == RuleExplicit && !a.described(u.Tag, u.Speaker) || u.Uncertain {
		return
	}
	if u.Rule == RulePronoun && a.certainI(u.Clue) {
		return
	}
	best := u.Speaker
	cands := []string{best}
	for _, id := range a.recent(i, u.Marks[0].Start, GenderUnknown) {
		if id != best && !slices.Contains(a.addressed[i], id) && len(cands) < 3 {
			cands = append(cands, id)
		}
	}
	u.Speaker, u.Uncertain, u.Candidates = "", true, cands
}

// certainI says a line whose "I" the clue resolved is certain: "I" is
// who the writer's pov says, or the narrator the book's chapters agree
// on (held out, 605 such lines right 0.967 of the time), not one this
// chapter's own lines suggest.
func (a *attributor) certainI(c Clue) bool {
	return c == CluePOV || c == ClueNarrator && a.narratorOfBook
}

// described says the tag names id by a description, a name the codex
// writes in lower case after its article ("the mariner", not "the
// Rabbit"), and by no name.
func (a *attributor) described(tag codex.Range, id string) bool {
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= tag.Start })
	found := false
	for ; k < len(a.ments) && a.ments[k].r.End <= tag.End; k++ {
		m := a.ments[k]
		if !slices.Contains(m.ids, id) {
			continue
		}
		// "the mariner", but not "the Rabbit".
		article, rest, ok := strings.Cut(a.text[m.r.Start:m.r.End], " ")
		if !ok || !isLower(rest) || article != "the" && article != "a" && article != "an" {
			return false
		}
		found = true
	}
	return found
}

// paraOf is the index in a.paras of the paragraph holding off, or of the
// first after it (len(a.paras) past the last).
func (a *attributor) paraOf(off int) int {
	return sort.Search(len(a.paras), func(k int) bool { return a.paras[k].end > off })
}

// index finds which paragraph each utterance is in, which mentions name
// characters and whether they are spoken, and the narration's pronouns.
func (a *attributor) index(ch Chapter) {
	a.para = make([]int, len(a.utts))
	for i := range a.utts {
		at := a.utts[i].Marks[0].Start
		a.para[i] = a.paraOf(at)
	}
	// Spoken text, for telling narration from speech.
	spans := make([]codex.Range, 0, len(a.utts))
	for i := range a.utts {
		spans = append(spans, a.utts[i].Marks...)
	}
	inSpeech := func(off int) bool {
		k := sort.Search(len(spans), func(k int) bool { return spans[k].End > off })
		return k < len(spans) && spans[k].Start <= off
	}
	a.ments = make([]charMention, 0, len(ch.Mentions))
	for _, m := range ch.Mentions {
		// A name in another case (Russian's Вронского) is an object or
		// a possessor, never who speaks: attribution reads subjects.
		if m.Uncertain || m.Declined {
			continue
		}
		var ids []string
		if _, ok := a.cast.Character(m.Entry); ok {
			ids = a.cast.alone(m.Entry)
		}
		for _, id := range m.Others {
			if _, ok := a.cast.Character(id); ok {
				// alone's slice is clipped: this append copies it.
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		a.ments = append(a.ments, charMention{r: m.Range, ids: ids, inQuote: inSpeech(m.Range.Start)})
	}
	// The cast knows what entries and titles say; the chapter adds, for
	// the characters it names, what its pronouns say (genders).
	a.genders = map[string]Gender{}
	// What the narration's pronouns say of the gender of a character
	// the codex gives none: a pronoun counts for the character named
	// last before it, within 60 bytes. Only the text after such names
	// is read.
	votes := map[string][2]int{}
	for k, m := range a.ments {
		if m.inQuote || len(m.ids) != 1 {
			continue
		}
		if c, ok := a.cast.Character(m.ids[0]); !ok || c.Gender != GenderUnknown {
			continue
		}
		to := m.r.End + 60
		if k+1 < len(a.ments) {
			to = min(to, a.ments[k+1].r.End)
		}
		eachPronoun(ch.Text, m.r.End, to, func(w string, at int) bool {
			g, ok := subjectPronoun(w)
			if !ok || inSpeech(at) || g != GenderFemale && g != GenderMale {
				return true
			}
			v := votes[m.ids[0]]
			v[g-1]++
			votes[m.ids[0]] = v
			return true
		})
	}
	for id, v := range votes {
		if c, ok := a.cast.Character(id); !ok || c.Gender != GenderUnknown {
			continue
		}
		switch {
		case v[0] > 2*v[1]:
			a.genders[id] = GenderFemale
		case v[1] > 2*v[0]:
			a.genders[id] = GenderMale
		}
	}
	a.focal = a.pov
	if a.focal == "" {
		counts := map[string]int{}
		for _, m := range a.ments {
			if m.inQuote || len(m.ids) != 1 {
				continue
			}
			counts[m.ids[0]]++
		}
		best, second := mostCounted(counts)
		if best != "" && counts[best] >= 3 && 2*counts[best] >= 3*second {
			a.focal = best
		}
	}
	a.indexComments()
	a.addressed = make([][]string, len(a.utts))
	for i := range a.utts {
		a.addressed[i] = a.vocatives(i)
	}
}

// set gives utterance i to ids by rule, less the characters it
// addresses and, but for an explicit tag or the writer's line, those it
// names in its speech; false when none is left.
func (a *attributor) set(i int, rule Rule, tag codex.Range, ids ...string) bool {
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
		return slices.Contains(a.addressed[i], id) || rule != RuleExplicit && rule != RuleWriter && a.talksOf(i, id)
	})
	if len(ids) == 0 {
		return false
	}
	u := &a.utts[i]
	u.Rule = rule
	u.Clue = ""
	u.Tag = tag
	if len(ids) == 1 {
		u.Speaker = ids[0]
		u.Uncertain = false
		u.Candidates = nil
		return true
	}
	// A name shared by several characters: the one active most recently.
	ids = a.byRecency(i, ids)
	u.Speaker = ""
	u.Uncertain = true
	u.Candidates = ids
	return true
}

// talksOf says utterance i names id in its speech: one speaks of others
// so, rarely of oneself ("Emma will be happy to entertain you").
func (a *attributor) talksOf(i int, id string) bool {
	found := false
	a.eachSpokenName(i, func(_ codex.Range, m charMention) bool {
		found = m.ids[0] == id
		return !found
	})
	return found
}

// without is ids less the characters utterance i addresses.
func (a *attributor) without(i int, ids []string) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return slices.Contains(a.addressed[i], id) })
}

// setClued is set, recording the clue that resolved the line's pronoun
// (set clears it: a new decision has its own).
func (a *attributor) setClued(i int, rule Rule, clue Clue, tag codex.Range, ids ...string) bool {
	if !a.set(i, rule, tag, ids...) {
		return false
	}
	a.utts[i].Clue = clue
	return true
}

// uncertain marks an utterance no rule decided, with its candidates:
// the characters who spoke or were named nearest before it, one heard
// speaking ranked with those a tag names (development set 6 more lines
// right, held out 0.702 → 0.703, LitBank 0.749 → 0.752).
func (a *attributor) uncertain(i int) {
	u := &a.utts[i]
	u.Speaker = ""
	u.Uncertain = true
	u.Rule = RuleNone
	u.Clue = ""
	cands := a.recentOf(i, u.Marks[0].Start, GenderUnknown, true)
	cands = slices.DeleteFunc(cands, func(id string) bool { return slices.Contains(a.addressed[i], id) })
	if len(cands) > 3 {
		cands = cands[:3]
	}
	u.Candidates = cands
}

// byRecency orders ids by how recently each was named or spoke before
// utterance i.
func (a *attributor) byRecency(i int, ids []string) []string {
	rec := a.recent(i, a.utts[i].Marks[0].Start, GenderUnknown)
	out := slices.Clone(ids)
	rank := func(id string) int {
		if r := slices.Index(rec, id); r >= 0 {
			return r
		}
		return len(rec)
	}
	slices.SortStableFunc(out, func(x, y string) int { return rank(x) - rank(y) })
	return out
}

// mostCounted is the ID counted most (the first in order on a tie) and
// the count of the one after it.
func mostCounted(counts map[string]int) (best string, second int) {
	for id, n := range counts {
		switch {
		case best == "" || n > counts[best] || n == counts[best] && id < best:
			if best != "" {
				second = max(second, counts[best])
			}
			best = id
		case n > second:
			second = n
		}
	}
	return best, second
}
