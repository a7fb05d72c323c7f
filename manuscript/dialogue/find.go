package dialogue

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Find finds the utterances of a chapter's text: body is the prose after
// any front matter, skip the code that is never speech. HTML comments,
// headings and scene breaks are never speech either, nor is a letter set
// out in quotation marks (letters.go).
//
// The scan is one pass over the body, paragraph by paragraph, with the
// state of one open quotation: it costs linear time whatever the marks,
// balanced or not.
func Find(text string, body codex.Range, skip []codex.Range, opts Options) []Utterance {
	body = clampRange(body, len(text))
	paras := paragraphs(text, body, skip)
	return withoutLetters(text, paras, findIn(text, paras, opts))
}

// findIn is Find over the paragraphs of the text.
func findIn(text string, paras []paragraph, opts Options) []Utterance {
	return findAfter(nil, edit{}, text, paras, opts).utts
}

// found is a chapter's speech as the scan found it, with where the scan
// stood as it entered each paragraph, so that the next version of the
// chapter scans again only the paragraphs an edit reached (refind.go).
type found struct {
	utts  []Utterance
	paras []paragraph
	conv  Quotes
	// open and close are the guillemets' direction.
	open, close rune
	// entered[k] is the scan as it entered paragraph k.
	entered []scanMark
	// scanned counts the paragraphs scanned, the others taken from the
	// version before.
	scanned int
}

// scanMark is where the scan stood as it entered a paragraph: clean when
// no speech was carried into it, and how many utterances it had found.
type scanMark struct {
	clean bool
	out   int
}

// newFinder is the scan of text with the book's convention, or the one
// its paragraphs show.
func newFinder(text string, paras []paragraph, opts Options) *finder {
	f := &finder{text: text, conv: opts.Quotes}
	if f.conv == "" || f.conv == QuotesAuto {
		f.conv = detect(text, paras)
	}
	if f.conv == QuotesGuillemets {
		f.open, f.close = guillemetsDirection(text, paras)
	}
	return f
}

func clampRange(r codex.Range, n int) codex.Range {
	r.Start = max(0, min(r.Start, n))
	r.End = max(r.Start, min(r.End, n))
	return r
}

// finder is the scan's state: the utterance being built and, inside a
// paragraph, the quotation open.
type finder struct {
	text string
	conv Quotes
	// open and close are the guillemets' direction: « » or » «.
	open, close rune
	out         []Utterance
	// cur is the utterance being built; its last span may still be open.
	cur *Utterance
	// carry says the paragraph ended inside speech that the next
	// paragraph may continue.
	carry bool
}

// span is one quotation's extent in a paragraph.
type span struct {
	mark    codex.Range // with the marks
	words   codex.Range // without
	closed  bool
	tagGap  bool // the text before it, from the previous span, is a tag
	newPara bool
}

func (f *finder) paragraph(p *paragraph) {
	var spans []span
	if f.conv == QuotesDash {
		spans = f.dashSpans(p)
	} else {
		spans = f.quoteSpans(p)
	}
	spans = f.dropNamedWords(p, spans)
	// A paragraph that continues open speech must open with speech.
	if f.carry {
		if len(spans) == 0 || !f.startsParagraph(p, spans[0]) {
			f.flush()
		}
	}
	f.carry = false
	for i, s := range spans {
		switch {
		case i == 0 && f.cur != nil:
			// Speech continued from the paragraph before.
			f.add(s)
		case i > 0 && f.cur != nil && (f.conv == QuotesDash || f.isTag(spans[i-1], s) && !f.ownTag(p, spans, i)):
			f.add(s)
		default:
			f.flush()
			f.cur = &Utterance{}
			f.add(s)
		}
	}
	// Speech left open at a dash was broken off ("I would have spoken
	// to--"), not carried on: the next paragraph's is another's.
	if n := len(spans); n > 0 && !spans[n-1].closed && p.next >= 0 && f.conv != QuotesDash && !brokenOff(f.text, spans[n-1].words) {
		f.carry = true
		return
	}
	f.flush()
}

// startsParagraph says the span opens its paragraph (bar whitespace and
// Markdown's quote marker or emphasis).
func (f *finder) startsParagraph(p *paragraph, s span) bool {
	for i := p.start; i < s.mark.Start; i++ {
		switch f.text[i] {
		case ' ', '\t', '\n', '\r', '>', '*', '_':
		default:
			return false
		}
	}
	return true
}

func (f *finder) add(s span) {
	// A stage direction in brackets inside speech ("You, (to Emma), I
	// am certain…") is the narrator's: the speech is two spans around it.
	words, mark := s.words, s.mark
	for {
		open, close, ok := stageDirection(f.text, words)
		if !ok {
			break
		}
		f.cur.Spans = append(f.cur.Spans, codex.Range{Start: words.Start, End: trimEnd(f.text, words.Start, open)})
		f.cur.Marks = append(f.cur.Marks, codex.Range{Start: mark.Start, End: trimEnd(f.text, words.Start, open)})
		next := close + 1
		for next < words.End && (isSpaceByte(f.text[next]) || f.text[next] == ',' || f.text[next] == '-') {
			next++
		}
		words.Start, mark.Start = next, next
	}
	if words.Start < words.End {
		f.cur.Spans = append(f.cur.Spans, words)
		f.cur.Marks = append(f.cur.Marks, mark)
	}
}

// stageDirection finds the first bracketed aside in r that reads as the
// narrator's: it opens in lower case and holds at most twelve words.
func stageDirection(text string, r codex.Range) (open, close int, ok bool) {
	for i := r.Start; i < r.End; i++ {
		if text[i] != '(' {
			continue
		}
		j := strings.IndexByte(text[i:r.End], ')')
		if j < 0 {
			return 0, 0, false
		}
		inner := text[i+1 : i+j]
		if unicode.IsLower(firstLetter(inner)) && manuscript.CountWords(inner) <= 12 && i > r.Start {
			return i, i + j, true
		}
		i += j
	}
	return 0, 0, false
}

// trimSpaceEnd is end less the white space before it, down to start.
func trimSpaceEnd(text string, start, end int) int {
	for end > start && isSpaceByte(text[end-1]) {
		end--
	}
	return end
}

func trimEnd(text string, start, end int) int {
	for end > start && (isSpaceByte(text[end-1]) || text[end-1] == ',' || text[end-1] == '-') {
		end--
	}
	return end
}

func (f *finder) flush() {
	if f.cur == nil {
		return
	}
	u := f.cur
	f.cur = nil
	// Spans that hold no word (an empty pair of marks) are no speech.
	kept := 0
	for _, sp := range u.Spans {
		n := manuscript.CountWords(f.text[sp.Start:sp.End])
		u.Words += n
		if n > 0 {
			kept++
		}
	}
	if kept == 0 {
		return
	}
	u.Rule = RuleNone
	f.out = append(f.out, *u)
}

// isTag says the narration between two spans of one paragraph is the
// speech's tag ("said Emma", "he went on, smiling"), so the two spans are
// one utterance; narration that is not a tag separates two utterances.
// ownTag says span i has a tag of its own right after it ("…," she said
// — and the rest. "…," said Jory.) while the narration before it is
// the tag of the span before: two speakers, two utterances.
func (f *finder) ownTag(p *paragraph, spans []span, i int) bool {
	end := p.end
	if i+1 < len(spans) {
		end = spans[i+1].mark.Start
	}
	from := spans[i].mark.End
	if from >= end {
		return false
	}
	words, verb, prev := 0, false, ""
	forEachWord(f.text[from:min(end, from+maxWindow)], func(w string, _ int) bool {
		words++
		// "She went quite softly to the kitchen" is no tag; "he went
		// on" is.
		went := strings.EqualFold(w, "went")
		verb = verb || isSpeechVerb(w) && !went || strings.EqualFold(prev, "went") && strings.EqualFold(w, "on")
		prev = w
		return words < 3
	})
	if !verb {
		return false
	}
	// The narration before it must have been the span before's tag,
	// a speech verb in its first sentence.
	gap := f.text[spans[i-1].mark.End:spans[i].mark.Start]
	sentence := firstSentence(gap)
	before := false
	forEachWord(gap[:sentence], func(w string, _ int) bool {
		before = before || isSpeechVerb(w)
		return !before
	})
	trimmed := strings.TrimRight(gap, " \t\n\"“”'‘’")
	return before && (sentence < len(trimmed) || strings.HasSuffix(trimmed, "."))
}

func (f *finder) isTag(prev, next span) bool {
	gap := f.text[prev.mark.End:next.mark.Start]
	words := 0
	verb := false
	// The verb must be in the gap's first sentence: "…," said Emma. "…"
	// is one utterance, "…" and her children were answered. Mr. W
	// observed, "…" two.
	sentence := firstSentence(gap)
	leads, before := 0, ""
	verbAt := 0
	forEachWord(gap, func(w string, at int) bool {
		words++
		lower := strings.ToLower(w)
		if verbAt == 0 && at < sentence && speechVerbs[lower] {
			verbAt = words
		}
		// `"…," flashed Lucy, "…"`: a verb a name follows, right after
		// the speech, speaks (inverted in tag.go).
		if words == 1 && pastTense(w) && nameFollows(gap[at+len(w):]) {
			verb = true
		}
		if leadVerbs[lower] && !notLeadAfter[before] {
			leads++
		}
		before = lower
		if at < sentence && speechVerbs[lower] {
			verb = true
		}
		return words <= maxAsideWords
	})
	// A second verb of speech that leads into the next speech ("…," he
	// said, and added, "…"; "…?" she asked the Gryphon, and the Gryphon
	// answered, "…") opens another utterance: the first verb was the
	// tag of the speech before. So does one that ends the narration
	// right before the speech, with no comma ("…," the Mock Turtle
	// replied in an offended tone. And the Gryphon added "…").
	if tr := strings.TrimRight(gap, " \t\n\"“”'‘’"); leads >= 2 && (strings.HasSuffix(tr, ",") || strings.HasSuffix(tr, ":") || leadVerbs[strings.ToLower(lastWordBefore(tr, 0, len(tr)))]) {
		return false
	}
	// "Well," he began, slowly, "…": a comma or dash that leaves the
	// sentence open, and narration that starts in lower case.
	// A comma set after the closing mark, as German and French books
	// set it („Guten Tag“, sagte er.), does the same.
	last := lastRuneBefore(f.text, prev.words.Start, prev.words.End)
	if after := strings.TrimLeft(gap, " \t"); strings.HasPrefix(after, ",") || strings.HasPrefix(after, "—") {
		last = ','
	}
	open := last == ',' || last == '—' || last == '–' || last == '-'
	// The speech after the gap taken up in lower case goes on a sentence.
	goesOn := unicode.IsLower(firstLetter(f.text[next.words.Start:next.words.End]))
	// A long tag of one sentence that opens on its verb ("…," said the
	// girl, who was in a state of spiritual starvation, and would have
	// been glad … "Just fancy …"): a relative clause drawn out, not a
	// paragraph of narration.
	if words > maxTagWords && words <= maxAsideWords && verbAt > 0 && verbAt <= 3 && prev.closed && strings.TrimSpace(gap[sentence:]) == "" && !goesOn {
		return true
	}
	if words > maxTagWords {
		// A long aside the speech's own sentence goes on after ("…
		// the clergyman--" she stopt a moment to consider;--"and even
		// the clergyman …"): the speech left open, taken up in lower
		// case.
		return words <= maxAsideWords && open && prev.closed && goesOn
	}
	if words == 0 {
		return !prev.closed
	}
	// "… no harm in trying." So she began: "O Mouse, …": a speech
	// ended, and narration of its own sentence that leads into the next
	// one. The speech's own tag leading on ("I beg your pardon!" said
	// the Mouse, frowning, but very politely: "Did you speak?") joins.
	if strings.ContainsRune(".!?", last) && strings.HasSuffix(strings.TrimRight(gap, " \t\n"), ":") && !goesOn && !unicode.IsLower(firstLetter(gap)) {
		return false
	}
	if verb {
		return true
	}
	first := firstLetter(gap)
	return words <= 8 && open && unicode.IsLower(first) ||
		open && prev.closed && goesOn
}

// leadVerbs are the speech verbs that lead into a speech ("and added,
// '…'"), a narrower set than speechVerbs: "thought", "smiled" or "spoke"
// ("as he spoke,") rarely do.
var leadVerbs = wordSet(`said says saying asked asking replied replying answered answering
cried crying exclaimed exclaiming added adding continued called calling repeated whispered
shouted muttered murmured began remarked remarking observed inquired enquired resumed
rejoined howled screamed`)

// notLeadAfter are the words after which a lead verb leads into nothing
// ("as she had said it", "in answer to", "were asked").
var notLeadAfter = wordSet(`to in a an the little of were was had`)

// maxAsideWords bounds the narration inside one utterance, its tag and
// an aside together.
const maxAsideWords = 60

// firstSentence is where the first sentence of narration ends: after a
// full stop, question or exclamation mark that a space and a capital
// follow.
func firstSentence(s string) int {
	for i := 0; i+2 < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
				j++
			}
			if j > i+1 && j < len(s) && s[j] >= 'A' && s[j] <= 'Z' && !abbreviationBefore(s, i) {
				return i + 1
			}
		}
	}
	return len(s)
}

// abbreviationBefore says the full stop at i ends a title (Mr., Mrs.,
// Dr., St.) rather than a sentence.
func abbreviationBefore(s string, i int) bool {
	j := i
	for j > 0 && (s[j-1] >= 'a' && s[j-1] <= 'z' || s[j-1] >= 'A' && s[j-1] <= 'Z') {
		j--
	}
	switch s[j:i] {
	case "Mr", "Mrs", "Ms", "Dr", "St", "Mme", "Mlle", "Messrs", "Col", "Capt", "Gen", "Rev", "Prof", "Sr", "Jr", "Lt", "Sgt", "M":
		return true
	}
	return false
}

// maxTagWords bounds a tag: longer narration is a paragraph of its own
// between two utterances.
const maxTagWords = 25

func lastRuneBefore(text string, start, end int) rune {
	for end > start {
		r, size := utf8.DecodeLastRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			return r
		}
		end -= size
	}
	return 0
}

func firstLetter(s string) rune {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return r
		}
	}
	return 0
}

// hyphenJoins says a hyphen before rest joins two parts of a word
// ("well-bred"): a letter or digit follows it. A dash ("saying--", "so-- I")
// ends the word.
func hyphenJoins(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// forEachWord calls fn with each word of s (letters, digits, apostrophes
// and hyphens inside) and its offset, until fn returns false.
func forEachWord(s string, fn func(w string, at int) bool) {
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || ((r == '\'' || r == '’') && start >= 0) ||
			r == '-' && start >= 0 && hyphenJoins(s[i+1:])
		if in {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !fn(s[start:i], start) {
				return
			}
			start = -1
		}
	}
	if start >= 0 {
		fn(s[start:], start)
	}
}

// dropNamedWords leaves out quotations that name words rather than speak
// them: a few words inside a sentence of narration, after a word that is
// no speech verb, with no punctuation of speech at their end, and
// narration going on after them in lower case ('the word "ennui" was',
// 'a pun on "fiance" and'). After an article, a possessive or a word
// that names (naming), the words are a noun of the sentence whatever
// stands inside the marks and after them: a comma or full stop inside,
// as typesetting puts them, a dash, a capital or the paragraph's end
// after ('the "beautiful little friend," suggested', 'with its "ready
// wit"--but', 'as a "story." She', 'labelled "Diary."').
func (f *finder) dropNamedWords(p *paragraph, spans []span) []span {
	if f.conv == QuotesDash {
		return spans
	}
	kept := spans[:0]
	for _, s := range spans {
		if !f.namesWords(p, s) {
			kept = append(kept, s)
		}
	}
	return kept
}

func (f *finder) namesWords(p *paragraph, s span) bool {
	if !s.closed || f.startsParagraph(p, s) {
		return false
	}
	words := manuscript.CountWords(f.text[s.words.Start:s.words.End])
	if words > 4 {
		return false
	}
	prevWord := lastWordBefore(f.text, p.start, s.mark.Start)
	if prevWord == "" || isSpeechVerb(prevWord) {
		return false
	}
	lower := strings.ToLower(prevWord)
	noun := determiners[lower] || naming[lower] || strings.HasSuffix(lower, "'s") || strings.HasSuffix(lower, "’s")
	before := lastRuneBefore(f.text, p.start, s.mark.Start)
	// One word in lower case, quoted inside a sentence after a word that
	// is no speech verb, is named whatever punctuation it holds ('the
	// house "did," for it was', 'they call it "highstrung."'): spoken
	// alone it would open its sentence, or follow its verb.
	if words == 1 && unicode.IsLetter(before) && unicode.IsLower(firstLetter(f.text[s.words.Start:s.words.End])) {
		return true
	}
	last := lastRuneBefore(f.text, s.words.Start, s.words.End)
	if unicode.IsPunct(last) && last != '_' && last != '*' && !(noun && (last == ',' || last == '.' || last == ';')) {
		return false
	}
	if !unicode.IsLetter(before) {
		return false
	}
	next := strings.TrimLeft(f.text[s.mark.End:min(len(f.text), s.mark.End+40)], " \t\n")
	if noun {
		return true
	}
	if next == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLower(r) || r == ',' || r == ';' || r == ')' || r == '.' || noun && (r == '-' || r == '—' || r == '–')
}

// determiners open a noun phrase: quoted words right after one are
// named in the sentence, not spoken.
var determiners = wordSet(`the a an its his their our my your this such`)

// naming words put a name or a phrase in a sentence ('what is known as
// "quite a scene," and', 'a notice headed "Mysterious Business."').
var naming = wordSet(`of as headed entitled called named marked labelled labeled about words word initials inscription motto label phrase title`)

// lastWordBefore is the word that ends nearest before end, after from.
func lastWordBefore(text string, from, end int) string {
	var w string
	start := max(from, end-60)
	forEachWord(text[start:end], func(word string, at int) bool {
		w = word
		return true
	})
	return w
}

// brokenOff says the words of r end on a dash: speech interrupted.
func brokenOff(text string, r codex.Range) bool {
	end := trimSpaceEnd(text, r.Start, r.End)
	switch last := lastRuneBefore(text, r.Start, end); last {
	case '-', '—', '–':
		return true
	}
	return false
}
