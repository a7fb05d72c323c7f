package dialogue

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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
//     just before, else the character the chapter follows, else the
//     conversation's, else the last named; the one who spoke just before
//     in another paragraph last. I is the chapter's point of view.
//  4. narration: the paragraph's narration names one character, or
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

// mention is one place the chapter names a character.
type charMention struct {
	r   codex.Range
	ids []string
	// inQuote says the name is spoken, not narrated.
	inQuote bool
}

type attributor struct {
	text  string
	cast  *Cast
	pov   string
	utts  []Utterance
	paras []paragraph
	// para[i] is the index in paras of utterance i's paragraph.
	para     []int
	ments    []charMention
	pronouns []pronounAt
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
}

type pronounAt struct {
	at int
	g  Gender
}

func attribute(ch Chapter, paras []paragraph, utts []Utterance, cast *Cast) {
	if len(utts) == 0 {
		return
	}
	a := &attributor{text: ch.Text, cast: cast, utts: utts, paras: paras, pov: ch.POV}
	a.index(ch)
	decided := make([]bool, len(utts))
	for i := range utts {
		decided[i] = a.writer(i) || a.tag(i) || a.narration(i)
	}
	for i := range utts {
		if !decided[i] {
			decided[i] = a.vocative(i)
		}
	}
	a.turns(decided)
	for i := range utts {
		if !decided[i] {
			a.uncertain(i)
		} else {
			a.settle(i)
		}
	}
}

// settle marks uncertain every attribution but the writer's own and an
// explicit tag's: measured on the development novels, only those are
// right often enough (98% and more) to be shown without a question mark.
// The rule's choice stays the first candidate, with the characters it
// may be instead after it.
func (a *attributor) settle(i int) {
	u := &a.utts[i]
	if u.Rule == RuleWriter || u.Rule == RuleExplicit || u.Uncertain {
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

// index finds which paragraph each utterance is in, which mentions name
// characters and whether they are spoken, and the narration's pronouns.
func (a *attributor) index(ch Chapter) {
	a.para = make([]int, len(a.utts))
	for i := range a.utts {
		at := a.utts[i].Marks[0].Start
		a.para[i] = sort.Search(len(a.paras), func(k int) bool { return a.paras[k].end > at })
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
	for _, m := range ch.Mentions {
		var ids []string
		for _, id := range append([]string{m.Entry}, m.Others...) {
			if _, ok := a.cast.Character(id); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 || m.Uncertain {
			continue
		}
		a.ments = append(a.ments, charMention{r: m.Range, ids: ids, inQuote: inSpeech(m.Range.Start)})
	}
	// The cast knows what entries and titles say; the chapter adds, for
	// the characters it names, what its pronouns say (genders).
	a.genders = map[string]Gender{}
	// The narration's pronouns, and what they say of the gender of the
	// character named just before them.
	votes := map[string][2]int{}
	m := 0
	eachPronoun(ch.Text, func(w string, at int) bool {
		g, ok := subjectPronoun(w)
		if !ok || inSpeech(at) {
			return true
		}
		a.pronouns = append(a.pronouns, pronounAt{at: at, g: g})
		for m < len(a.ments) && a.ments[m].r.End <= at {
			m++
		}
		if m > 0 && !a.ments[m-1].inQuote && at-a.ments[m-1].r.End < 60 && len(a.ments[m-1].ids) == 1 && (g == GenderFemale || g == GenderMale) {
			v := votes[a.ments[m-1].ids[0]]
			v[g-1]++
			votes[a.ments[m-1].ids[0]] = v
		}
		return true
	})
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
		best, second := "", 0
		for _, m := range a.ments {
			if m.inQuote || len(m.ids) != 1 {
				continue
			}
			counts[m.ids[0]]++
		}
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

// subjectPronoun reads a third-person pronoun (any case) as a gender.
func subjectPronoun(w string) (Gender, bool) {
	switch w {
	case "he", "He", "him", "his", "His", "himself", "HE":
		return GenderMale, true
	case "she", "She", "her", "Her", "hers", "herself", "SHE":
		return GenderFemale, true
	}
	return GenderUnknown, false
}

// titleGender reads a gender from the titles of a character's names.
func titleGender(forms []string) Gender {
	for _, f := range forms {
		first, _, _ := strings.Cut(f, " ")
		switch strings.TrimSuffix(strings.ToLower(first), ".") {
		case "mr", "sir", "lord", "king", "prince", "master", "father", "uncle", "brother", "captain", "colonel", "admiral", "dr", "monsieur", "herr", "señor", "don", "duke", "count", "baron", "reverend", "rev", "mister", "general", "major", "lieutenant", "sergeant", "inspector", "professor", "earl":
			return GenderMale
		case "mrs", "miss", "ms", "lady", "queen", "princess", "mistress", "mother", "aunt", "sister", "madam", "madame", "mademoiselle", "frau", "fräulein", "señora", "señorita", "dame", "duchess", "countess", "baroness", "mme", "mlle":
			return GenderFemale
		}
	}
	return GenderUnknown
}

func (a *attributor) set(i int, rule Rule, tag codex.Range, ids ...string) bool {
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return slices.Contains(a.addressed[i], id) })
	if len(ids) == 0 {
		return false
	}
	u := &a.utts[i]
	u.Rule = rule
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

// writer reads a `<!-- speaker: Name -->` about the utterance.
func (a *attributor) writer(i int) bool {
	c, ok := a.said[i]
	if !ok {
		return false
	}
	name, _ := speakerComment(a.text[c.Start:c.End])
	id, ok := a.cast.Find(name)
	if !ok {
		return false
	}
	u := &a.utts[i]
	u.Speaker, u.Uncertain, u.Candidates, u.Rule, u.Tag = id, false, nil, RuleWriter, c
	return true
}

// indexComments finds which utterance each speaker comment is about: the
// last that begins before it in its paragraph; else the first after it,
// in its paragraph or the next (a comment on a line of its own before
// the speech).
func (a *attributor) indexComments() {
	a.said = map[int]codex.Range{}
	for _, c := range htmlComments(a.text, codex.Range{Start: 0, End: len(a.text)}) {
		if _, ok := speakerComment(a.text[c.Start:c.End]); !ok {
			continue
		}
		cp := sort.Search(len(a.paras), func(k int) bool { return a.paras[k].end > c.Start })
		// A comment on the line right below a paragraph is that
		// paragraph's.
		if cp > 0 && strings.Count(a.text[a.paras[cp-1].end:c.Start], "\n") <= 1 && onlyBlank(a.text, a.paras[cp-1].end, c.Start) {
			cp--
		}
		k := sort.Search(len(a.utts), func(k int) bool { return a.utts[k].Marks[0].Start >= c.Start })
		switch {
		case k > 0 && a.para[k-1] == cp:
			a.said[k-1] = c
		case k < len(a.utts) && (a.para[k] == cp || a.para[k] == cp+1 && a.paras[cp].start > c.Start):
			a.said[k] = c
		}
	}
}

// speakerComment reads "<!-- speaker: Name -->".
func speakerComment(c string) (string, bool) {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "<!--"), "-->")
	key, val, ok := strings.Cut(strings.TrimSpace(c), ":")
	if !ok || !strings.EqualFold(strings.TrimSpace(key), "speaker") {
		return "", false
	}
	val = strings.TrimSpace(val)
	return val, val != ""
}

// Bounds that keep attribution linear in the chapter whatever its
// shape: a tag is read within maxWindow bytes of its speech, the speakers
// and names before an utterance are searched back over at most farReach
// of each, and a vocative is judged by the vocativeLook bytes either
// side of the name.
const (
	maxWindow    = 400
	farReach     = 200
	vocativeLook = 24
)

// tagWindow is narration beside a span that may be its tag.
type tagWindow struct {
	r codex.Range
	// after says the window follows the span ("…," said Emma).
	after bool
	// leadIn says the window is the paragraph before the speech's;
	// loose, that it leads in by a speech verb inside its last sentence
	// rather than at its end, so what it decides is a guess.
	leadIn, loose bool
}

// windows are the narration right after each span of utterance i, then
// the narration right before its first span, each cut at the end of a
// sentence and at the next or previous speech.
func (a *attributor) windows(i int) []tagWindow {
	u := &a.utts[i]
	p := a.paras[a.para[i]]
	var out []tagWindow
	for k, m := range u.Marks {
		end := p.end
		if k+1 < len(u.Marks) && u.Marks[k+1].Start < end {
			end = u.Marks[k+1].Start
		} else if i+1 < len(a.utts) && a.para[i+1] == a.para[i] {
			end = a.utts[i+1].Marks[0].Start
		}
		if m.End > p.end || m.End >= end {
			continue
		}
		out = append(out, tagWindow{r: codex.Range{Start: m.End, End: a.sentenceEnd(m.End, end)}, after: true})
	}
	start := p.start
	if i > 0 && a.para[i-1] == a.para[i] {
		start = a.utts[i-1].Marks[len(a.utts[i-1].Marks)-1].End
	}
	if first := u.Marks[0].Start; start < first {
		out = append(out, tagWindow{r: codex.Range{Start: a.sentenceStart(start, first), End: first}})
	}
	if w, ok := a.leadIn(i); ok {
		out = append(out, w)
	}
	return out
}

// leadIn is the last sentence of the paragraph of narration before
// utterance i's, when that sentence leads into the speech: it ends with
// a colon, comma or dash ("Emma smilingly said,").
func (a *attributor) leadIn(i int) (tagWindow, bool) {
	pi := a.para[i]
	if pi == 0 || a.utts[i].Marks[0].Start > firstVisible(a.text, a.paras[pi].pieces[0]) {
		return tagWindow{}, false
	}
	if i > 0 && a.para[i-1] == pi-1 {
		return tagWindow{}, false // the paragraph before is speech
	}
	p := a.paras[pi-1]
	end := p.end
	for end > p.start && isSpaceByte(a.text[end-1]) {
		end--
	}
	if end == p.start {
		return tagWindow{}, false
	}
	if !strings.ContainsRune(",:-—–", rune(a.text[end-1])) {
		// "Mr. Collins began." leads in too, a sentence that ends on its
		// speech verb; "Anne herself answered, lifting her head." may,
		// a last sentence with a speech verb somewhere: a guess.
		if !lastWordsHold(a.text[max(p.start, end-maxWindow):end], 2, isSpeechVerb) {
			if !lastWordsHold(a.text[a.sentenceStart(p.start, end-1):end], maxTagWords, isSpeechVerb) {
				return tagWindow{}, false
			}
			return tagWindow{r: codex.Range{Start: a.sentenceStart(p.start, end-1), End: end}, leadIn: true, loose: true}, true
		}
	}
	// The sentence's own closing mark is not the end of the one before.
	return tagWindow{r: codex.Range{Start: a.sentenceStart(p.start, end-1), End: end}, leadIn: true}, true
}

// sentenceEnd is the end of the sentence from at, before limit: a full
// stop, question or exclamation mark or semicolon not inside a name
// ("Mr. Knightley").
func (a *attributor) sentenceEnd(at, limit int) int {
	limit = min(limit, at+maxWindow)
	for i := at; i < limit; i++ {
		switch a.text[i] {
		case '.', '!', '?', ';':
			if i == at || a.inName(i) {
				continue
			}
			return i + 1
		}
	}
	return limit
}

func (a *attributor) sentenceStart(limit, at int) int {
	limit = max(limit, at-maxWindow)
	for i := at - 1; i > limit; i-- {
		switch a.text[i] {
		case '.', '!', '?', ';':
			if a.inName(i) {
				continue
			}
			return i + 1
		}
	}
	return limit
}

func (a *attributor) inName(off int) bool {
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.End > off })
	return k < len(a.ments) && a.ments[k].r.Start <= off
}

// token is a word of a tag window, or a character's name.
type token struct {
	r    codex.Range
	word string
	ids  []string // a name
}

func (a *attributor) tokens(w codex.Range) []token {
	var out []token
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.End > w.Start })
	at := w.Start
	for ; at < w.End; k++ {
		end := w.End
		var m *charMention
		if k < len(a.ments) && a.ments[k].r.Start < w.End {
			m = &a.ments[k]
			end = max(at, m.r.Start)
		}
		forEachWord(a.text[at:end], func(word string, off int) bool {
			out = append(out, token{r: codex.Range{Start: at + off, End: at + off + len(word)}, word: word})
			return true
		})
		if m == nil {
			break
		}
		if m.r.Start >= at {
			out = append(out, token{r: m.r, ids: m.ids})
		}
		at = max(at, m.r.End)
		// Step over a possessive after the name ("Mary's").
		if strings.HasPrefix(a.text[at:min(w.End, at+2)], "'s") || strings.HasPrefix(a.text[at:min(w.End, at+4)], "’s") {
			out[len(out)-1].word = "'s"
			at += len("'s")
			if a.text[at-1] != 's' {
				at += 2
			}
		}
	}
	return out
}

// lastWordsHold says one of the last n words of s is one ok holds,
// reading s backwards from its end.
func lastWordsHold(s string, n int, ok func(string) bool) bool {
	end := len(s)
	for n > 0 && end > 0 {
		// Back over what is no word, then over the word.
		for end > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:end])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				break
			}
			end -= size
		}
		start := end
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:start])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-') {
				break
			}
			start -= size
		}
		if start == end {
			return false
		}
		if ok(s[start:end]) {
			return true
		}
		end = start
		n--
	}
	return false
}

// speechNouns follow a possessive name to make a tag: "was Mary's reply".
var speechNouns = wordSet(`amendment injunction exhortation entreaty reply answer rejoinder observation exclamation remark response retort
reasoning language declaration conclusion words cry question comment whisper suggestion greeting
answer advice opinion`)

// tag reads the utterance's tag: a speech verb beside a name (explicit)
// or a pronoun (pronoun).
func (a *attributor) tag(i int) bool {
	for _, w := range a.windows(i) {
		if a.tagIn(i, w) {
			if w.loose && a.utts[i].Rule == RuleExplicit {
				a.utts[i].Rule = RuleNarration
			}
			return true
		}
	}
	return false
}

// tagIn reads one window of utterance i as its tag.
func (a *attributor) tagIn(i int, w tagWindow) bool {
	{
		toks := a.tokens(w.r)
		for vi, t := range toks {
			if t.ids != nil {
				continue
			}
			lower := strings.ToLower(t.word)
			verb := speechVerbs[lower]
			if !verb || speechNouns[lower] {
				// "was Mary's reply", "was Mr. Weston's quick amendment"
				if speechNouns[lower] {
					for j := vi - 1; j >= 0 && j >= vi-3; j-- {
						if toks[j].word == "'s" && toks[j].ids != nil {
							if a.set(i, RuleExplicit, codex.Range{Start: toks[j].r.Start, End: t.r.End}, toks[j].ids...) {
								return true
							}
							break
						}
					}
				}
				if !verb {
					continue
				}
			}
			// Before the speech, the subject is the sentence's: its first
			// name or pronoun before the verb that no preposition governs
			// ("Mr. Darcy, drawing near Elizabeth, said to her--").
			if !w.after {
				if j, ok := subjectBefore(toks, vi); ok {
					s := toks[j]
					if s.ids != nil {
						if a.set(i, RuleExplicit, join(t.r, s.r), s.ids...) {
							return true
						}
					} else if g, ok := tagPronoun(s.word); ok && a.pronoun(i, g, s.r.Start, join(t.r, s.r)) {
						return true
					}
				}
			}
			// The subject: a name or pronoun within three words of the
			// verb, on either side, nearest first; after the verb only in
			// a window after the speech or inverted ("said she").
			for d := 1; d <= 3; d++ {
				// At the same distance the subject's side wins: "Anne
				// told Marilla", where "said Emma" has only one.
				for _, j := range []int{vi - d, vi + d} {
					if j < 0 || j >= len(toks) {
						continue
					}
					s := toks[j]
					if j > 0 && prepositions[strings.ToLower(toks[j-1].word)] {
						continue // "said to Emma"
					}
					if s.ids != nil && s.word != "'s" {
						if a.set(i, RuleExplicit, join(t.r, s.r), s.ids...) {
							return true
						}
						continue
					}
					if g, ok := tagPronoun(s.word); ok && !(j < vi && w.after && d > 1) {
						if a.pronoun(i, g, s.r.Start, join(t.r, s.r)) {
							return true
						}
					}
					// "said her father", "cried the old man": a person
					// the tag describes and does not name, resolved as
					// a pronoun of the noun's gender would be, and never
					// certain.
					if g, ok := nounGender[strings.ToLower(s.word)]; ok && j > vi {
						if a.pronoun(i, g, s.r.Start, join(t.r, s.r)) {
							u := &a.utts[i]
							if !u.Uncertain {
								u.Uncertain, u.Candidates, u.Speaker = true, []string{u.Speaker}, ""
							}
							return true
						}
					}
				}
			}
			// A verb with no subject beside it ends this window's search.
			if verb {
				break
			}
		}
		// A lead-in with no speech verb ("Mr. Weston accosted her with,")
		// gives the speech to the sentence's subject: its first word a
		// name, or a pronoun.
		if w.leadIn && len(toks) > 0 {
			if toks[0].ids != nil && toks[0].word != "'s" {
				if a.set(i, RuleNarration, toks[0].r, toks[0].ids...) {
					return true
				}
			} else if g, ok := tagPronoun(toks[0].word); ok {
				if a.pronoun(i, g, toks[0].r.Start, toks[0].r) {
					a.utts[i].Rule = RuleNarration
					return true
				}
			}
		}
	}
	return false
}

// subjectBefore finds the subject of the verb at vi among the tokens
// before it: the name or subject pronoun nearest the verb that no
// preposition governs.
func subjectBefore(toks []token, vi int) (int, bool) {
	// The last one: "As she entered he stopped, and said", "Before
	// Elizabeth could answer, Mrs. Bennet said".
	for j := vi - 1; j >= 0; j-- {
		t := toks[j]
		if t.ids == nil {
			if _, ok := tagPronoun(t.word); !ok || strings.EqualFold(t.word, "i") && j > 0 {
				continue
			}
		}
		if t.word == "'s" {
			continue
		}
		if j > 0 && prepositions[strings.ToLower(toks[j-1].word)] {
			continue
		}
		return j, true
	}
	return 0, false
}

// prepositions govern a name that is then no subject ("near Elizabeth").
var prepositions = wordSet(`to near with at by from for of on upon towards toward into about
after before behind beside besides between than like unlike over under against among around
whom`)

func join(a, b codex.Range) codex.Range {
	return codex.Range{Start: min(a.Start, b.Start), End: max(a.End, b.End)}
}

// tagPronoun reads the subject pronoun of a tag.
func tagPronoun(w string) (Gender, bool) {
	switch strings.ToLower(w) {
	case "he":
		return GenderMale, true
	case "she":
		return GenderFemale, true
	case "they":
		return GenderThey, true
	case "i":
		return genderI, true
	}
	return GenderUnknown, false
}

// genderI marks the first person: the chapter's point of view.
const genderI Gender = 255

// pronoun resolves a tag's pronoun at off to the last character
// mentioned before it whom it fits.
func (a *attributor) pronoun(i int, g Gender, off int, tag codex.Range) bool {
	if g == genderI {
		if a.pov == "" {
			return false
		}
		return a.set(i, RulePronoun, tag, a.pov)
	}
	cands := a.referents(i, off, g)
	if len(cands) == 0 {
		return false
	}
	for _, c := range cands {
		if a.set(i, RulePronoun, tag, c) {
			u := &a.utts[i]
			// Several characters it may be: the pronoun is a guess.
			if len(cands) > 1 {
				u.Uncertain = true
				u.Speaker = ""
				u.Candidates = a.without(i, cands)
			}
			return true
		}
	}
	return false
}

// without is ids less the characters utterance i addresses.
func (a *attributor) without(i int, ids []string) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return slices.Contains(a.addressed[i], id) })
}

// referents are the characters a pronoun at off, in utterance i's tag or
// paragraph, may refer to, likeliest first: a character of the pronoun's
// gender named in the paragraph's own narration before it; then the
// conversation's speakers and the one the line before addressed, the
// speaker of the line just before last (a new paragraph of speech is a
// new speaker); then the characters named in narration, nearest first.
func (a *attributor) referents(i, off int, g Gender) []string {
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if id == "" || seen[id] || !a.fits(id, g) || slices.Contains(a.addressed[i], id) {
			return
		}
		seen[id] = true
		out = append(out, id)
	}
	p := a.paras[a.para[i]]
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= off }) - 1
	for j := k; j >= 0 && a.ments[j].r.Start >= p.start; j-- {
		if m := a.ments[j]; !m.inQuote && len(m.ids) == 1 {
			add(m.ids[0])
		}
	}
	if len(out) > 0 {
		return out
	}
	// The paragraph before, when it is narration: its characters, the
	// subject of its first sentence first.
	if pi := a.para[i]; pi > 0 && (i == 0 || a.para[i-1] != pi-1) {
		pp := a.paras[pi-1]
		for j := k; j >= 0 && a.ments[j].r.Start >= pp.start; j-- {
			if m := a.ments[j]; !m.inQuote && len(m.ids) == 1 && m.r.Start < pp.end && a.opensSentence(m.r.Start, pp.start) {
				add(m.ids[0])
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	prev := ""
	if i > 0 && a.para[i-1] != a.para[i] && a.sameConversation(i-1, i) {
		prev = a.utts[i-1].Speaker
	}
	// The character the narration follows, when it fits: a pronoun
	// that no name nearby explains is most often theirs.
	if a.focal != "" && a.focal != prev {
		add(a.focal)
	}
	if i > 0 && a.sameConversation(i-1, i) {
		for _, id := range a.addressed[i-1] {
			add(id)
		}
	}
	for j := i - 1; j >= 0 && j >= i-6 && a.sameConversation(j, j+1); j-- {
		if s := a.utts[j].Speaker; s != prev {
			add(s)
		}
	}
	for _, id := range a.recent(i, off, g) {
		if id != prev {
			add(id)
		}
	}
	// Beyond reach: whoever spoke earlier in the chapter, latest first,
	// then whoever the chapter names.
	for j := i - 1; j >= 0 && j >= i-farReach && len(out) < 4; j-- {
		if s := a.utts[j].Speaker; s != prev {
			add(s)
		}
	}
	for j := k; j >= 0 && j >= k-farReach && len(out) < 4; j-- {
		// A name spoken in someone's speech is talked of, not talking.
		if m := a.ments[j]; !m.inQuote && len(m.ids) == 1 && m.ids[0] != prev {
			add(m.ids[0])
		}
	}
	add(prev)
	return out
}

// recent are the characters that fit gender g, most recently mentioned
// in narration or heard speaking before off first. The speaker of the
// line just before, in the paragraph before, goes last: a new paragraph
// of speech is a new speaker.
func (a *attributor) recent(i, off int, g Gender) []string {
	var out []string
	seen := map[string]bool{}
	prev := ""
	if i > 0 && a.para[i-1] != a.para[i] {
		prev = a.utts[i-1].Speaker
	}
	add := func(id string) {
		if seen[id] || !a.fits(id, g) {
			return
		}
		seen[id] = true
		out = append(out, id)
	}
	// Walk back over mentions and utterances together, nearest first,
	// within a bounded reach.
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= off }) - 1
	u := i - 1
	const reach = 4000
	for len(out) < 4 {
		mAt, uAt := -1, -1
		if k >= 0 && off-a.ments[k].r.Start < reach {
			mAt = a.ments[k].r.Start
		}
		if u >= 0 && off-a.utts[u].Marks[0].Start < reach {
			uAt = a.utts[u].Marks[0].Start
		}
		if mAt < 0 && uAt < 0 {
			break
		}
		if mAt >= uAt {
			m := a.ments[k]
			k--
			if m.inQuote || len(m.ids) != 1 {
				continue
			}
			add(m.ids[0])
		} else {
			if s := a.utts[u].Speaker; s != "" {
				add(s)
			}
			u--
		}
	}
	if prev != "" {
		if j := slices.Index(out, prev); j >= 0 && len(out) > 1 {
			out = append(append(out[:j:j], out[j+1:]...), prev)
		}
	}
	return out
}

// fits says a character may be referred to by a pronoun of gender g.
func (a *attributor) fits(id string, g Gender) bool {
	have := a.genders[id]
	if c, ok := a.cast.Character(id); ok && c.Gender != GenderUnknown {
		have = c.Gender
	}
	if have == GenderUnknown || g == GenderUnknown {
		return true
	}
	return have == g
}

// narration reads the paragraph's narration around the utterance: one
// character named there, or a sentence that opens with a pronoun
// resolved as a tag's would be.
func (a *attributor) narration(i int) bool {
	p := a.paras[a.para[i]]
	// Only the paragraph's first utterance reads its narration, and only
	// when the paragraph holds that one speaker.
	if i > 0 && a.para[i-1] == a.para[i] {
		if a.utts[i-1].Speaker != "" && a.utts[i-1].Rule != RuleVocative && a.utts[i-1].Rule != RuleTurn {
			return a.set(i, a.utts[i-1].Rule, a.utts[i-1].Tag, a.utts[i-1].Speaker)
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

// vocatives are the characters utterance i addresses by name: a name
// after "dear", "my", "oh", or set off by commas at the speech's edge.
func (a *attributor) vocatives(i int) []string {
	var out []string
	for _, sp := range a.utts[i].Spans {
		k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= sp.Start })
		for ; k < len(a.ments) && a.ments[k].r.End <= sp.End; k++ {
			m := a.ments[k]
			if len(m.ids) != 1 || !a.isVocative(sp, m.r) {
				continue
			}
			out = append(out, m.ids[0])
		}
	}
	return out
}

func (a *attributor) isVocative(sp, r codex.Range) bool {
	// Only the words next to the name matter: a bounded look keeps a
	// long speech full of names linear.
	before := strings.TrimRight(a.text[max(sp.Start, r.Start-vocativeLook):r.Start], " \t\n")
	after := strings.TrimLeft(a.text[r.End:min(sp.End, r.End+vocativeLook)], " \t\n")
	if r.Start-vocativeLook > sp.Start && before == "" {
		before = "…"
	}
	lowerBefore := strings.ToLower(before)
	for _, w := range []string{"dear", "dearest", "my", "oh", "o", "ah"} {
		if strings.HasSuffix(lowerBefore, " "+w) || lowerBefore == w {
			return true
		}
	}
	opens := before == "" || strings.HasSuffix(before, ",") || strings.HasSuffix(before, "!") || strings.HasSuffix(before, "?") || strings.HasSuffix(before, ".")
	closes := after == "" || strings.HasPrefix(after, ",") || strings.HasPrefix(after, "!") || strings.HasPrefix(after, "?") || strings.HasPrefix(after, ".") || strings.HasPrefix(after, ";")
	// "Emma, come here" or "…, Harriet." but not "Emma is …".
	return opens && closes && (before == "" || after == "" || strings.HasPrefix(after, ",") || strings.HasPrefix(after, "!") || strings.HasPrefix(after, "?"))
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
// narration between them.
func (a *attributor) sameConversation(i, j int) bool {
	pi, pj := a.para[i], a.para[j]
	if pj-pi > 2 {
		return false
	}
	for p := pi + 1; p < pj; p++ {
		if a.paras[p].end-a.paras[p].start > 400 {
			return false
		}
	}
	return true
}

// turns fills in the lines of a conversation that no other rule
// decided. A turn is a paragraph's speech; a conversation, turns with at
// most a short paragraph of narration between them. An undecided turn
// goes to the speaker two turns before when the turn between was someone
// else's; when only the turn before is known, to the other party: the
// speaker of the nearest known turn of the same parity, else the one the
// turn before addressed, else the character named or heard nearest
// before who is not the turn before's speaker. The same runs backwards
// from the turns after.
func (a *attributor) turns(decided []bool) {
	// groups[g] are the utterances of one paragraph.
	var groups [][]int
	for i := range a.utts {
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
	other := func(g, near, step int) string {
		// near is the known neighbour turn; step walks away from it.
		b := who[near]
		// The nearest known turn of g's parity, on the far side of g
		// from near first (the turns ahead say who answers), then
		// behind near.
		for h := g + 2*step; h >= 0 && h < len(groups); h += 2 * step {
			if !(step > 0 && linked(h-2, h-1) && linked(h-1, h) || step < 0 && linked(h+1, h+2) && linked(h, h+1)) {
				break
			}
			if known[h] {
				if who[h] != b {
					return who[h]
				}
				break
			}
		}
		for h := g - 2*step; h >= 0 && h < len(groups); h -= 2 * step {
			if !(step > 0 && linked(h, h+1) || step < 0 && linked(h-1, h)) {
				break
			}
			if known[h] && who[h] != b {
				return who[h]
			}
		}
		if step > 0 {
			last := groups[near][len(groups[near])-1]
			for _, id := range a.addressed[last] {
				if id != b {
					return id
				}
			}
		}
		for _, id := range a.recent(groups[g][0], a.utts[groups[g][0]].Marks[0].Start, GenderUnknown) {
			if id != b {
				return id
			}
		}
		return ""
	}
	for g := range groups {
		if known[g] || g == 0 || !linked(g-1, g) || !known[g-1] {
			continue
		}
		if g >= 2 && linked(g-2, g-1) && known[g-2] && who[g-2] != who[g-1] {
			fill(g, who[g-2])
		} else {
			fill(g, other(g, g-1, 1))
		}
	}
	for g := len(groups) - 1; g >= 0; g-- {
		if known[g] || g+1 >= len(groups) || !linked(g, g+1) || !known[g+1] {
			continue
		}
		if g+2 < len(groups) && linked(g+1, g+2) && known[g+2] && who[g+2] != who[g+1] {
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

// uncertain marks an utterance no rule decided, with its candidates:
// the characters who spoke or were named nearest before it.
func (a *attributor) uncertain(i int) {
	u := &a.utts[i]
	u.Speaker = ""
	u.Uncertain = true
	u.Rule = RuleNone
	cands := a.recent(i, u.Marks[0].Start, GenderUnknown)
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

// opensSentence says the text before off, back to the paragraph's start
// at from, ends a sentence or is empty: a name there is the subject.
func (a *attributor) opensSentence(off, from int) bool {
	i := off
	for i > from && (isSpaceByte(a.text[i-1]) || a.text[i-1] == '_' || a.text[i-1] == '*') {
		i--
	}
	return i == from || strings.ContainsRune(".!?;", rune(a.text[i-1]))
}

// nounGender are the nouns of a tag that describe its speaker without a
// name, by the gender they say.
var nounGender = map[string]Gender{
	"father": GenderMale, "man": GenderMale, "gentleman": GenderMale, "boy": GenderMale,
	"husband": GenderMale, "brother": GenderMale, "son": GenderMale, "uncle": GenderMale,
	"lad": GenderMale, "fellow": GenderMale, "sir": GenderMale, "lord": GenderMale, "king": GenderMale,
	"mother": GenderFemale, "woman": GenderFemale, "lady": GenderFemale, "girl": GenderFemale,
	"wife": GenderFemale, "sister": GenderFemale, "daughter": GenderFemale, "aunt": GenderFemale,
	"mistress": GenderFemale, "queen": GenderFemale, "niece": GenderFemale, "cousin": GenderUnknown,
	"friend": GenderUnknown, "companion": GenderUnknown, "child": GenderUnknown, "stranger": GenderUnknown,
	"visitor": GenderUnknown, "guest": GenderUnknown, "host": GenderMale, "hostess": GenderFemale,
}

// eachPronoun calls fn with each word of text that may be a third-person
// pronoun (it starts with h, H, s or S after a non-letter and is at most
// seven letters), and its offset: a byte scan, for the whole chapter's
// narration, that decodes nothing.
func eachPronoun(text string, fn func(w string, at int) bool) {
	letter := func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= utf8.RuneSelf }
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c|0x20 != 'h' && c|0x20 != 's' || i > 0 && letter(text[i-1]) {
			continue
		}
		j := i + 1
		for j < len(text) && j-i <= 8 && letter(text[j]) {
			j++
		}
		if j-i <= 7 && (j == len(text) || !letter(text[j])) {
			if !fn(text[i:j], i) {
				return
			}
		}
		i = j - 1
	}
}
