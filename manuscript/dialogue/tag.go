package dialogue

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

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
		r := codex.Range{Start: m.End, End: a.sentenceEnd(m.End, end)}
		if a.leadsOn(i, r) {
			continue
		}
		out = append(out, tagWindow{r: r, after: true})
	}
	start := p.start
	if i > 0 && a.para[i-1] == a.para[i] {
		start = a.utts[i-1].Marks[len(a.utts[i-1].Marks)-1].End
	}
	if first := u.Marks[0].Start; start < first {
		r := codex.Range{Start: a.sentenceStart(start, first), End: first}
		out = append(out, tagWindow{r: r})
		// A sentence of the paragraph's own narration that ends on its
		// speech verb right before the speech leads into it, as such a
		// paragraph of its own does ("…with their curiosity, he thus
		// explained. "About a month ago…"): hard-wrapped text often
		// sets the speech on the next line of the same paragraph.
		if end := trimSpaceEnd(a.text, start, first); end > start && end <= r.Start && start == p.start && a.endsOnVerb(start, end) {
			out = append(out, a.leadInWindow(start, end, true))
		}
	}
	if w, ok := a.leadIn(i); ok {
		out = append(out, w)
	}
	return out
}

// leadsOn says the narration r after utterance i's speech ends its
// paragraph on a colon, comma or dash before a paragraph that opens with
// speech: it leads into that speech ('"…" And gathering her work
// together, she was hastening away, when Elizabeth called out,'), and is
// no tag of i's.
func (a *attributor) leadsOn(i int, r codex.Range) bool {
	pi := a.para[i]
	if i+1 >= len(a.utts) || a.para[i+1] != pi+1 {
		return false
	}
	next := a.paras[pi+1]
	if a.utts[i+1].Marks[0].Start > firstVisible(a.text, next.pieces[0]) {
		return false
	}
	end := trimSpaceEnd(a.text, r.Start, a.paras[pi].end)
	if end <= r.Start || r.End < end || !strings.ContainsRune(",:-—–", rune(a.text[end-1])) {
		return false
	}
	// A tag right after the speech is its own still ('"Well," said
	// Emma, smiling:' then more of hers): a speech verb in its first
	// three words.
	toks := a.tokens(codex.Range{Start: r.Start, End: end})
	for _, t := range toks[:min(3, len(toks))] {
		if t.ids == nil && isSpeechVerb(t.word) {
			return false
		}
	}
	return true
}

// leadIn is the last sentence of the paragraph of narration before
// utterance i's, when that sentence leads into the speech: it ends with
// a colon, comma or dash ("Emma smilingly said,").
func (a *attributor) leadIn(i int) (tagWindow, bool) {
	pi := a.para[i]
	if pi == 0 || a.utts[i].Marks[0].Start > firstVisible(a.text, a.paras[pi].pieces[0]) {
		return tagWindow{}, false
	}
	p := a.paras[pi-1]
	// A paragraph before that holds speech leads in only by the
	// narration after its last speech ('"No--he should not eat." … Emma
	// returned all her attention to her father, saying in secret--').
	// Only a sentence ending on a colon, comma or dash does: one ending
	// on its verb is the tag of the speech before ('"Come," said Emma.').
	start, spoken := p.start, false
	if i > 0 && a.para[i-1] == pi-1 {
		marks := a.utts[i-1].Marks
		start, spoken = max(start, marks[len(marks)-1].End), true
	}
	end := trimSpaceEnd(a.text, start, p.end)
	if end <= start || !unicode.IsLetter(firstLetter(a.text[start:end])) {
		return tagWindow{}, false
	}
	if !strings.ContainsRune(",:-—–", rune(a.text[end-1])) {
		if spoken {
			return tagWindow{}, false
		}
		// "Mr. Collins began." leads in too, a sentence that ends on its
		// speech verb; "Anne herself answered, lifting her head." may,
		// a last sentence with a speech verb somewhere: a guess.
		// A question told of ("Emma was obliged to ask what they had
		// told her.") leads into its answer (answer.go).
		sentence := a.text[a.sentenceStart(start, end-1):end]
		if reportsQuestion(sentence) {
			return tagWindow{}, false
		}
		if !a.endsOnVerb(start, end) {
			if !lastWordsHold(sentence, maxTagWords, isSpeechVerb) || reportsSpeech(sentence) {
				return tagWindow{}, false
			}
			return a.leadInWindow(start, end, true), true
		}
	}
	return a.leadInWindow(start, end, false), true
}

// endsOnVerb says the narration from start to end ends on its speech
// verb, within its last two words ("Mr. Collins began.", "he thus
// explained.").
func (a *attributor) endsOnVerb(start, end int) bool {
	return lastWordsHold(a.text[max(start, end-maxWindow):end], 2, isSpeechVerb)
}

// leadInWindow is the last sentence of the narration from start to end
// as the window of a lead-in; loose makes what it decides a guess. The
// sentence's own closing mark is not the end of the one before.
func (a *attributor) leadInWindow(start, end int, loose bool) tagWindow {
	return tagWindow{r: codex.Range{Start: a.sentenceStart(start, end-1), End: end}, leadIn: true, loose: loose}
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

// tokens are the words and names of w, in order. They hold until the
// next call, which reuses their memory: a chapter reads thousands of
// tag windows.
func (a *attributor) tokens(w codex.Range) []token {
	out := a.toks[:0]
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
		if possessiveAt(a.text, at, w.End) {
			out[len(out)-1].word = "'s"
			at += len("'s")
			if a.text[at-1] != 's' {
				at += 2
			}
		}
	}
	a.toks = out[:0]
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
		for k := range toks {
			vi := nearestFirst(k, len(toks), w.after)
			t := toks[vi]
			if t.ids != nil {
				continue
			}
			lower := strings.ToLower(t.word)
			verb := isSpeechVerb(lower) || w.after && vi == 0 && inverted(toks)
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
						// "was her husband's answer": a relative's.
						if base, ok := strings.CutSuffix(strings.ReplaceAll(toks[j].word, "’", "'"), "'s"); ok && j > 0 && toks[j].ids == nil {
							r := codex.Range{Start: toks[j-1].r.Start, End: t.r.End}
							if id, ok := a.kinTag(i, toks[j-1].word, base, toks[j-1].r.Start); ok && a.set(i, RulePronoun, r, id) {
								return true
							}
							if g, ok := nounGender[strings.ToLower(base)]; ok && a.description(i, toks[j-1], base, g, toks[j].r.Start, r) {
								a.guess(i)
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
			// "dit-elle", "répliqua-t-il", "dis-je": the subject is the
			// pronoun the verb carries.
			if _, subj, ok := frenchVerbLower(lower); ok && subj != "" {
				if g, ok := frenchSubjects[subj]; ok && a.pronoun(i, g, t.r.Start, t.r) {
					return true
				}
			}
			// Before the speech, the subject is the sentence's: its first
			// name or pronoun before the verb that no preposition governs
			// ("Mr. Darcy, drawing near Elizabeth, said to her--").
			if !w.after {
				// "Her father fondly replied": a relative, the verb's
				// subject.
				if j, ok := kinSubject(toks, vi); ok {
					if id, ok := a.kinTag(i, toks[j-1].word, toks[j].word, toks[j-1].r.Start); ok && a.set(i, RulePronoun, join(t.r, toks[j-1].r), id) {
						return true
					}
				}
				// "Emma heard him almost immediately afterwards say": the
				// one heard speaks, not the hearer; "heard it say" names
				// no one.
				if j, ok := heardObject(a.text, toks, vi); ok {
					if a.tokenTag(i, toks[j], t, objectPronoun) {
						return true
					}
					break
				}
				if j, ok := subjectBefore(a.text, toks, vi); ok && a.tokenTag(i, toks[j], t, tagPronoun) {
					return true
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
					if governed(a.text, toks, j) {
						continue // "said to Emma"
					}
					if s.ids != nil && s.word != "'s" {
						if a.set(i, RuleExplicit, join(t.r, s.r), s.ids...) {
							return true
						}
						continue
					}
					if g, ok := tagPronoun(s.word); ok && !(j < vi && w.after && d > 1 && !auxiliaries(toks[j+1:vi])) {
						if a.pronoun(i, g, s.r.Start, join(t.r, s.r)) {
							return true
						}
					}
					// "said his wife", "cried her father": a relative
					// of a character, by the family name they share.
					if j > vi+1 {
						if id, ok := a.kinTag(i, toks[j-1].word, s.word, toks[j-1].r.Start); ok && a.set(i, RulePronoun, join(t.r, s.r), id) {
							return true
						}
					}
					// "said her father", "cried the old man": a person
					// the tag describes and does not name, resolved as
					// a pronoun of the noun's gender would be, and never
					// certain.
					if g, ok := nounGender[strings.ToLower(s.word)]; ok && j > vi {
						if a.description(i, toks[j-1], s.word, g, s.r.Start, join(t.r, s.r)) {
							a.guess(i)
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
			// "And Miss Bartlett, too, essayed the roguish:"
			if len(toks) > 1 && leadConjunctions[strings.ToLower(toks[0].word)] {
				toks = toks[1:]
			}
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
func subjectBefore(text string, toks []token, vi int) (int, bool) {
	// "Diana, going to the east gable, where Anne was standing at her
	// window, said gently": a verb after a comma closes an aside the
	// sentence's subject opened, a name set off by a comma.
	if vi > 0 && strings.Contains(text[toks[vi-1].r.End:toks[vi].r.Start], ",") {
		first := 0
		if len(toks) > 1 && leadConjunctions[strings.ToLower(toks[0].word)] {
			first = 1
		}
		if f := toks[first]; first < vi-1 && f.ids != nil && f.word != "'s" && strings.HasPrefix(strings.TrimLeft(text[f.r.End:], " "), ",") {
			return first, true
		}
	}
	// The last one: "As she entered he stopped, and said", "Before
	// Elizabeth could answer, Mrs. Bennet said".
	fallback := -1
	for j := vi - 1; j >= 0; j-- {
		t := toks[j]
		if t.ids == nil {
			if _, ok := tagPronoun(t.word); !ok || strings.EqualFold(t.word, "i") && j > 0 {
				continue
			}
		}
		if t.word == "'s" {
			// "till roused by Miss Bates's saying", "without Mr.
			// Woodhouse's giving a sigh, and saying": a name's gerund,
			// and the gerunds it opens, are hers to say.
			if strings.HasSuffix(strings.ToLower(toks[vi].word), "ing") && (vi-j <= 2 || strings.HasSuffix(strings.ToLower(toks[j+1].word), "ing")) {
				return j, true
			}
			continue
		}
		// "met by Lydia, who, flying to her, cried": the name a
		// relative clause opens is its verb's subject, governed or not.
		if governed(text, toks, j) && !(t.ids != nil && j+1 < vi && strings.EqualFold(toks[j+1].word, "who")) {
			continue
		}
		// "He took the hint, and when Mary had finished her second
		// song, said aloud": a clause a conjunction opens, closed by a
		// comma right before the verb, holds no subject of it ("when
		// she drew back, and said" does).
		// Where the sentence has no other, it is the clause's.
		if j > 0 && subordinators[strings.ToLower(toks[j-1].word)] && strings.Contains(text[toks[vi-1].r.End:toks[vi].r.Start], ",") {
			if fallback < 0 {
				fallback = j
			}
			continue
		}
		return j, true
	}
	if fallback >= 0 {
		return fallback, true
	}
	return 0, false
}

// heardObject is the token a verb of hearing before the speech verb at
// vi takes as its object ("heard him say", "heard the Queen say"): the
// one who speaks.
func heardObject(text string, toks []token, vi int) (int, bool) {
	for j := vi - 1; j >= 0 && j >= vi-5; j-- {
		if toks[j].ids != nil || !hearingVerbs[strings.ToLower(toks[j].word)] || j+1 >= vi {
			continue
		}
		// "He heard her attentively, and then said": the hearing
		// ends before the verb.
		if strings.ContainsAny(text[toks[j].r.End:toks[vi].r.Start], ",;:.!?") {
			return 0, false
		}
		o := j + 1
		if articles[strings.ToLower(toks[o].word)] && o+1 < vi && toks[o+1].ids != nil {
			o++
		}
		w := strings.ToLower(toks[o].word)
		if toks[o].ids != nil && (o+1 >= len(toks) || toks[o+1].word != "'s") || objectPronouns[w] != GenderUnknown || w == "it" || w == "them" {
			return o, true
		}
		return 0, false
	}
	return 0, false
}

// subordinators open a clause whose subject is not the sentence's.
var subordinators = wordSet(`when while whilst as after before till until though although if since because once`)

// hearingVerbs take the speaker as their object.
var hearingVerbs = wordSet(`heard hear hears hearing overheard overhear`)

// objectPronouns are the pronouns a verb of hearing takes, by gender.
var objectPronouns = map[string]Gender{"him": GenderMale, "her": GenderFemale}

// objectPronoun reads an object pronoun (any case) as a gender.
func objectPronoun(w string) (Gender, bool) {
	g, ok := objectPronouns[strings.ToLower(w)]
	return g, ok
}

// tokenTag gives utterance i to the tag's token s beside its verb t: a
// name by the explicit rule, a pronoun, read by pron, as it resolves.
func (a *attributor) tokenTag(i int, s, t token, pron func(string) (Gender, bool)) bool {
	if s.ids != nil {
		return a.set(i, RuleExplicit, join(t.r, s.r), s.ids...)
	}
	g, ok := pron(s.word)
	return ok && a.pronoun(i, g, s.r.Start, join(t.r, s.r))
}

// nearestFirst is the k-th of a window's n tokens to read for its
// speech verb: nearest the speech first, so from the start of a window
// after it and from the end of one before it ("But he laughed so
// heartily that Emma could not help saying," is Emma's).
func nearestFirst(k, n int, after bool) int {
	if after {
		return k
	}
	return n - 1 - k
}

// kinSubject finds a relative just before the verb at vi, with at most
// an adverb between ("Her father fondly replied"): the possessive and
// the noun of kinship, the verb's subject.
func kinSubject(toks []token, vi int) (int, bool) {
	j := vi - 1
	if j >= 0 && toks[j].ids == nil && strings.HasSuffix(toks[j].word, "ly") && isLower(toks[j].word) {
		j--
	}
	if j < 1 || toks[j].ids != nil || toks[j-1].ids != nil {
		return 0, false
	}
	if _, ok := kinNouns[strings.ToLower(toks[j].word)]; !ok {
		return 0, false
	}
	switch strings.ToLower(toks[j-1].word) {
	case "his", "her":
		return j, true
	}
	return 0, false
}

func isLower(w string) bool { return w != "" && unicode.IsLower(firstLetter(w)) }

// governed says a preposition governs token j: it comes right before,
// with no punctuation between ("near Elizabeth", where "When this was
// over, Mr. Woodhouse observed" leaves the name the subject).
func governed(text string, toks []token, j int) bool {
	if j == 0 || !prepositions[strings.ToLower(toks[j-1].word)] {
		return false
	}
	// "for Frank Churchill to draw near her and say": the subject of
	// the infinitive after it.
	if strings.EqualFold(toks[j-1].word, "for") && j+1 < len(toks) && toks[j+1].word == "to" {
		return false
	}
	return strings.TrimSpace(text[toks[j-1].r.End:toks[j].r.Start]) == ""
}

// leadConjunctions may open a lead-in before its subject.
var leadConjunctions = wordSet(`and but then so yet`)

// prepositions govern a name that is then no subject ("near Elizabeth").
var prepositions = wordSet(`to near with at by from for of on upon towards toward into about
after before behind beside besides between than like unlike over under against among around
whom`)

// articles may stand between a preposition and the name it governs.
var articles = wordSet(`the a an`)

func join(a, b codex.Range) codex.Range {
	return codex.Range{Start: min(a.Start, b.Start), End: max(a.End, b.End)}
}

// opensSentence says the text before off, back to the paragraph's start
// at from, ends a sentence or is empty: a name there is the subject.
func (a *attributor) opensSentence(off, from int) bool {
	back := func(i int) int {
		for i > from && (isSpaceByte(a.text[i-1]) || a.text[i-1] == '_' || a.text[i-1] == '*') {
			i--
		}
		return i
	}
	i := back(off)
	// "…was off; but Mr. Knightley … sat down again", "But Mr.
	// Knightley …": a clause a conjunction opens.
	if j := i; j > from && isASCIILetter(a.text[j-1]) {
		for j > from && isASCIILetter(a.text[j-1]) {
			j--
		}
		if leadConjunctions[strings.ToLower(a.text[j:i])] {
			if k := back(j); k == from || strings.ContainsRune(".!?;", rune(a.text[k-1])) {
				return true
			}
		}
	}
	return i == from || strings.ContainsRune(".!?;", rune(a.text[i-1]))
}

// auxiliaries says toks are all auxiliary verbs ("was" of "he was
// saying"), which may stand between a tag's pronoun and its verb.
func auxiliaries(toks []token) bool {
	for _, t := range toks {
		switch strings.ToLower(t.word) {
		case "was", "is", "were", "had", "has", "kept":
		default:
			return false
		}
	}
	return len(toks) > 0
}

// reportsSpeech says a sentence gives what its speech verb said ("Mr.
// Bennet replied that he had not.", "Miss Bartlett agreed: one wanted a
// man with a whip."): speech over, no lead into the next.
func reportsSpeech(sentence string) bool {
	found := false
	forEachWord(sentence, func(w string, at int) bool {
		if !isSpeechVerb(strings.ToLower(w)) {
			return true
		}
		rest := strings.TrimLeft(sentence[at+len(w):], " \t\n")
		next, after := firstWord(rest)
		// "asked her if …": the one asked comes between.
		if askedOf[next] {
			next, _ = firstWord(after)
		}
		found = strings.HasPrefix(rest, ":") || reportWords[next]
		return !found
	})
	return found
}

// reportWords open what a speech verb reports: "replied that he had
// not", "asked her if Charlotte Lucas had been", "said what was
// proper", "enquired after her husband".
var reportWords = wordSet(`that how whether if what after`)

// firstWord is the first word of s, lower case and without the
// punctuation after it, and what follows it; a line break parts words
// as a space does.
func firstWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t\n")
	end := strings.IndexAny(s, " \t\n")
	if end < 0 {
		end = len(s)
	}
	return strings.ToLower(strings.TrimRight(s[:end], ",;")), s[end:]
}

// askedOf are the pronouns of the one a question is put to.
var askedOf = wordSet(`her him them me us`)
