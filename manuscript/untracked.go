package manuscript

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// UntrackedMinCount is how often a name must appear before it is worth
// suggesting a codex entry for it.
const UntrackedMinCount = 3

// Untracked is a name the prose keeps using that no codex entry has: a
// capitalized word, or a pair of them ("Port Caddow"), that does not
// begin a sentence and is neither a common word nor part of a known name
// or alias; with the other forms of the same name the prose uses, folded
// in (untracked_fold.go).
type Untracked struct {
	// Name is the form the prose uses most, spelled as it is first
	// written in reading order.
	Name string `json:"name"`
	// Aliases are the other forms folded into the name, most used first
	// ("Mr. Wickham" beside Wickham, "Netherfield House" beside
	// Netherfield): an entry that lists them finds the uses Count counts.
	Aliases []string `json:"aliases,omitempty"`
	// Exclude are other names listed that hold a form of this one and
	// that an entry of it would otherwise count as its mentions ("Lady
	// Catherine" for Catherine): the entry excludes them.
	Exclude []string `json:"exclude,omitempty"`
	// Count is how many mentions an entry of this name and these aliases
	// would have, as the mention scan finds them (a sentence's first word
	// included), while none of the other names listed has an entry yet.
	Count int `json:"count"`
	// First is the first use of Name that tells it is a name: one that
	// does not begin a sentence.
	First FirstSeen `json:"first"`
	// Units is how many units such an entry would be mentioned in.
	Units int `json:"units"`
}

// FirstSeen is where a name first appears.
type FirstSeen struct {
	Path  string      `json:"path"`
	Range codex.Range `json:"range"`
}

// nameTally is one untracked-name candidate's occurrences in one unit.
// Occurrences in all capitals are kept apart: "STOP" and "KEEP OUT" are
// shouting or signage, so capitals count only for a name that is also
// written normally somewhere.
type nameTally struct {
	written string
	first   codex.Range
	count   int
	shouted int
	// pieces counts the uses, of count, that were one word of a longer
	// name the finder could not keep whole ("Fenn" of "Gray Alaric Fenn",
	// "Bennet" of "Elizabeth Bennet" opening a sentence), or that followed
	// a title in lower case ("my aunt Phillips").
	pieces int
}

// Untracked lists the untracked names used at least min times across
// the indexed units, most used first, then by name: the names whose
// forms the prose writes at least min times where a capital tells a name
// (not a sentence's first word), and which an entry would find at all.
func (ix *MentionIndex) Untracked(min int) []Untracked {
	min = max(min, 1)
	groups := withoutDeclinedForms(foldToNominatives(ix.untrackedGroups(min), ix.writesWord))
	ix.countUntracked(groups, untrackedBlockBytes)
	var out []Untracked
	for _, g := range groups {
		if g.count > 0 && !opensSentences(g) {
			out = append(out, Untracked{Name: g.name, Aliases: g.aliases, Exclude: g.exclude, Count: g.count, First: g.first, Units: g.units})
		}
	}
	slices.SortFunc(out, func(a, b Untracked) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Name, b.Name), strings.Compare(a.First.Path, b.First.Path))
	})
	return out
}

// opensSentences reports a one-word name the book writes mostly where a
// sentence begins, fewer than one use in five where its capital tells a
// name: a word such as Russian "Но" (but) opens hundreds of sentences
// and is capitalized mid-sentence only where a text lost its stop or
// opens a quotation in guillemets. A name, and English's everyday
// words are listed apart, is written mid-sentence far more often.
func opensSentences(g *untrackedGroup) bool {
	return len(g.forms) == 1 && !strings.Contains(g.name, " ") && g.tally*5 < g.count
}

// joinedToLower reports a word a hyphen joins to a word in lower case,
// before or after it: a compound or a word spelled out ("Mig-u-ell",
// "out-Heroded"), not a name.
func joinedToLower(text string, start, end int) bool {
	if r, size := utf8.DecodeRuneInString(text[end:]); isHyphen(r) {
		if n, _ := utf8.DecodeRuneInString(text[end+size:]); unicode.IsLower(n) {
			return true
		}
	}
	if r, size := utf8.DecodeLastRuneInString(text[:start]); isHyphen(r) {
		if p, _ := utf8.DecodeLastRuneInString(text[:start-size]); unicode.IsLower(p) {
			return true
		}
	}
	return false
}

// writesWord reports whether any indexed unit holds word, spelled as it
// is, as a whole word: an everyday word in lower case (a normalized
// word), or a Russian name's nominative (foldToNominatives). Each unit
// remembers its answer per word, so an edit asks the edited unit only.
func (ix *MentionIndex) writesWord(word string) bool {
	for _, um := range ix.order {
		if um.writesWord(word) {
			return true
		}
	}
	return false
}

// writesWord is MentionIndex.writesWord for one unit, remembered.
func (um *unitMentions) writesWord(word string) bool {
	if v, ok := um.written.Load(word); ok {
		return v.(bool)
	}
	found := false
	text := um.unit.Text
	for i := 0; !found; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(word)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		found = (start == 0 || !isWordRune(before)) && (end == len(text) || !isWordRune(after))
		i = start + 1
	}
	um.written.Store(word, found)
	return found
}

// pairOther is the word of pair that is not word.
func pairOther(pair, word string) string {
	a, b, _ := strings.Cut(pair, " ")
	if a == word {
		return b
	}
	return a
}

// untrackedFinder collects the untracked-name candidates of one unit.
//
// What counts as sentence-initial, where a capital says nothing about
// names: the first word of the body, of a paragraph, and of a line that
// begins a block (a list item, a quote, dialogue opened by a dash); the
// word after . ! ? … or :, unless the full stop closes a title ("Mr.")
// or an initial ("J."); and the first word inside an opening quotation
// mark that itself follows one of these. Closing quotes, brackets,
// dashes and emphasis marks between the stop and the word do not change
// that.
//
// Headings are skipped, since titles capitalize every word, and so are
// code spans and blocks. Spans that are mentions are skipped too: they
// are tracked already.
type untrackedFinder struct {
	m     *Matcher
	text  string
	names map[string]nameTally
	// run is the current sequence of capitalized words, each separated
	// from the last by white space within the paragraph, as the mention
	// scan reads a name ("Maple\nGrove" in hard-wrapped prose is one
	// name); keys holds their normalized forms.
	run  []runWord
	keys []byte
}

type runWord struct {
	start, end       int
	keyStart, keyEnd int
	// initial marks a sentence-initial word; quoted the first word of a
	// quotation opened mid-sentence, whose capital may be its quoted
	// sentence's; shout one in all capitals; clitic one that ended in
	// "'s" or the like, which ends a name.
	initial, quoted, shout, clitic bool
}

// findUntracked collects the candidates of the body of u.
func findUntracked(m *Matcher, u *Unit, body codex.Range, mentions []Mention) map[string]nameTally {
	f := &untrackedFinder{m: m, text: u.Text[:body.End], names: map[string]nameTally{}}
	skips := untrackedSkips(u)
	t := proseTokenizer{text: f.text, pos: body.Start}
	var tok proseToken
	pending := true     // the next word begins a sentence
	abbrev := false     // a full stop now would close an abbreviation
	afterBlock := false // a heading or code block was just skipped
	quote := false      // a quotation was just opened (emphasis aside)
	si, mi := 0, 0
	for t.next(&tok) {
		lineStart := tok.lineBreaks > 0 || tok.start == body.Start
		if tok.lineBreaks > 1 || (afterBlock && lineStart) {
			f.flush()
			pending = true
		}
		afterBlock = false
		for si < len(skips) && skips[si].End <= tok.start {
			si++
		}
		if si < len(skips) && skips[si].Start <= tok.start {
			f.flush()
			t.pos = max(t.pos, skips[si].End)
			pending, abbrev, quote = false, false, false
			afterBlock = startsLine(f.text, skips[si].Start, body.Start)
			continue
		}
		for mi < len(mentions) && mentions[mi].Range.End <= tok.start {
			mi++
		}
		if mi < len(mentions) && mentions[mi].Range.Start <= tok.start {
			f.flush()
			pending, abbrev, quote = false, false, false
			continue
		}
		if tok.kind != proseWord {
			// A title's full stop keeps its run going: "Mr. Brooke" is
			// one name, not Brooke after a word.
			if !f.titleStop(&tok, abbrev) {
				f.flush()
			}
			pending = f.sentenceAfter(&tok, pending, abbrev, lineStart)
			abbrev = false
			quote = f.opensQuote(&tok) || quote && isEmphasisMark(f.text[tok.start])
			continue
		}
		if n := len(f.run); n > 0 && f.run[n-1].clitic {
			f.flush()
		}
		initial, quoted := pending, quote && !pending
		pending, quote = false, false
		end := tok.end
		if tok.stem > 0 {
			end = tok.stem
		}
		keyStart := len(f.keys)
		f.keys = appendWordKey(f.keys, f.text[tok.start:end])
		key := f.keys[keyStart:]
		abbrev = isTitleAbbreviation(key) || tok.upper && isInitial(key)
		if !tok.upper || breaksNameRun(key) || joinedToLower(f.text, tok.start, end) {
			f.keys = f.keys[:keyStart]
			f.flush()
			continue
		}
		f.run = append(f.run, runWord{
			start: tok.start, end: end, keyStart: keyStart, keyEnd: len(f.keys),
			initial: initial, quoted: quoted, shout: IsShouted(f.text[tok.start:end]), clitic: tok.stem > 0,
		})
	}
	f.flush()
	return f.names
}

// titleStop reports whether tok is the full stop of a title's
// abbreviation that the current run ends with ("Mr.").
func (f *untrackedFinder) titleStop(tok *proseToken, abbrev bool) bool {
	n := len(f.run)
	if !abbrev || n == 0 || tok.gap > 0 || f.run[n-1].end != tok.start || f.text[tok.start] != '.' {
		return false
	}
	w := f.run[n-1]
	return isTitleAbbreviation(f.keys[w.keyStart:w.keyEnd])
}

// sentenceAfter says whether the next word begins a sentence, given the
// punctuation mark tok and what was pending before it.
func (f *untrackedFinder) sentenceAfter(tok *proseToken, pending, abbrev, lineStart bool) bool {
	if tok.kind == proseInvalid {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f.text[tok.start:tok.end])
	switch {
	case r == '.':
		return pending || !abbrev
	case r == '!' || r == '?' || r == '…' || r == ':' || r == '‽':
		return true
	case isOpeningQuote(r, f.text, tok):
		// A quotation opened mid-sentence ("she said, “Carl is here”")
		// does not make its first word a sentence's: dialogue opening a
		// paragraph begins one already.
		return pending
	case lineStart && strings.ContainsRune("#>-*+|—–―", r):
		return true
	case strings.ContainsRune("\"'’”»›()[]{}*_~—–―-", r):
		return pending
	}
	return false
}

// opensQuote reports whether tok is a quotation mark that opens a
// quotation.
func (f *untrackedFinder) opensQuote(tok *proseToken) bool {
	if tok.kind == proseInvalid {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f.text[tok.start:tok.end])
	return isOpeningQuote(r, f.text, tok)
}

// isEmphasisMark reports the Markdown marks that may stand between a
// quotation mark and its first word (“*The Hesper*”).
func isEmphasisMark(b byte) bool { return b == '*' || b == '_' }

// isOpeningQuote reports a quotation mark that opens a quotation: one of
// the marks that only open, or a straight quote with space or an
// opening bracket before it.
func isOpeningQuote(r rune, text string, tok *proseToken) bool {
	switch r {
	case '“', '‘', '«', '„', '‚', '‹', '「', '『':
		return true
	case '"', '\'':
		if tok.gap > 0 || tok.start == 0 {
			return true
		}
		prev, _ := utf8.DecodeLastRuneInString(text[:tok.start])
		return strings.ContainsRune("([{—–-*_", prev)
	}
	return false
}

// flush turns the current run of capitalized words into candidates:
// without a sentence-initial first word, two words make a pair, and
// otherwise each word stands alone.
func (f *untrackedFinder) flush() {
	run := f.run
	f.run = f.run[:0]
	defer func() { f.keys = f.keys[:0] }()
	key := func(w runWord) []byte { return f.keys[w.keyStart:w.keyEnd] }
	// The words of the run that may be names, before any is left out:
	// a word recorded alone from a run that holds another is a piece of
	// a longer name ("Fenn" of "Gray Alaric Fenn", "Bennet" of "Elizabeth
	// Bennet" opening a sentence), not the word used bare.
	namelike := 0
	isNamelike := func(w runWord) bool {
		k := key(w)
		return utf8.RuneCount(k) > 1 && !isCommonish(string(k)) && !isTitle(k)
	}
	for _, w := range run {
		if isNamelike(w) {
			namelike++
		}
	}
	// A sentence's first word says nothing by its capital, unless it is
	// a title before a name ("Mr. Brooke came").
	if len(run) > 0 && run[0].initial && !(len(run) == 2 && isTitle(key(run[0]))) {
		run = run[1:]
	}
	// Nor does a quotation's first word, when it is an everyday word
	// before a name: `said--"The Moonstone will…"` and “Tell Corwin”
	// name the Moonstone and Corwin. A name alone there still counts
	// (“Corwin is here”), as it would anywhere mid-sentence.
	if len(run) > 1 && run[0].quoted && isCommonish(string(key(run[0]))) && !isTitle(key(run[0])) {
		run = run[1:]
	}
	// A title before a whole name ("Lord Alaric Fenn", "Sir William
	// Lucas") is a form of address: the name is the pair after it.
	if len(run) == 3 && isTitle(key(run[0])) && !isTitle(key(run[1])) {
		run = run[1:]
	}
	if len(run) == 2 {
		a, b := run[0], run[1]
		// A title before a known name that no entry writes with it is
		// someone else of the family: "Mrs. Pett" beside Mr. Pett.
		pair := func(mark ...byte) []byte {
			p := append(make([]byte, 0, len(mark)+a.keyEnd-a.keyStart+1+b.keyEnd-b.keyStart), mark...)
			return append(append(append(p, key(a)...), ' '), key(b)...)
		}
		switch {
		case f.novel(key(a)) || f.novel(key(b)) || isTitle(key(a)) && f.m.IsNameWord(string(key(b))):
			f.record(pair(), a.start, b.end, a.shout || b.shout, false)
		case !a.shout && !b.shout && f.nameLikeCommon(key(a)) && f.nameLikeCommon(key(b)):
			// Two everyday words capitalized mid-sentence ("at Maple
			// Grove", "to Box Hill"): a name if the book never writes
			// them so in lower case, as for one word alone.
			f.record(pair(commonMark), a.start, b.end, false, false)
		}
		return
	}
	for _, w := range run {
		switch k := key(w); {
		case f.novel(k):
			own := 0
			if isNamelike(w) {
				own = 1
			}
			f.record(k, w.start, w.end, w.shout, namelike > own || len(run) == 1 && afterLowerTitle(f.text, w.start))
		case len(run) == 1 && !w.shout && f.nameLikeCommon(k):
			f.record(append([]byte{commonMark}, k...), w.start, w.end, false, false)
		}
	}
}

// IsTitle reports a title before a name, written out ("miss") or
// abbreviated ("mrs"), of a normalized word (as codex.Normalize makes
// it): the word after it is a name, everyday word or not ("Mrs. Long").
func IsTitle(normalizedWord string) bool { return isTitle([]byte(normalizedWord)) }

// IsPeople reports a people, a faith or a nation's member, of a
// normalized word ("frenchwoman", "saxons", "quaker"): a word that names
// a kind of person, no one person.
func IsPeople(normalizedWord string) bool { return isDemonym(normalizedWord) }

// IsAddress reports a word of address of a normalized word: a title
// ("admiral", "mrs") or an honorific ("madam", "ma'am", "ladyship"),
// which names no one by itself (isTitleOrHonorific).
func IsAddress(normalizedWord string) bool { return isTitleOrHonorific(normalizedWord) }

// isTitle reports a title before a name, written out ("Miss") or
// abbreviated ("Mrs"); not the abbreviations that come after a name
// ("Jr", "& Co").
func isTitle(key []byte) bool {
	switch string(key) {
	case "co", "jr", "sr", "vs":
		return false
	}
	return isTitleWord(string(key)) || isTitleAbbreviation(key)
}

// commonMark opens the key of a tally of an everyday word the unit
// capitalizes mid-sentence ("my sister Rose", "the servant Newton"), or
// of two ("at Maple Grove"): a name if the book never writes the words
// in lower case, which only the whole book can tell
// (MentionIndex.Untracked).
const commonMark = '\x00'

// nameLikeCommon reports an everyday word that, capitalized mid-sentence
// and alone, may be a name: not a title, honorific, people or word of a
// known name, and none of the words prose capitalizes for reverence or
// as a form of address.
func (f *untrackedFinder) nameLikeCommon(key []byte) bool {
	w := string(key)
	return utf8.RuneCount(key) > 2 && isCommonish(w) && !f.m.IsNameWord(w) && !isTitleWord(w) && !isHonorific(w) && !isTitleAbbreviation(key) &&
		!isDemonym(w) && !isReverent(w) && !isCalendarWord(w)
}

// isReverent reports the everyday words prose capitalizes for what they
// stand for rather than as names: "God", "Heaven", "Mamma".
func isReverent(word string) bool {
	switch word {
	case "god", "gods", "heaven", "heavens", "hell", "providence", "lord", "christ", "bible", "scripture",
		"gospel", "church", "christmas", "easter", "nature", "fate", "fortune", "death", "time", "love",
		"mamma", "mama", "papa", "pa", "ma", "nurse", "granny", "grandmother", "grandfather", "grandpa",
		"grandma", "baby", "miss", "missis", "sister", "brother", "son", "daughter", "wife", "husband",
		"the", "and", "but", "for", "not", "you", "he", "she", "it", "we", "they", "there", "then", "yes", "no",
		"oh", "ah", "well", "now", "here", "what", "why", "how", "who", "when", "where", "this", "that":
		return true
	}
	return false
}

// novel reports a word that could be part of an untracked name: not a
// common word, not a word of a known name, not a lone letter, not a
// title, abbreviation, honorific or people ("Esq", "Co", "Ladyship", "Englishmen",
// "Indian"), and not a known name made a family or a people ("the
// Wilcoxes", "Belgravian").
func (f *untrackedFinder) novel(key []byte) bool {
	w := string(key)
	return utf8.RuneCount(key) > 1 && !isCommonish(w) && !f.m.IsNameWord(w) && !isTitleWord(w) &&
		!isHonorific(w) && !isTitleAbbreviation(key) && !isDemonym(w) && !isCalendarWord(w) && !f.m.derivedFromName(w)
}

// record tallies one use of the candidate key at [start, end): shouted,
// or written normally and perhaps as a piece of a longer name.
func (f *untrackedFinder) record(key []byte, start, end int, shout, piece bool) {
	t := f.names[string(key)]
	if shout {
		t.shouted++
	} else {
		if t.count == 0 {
			t.written = f.text[start:end]
			t.first = codex.Range{Start: start, End: end}
		}
		t.count++
		if piece {
			t.pieces++
		}
	}
	f.names[string(key)] = t
}

// isCommonish extends isCommonWord to contractions, which the word list
// lacks: "Isn't" and "Ma'am" are common, "O'Brien" is not.
func isCommonish(key string) bool {
	if isCommonWord(key) {
		return true
	}
	i := strings.IndexByte(key, '\'')
	if i <= 0 {
		return false
	}
	return isCommonWord(key[:i]) || strings.HasSuffix(key, "n't") && isCommonWord(key[:len(key)-3])
}

// IsShouted reports a word of two or more letters in all capitals.
func IsShouted(word string) bool {
	letters := 0
	for _, r := range word {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters > 1
}

// breaksNameRun reports words that are always capitalized and never part
// of a name: "told Jory I would" holds no name "Jory I".
func breaksNameRun(key []byte) bool {
	return string(key) == "i" || isWeekday(string(key))
}

// isTitleAbbreviation reports abbreviations whose full stop ends no
// sentence: "Mr. Tallis", "St. Agnes".
func isTitleAbbreviation(key []byte) bool {
	switch string(key) {
	case "mr", "mrs", "ms", "mx", "messrs", "dr", "prof", "rev", "fr", "st", "mt",
		"jr", "sr", "capt", "col", "gen", "lt", "sgt", "cpl", "hon", "vs", "co":
		return true
	}
	return false
}

// isCalendarWord reports the months, the days of the week, the feasts
// that mark the year and the year itself, which prose capitalizes as
// dates, not names ("in June", "of a Sunday", "at Michaelmas", "by the
// New Year"). A character called June is found once the codex names her.
func isCalendarWord(word string) bool {
	switch word {
	case "christmas", "easter", "michaelmas", "candlemas", "lammas", "martinmas", "hallowmas", "whitsun",
		"whitsuntide", "shrovetide", "pentecost", "lent", "halloween", "year", "years":
		return true
	}
	word = strings.TrimSuffix(word, "s")
	switch word {
	case "january", "february", "april", "june", "july", "august", "september", "october", "november", "december":
		return true
	}
	return isWeekday(word)
}

// isWeekday reports the days of the week.
func isWeekday(word string) bool {
	switch word {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// isInitial reports a lone letter other than "I", which a full stop
// after its capital makes an initial ("J. Tallis") rather than the end of
// a sentence ("than I. Then").
func isInitial(key []byte) bool {
	r, size := utf8.DecodeRune(key)
	return size == len(key) && unicode.IsLetter(r) && r != 'i'
}

// startsLine reports whether only spaces and tabs stand between off and
// the start of its line (the body starts a line).
func startsLine(text string, off, bodyStart int) bool {
	for off > bodyStart && (text[off-1] == ' ' || text[off-1] == '\t') {
		off--
	}
	return off <= bodyStart || text[off-1] == '\n'
}

// afterLowerTitle reports a word after a title in lower case and one
// space: "my aunt Phillips", "his brother Gardiner" name someone by a
// title, as "Mrs. Phillips" does.
func afterLowerTitle(text string, start int) bool {
	end := start - 1
	if end < 1 || text[end] != ' ' {
		return false
	}
	i := end
	for i > 0 && end-i < 16 && 'a' <= text[i-1] && text[i-1] <= 'z' {
		i--
	}
	if i == end {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && (isWordRune(r) || isApostropheRune(r)) {
		return false
	}
	return isTitleWord(text[i:end])
}

// untrackedSkips lists, in order, the parts of the body that hold no
// untracked names: headings and code.
func untrackedSkips(u *Unit) []codex.Range {
	var skips []codex.Range
	for _, h := range u.Headings {
		skips = append(skips, h.HeadingRange)
	}
	skips = append(skips, u.Code...)
	slices.SortFunc(skips, func(a, b codex.Range) int { return cmp.Compare(a.Start, b.Start) })
	return skips
}

// UntrackedUses is how often the prose of the indexed units uses a word
// of an untracked name (normalized, as codex.Normalize makes it), alone
// or beside another ("Charles" of "Master Charles Bates"), outside the
// first word of a sentence: what the name-spelling check weighs a
// possible misspelling by.
func (ix *MentionIndex) UntrackedUses(normalized string) int {
	n := 0
	for _, um := range ix.order {
		n += um.wordUses(normalized)
	}
	return n
}

// wordUses is UntrackedUses for one unit, remembered: the tallies of its
// untracked names that hold the word.
func (um *unitMentions) wordUses(word string) int {
	if v, ok := um.uses.Load(word); ok {
		return v.(int)
	}
	n := 0
	for key, t := range um.names() {
		key = strings.TrimPrefix(key, string(commonMark))
		if a, b, pair := strings.Cut(key, " "); key == word || pair && (a == word || b == word) {
			n += t.count + t.shouted
		}
	}
	um.uses.Store(word, n)
	return n
}
