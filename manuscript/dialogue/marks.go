package dialogue

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// quoteSpans finds the quotations of one paragraph in the chapter's
// convention. Only the outer marks make spans: a quotation nested in
// speech (the single quotes inside double ones, and the reverse) is part
// of the speech around it.
func (f *finder) quoteSpans(p *paragraph) []span {
	var out []span
	open := false
	var cur span
	// A paragraph carried over from speech still open starts closed: it
	// must reopen the quotation to continue it.
	openAt := func(at, size int) {
		open = true
		cur = span{mark: codex.Range{Start: at}, words: codex.Range{Start: at + size}}
	}
	closeAt := func(at, size int) {
		cur.words.End = at
		cur.mark.End = at + size
		cur.closed = true
		out = append(out, cur)
		open = false
	}
	for pi, piece := range p.pieces {
		for i := piece.Start; i < piece.End; {
			// Most bytes are plain ASCII and no mark: passed over
			// without decoding.
			if c := f.text[i]; c < utf8.RuneSelf && c != '"' && c != '\'' {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(f.text[i:])
			switch f.role(r, i, size, open, pi == 0 && i == firstVisible(f.text, piece)) {
			case roleOpen:
				if open {
					// A second opening mark before a closing one: the
					// first quotation lost its closing mark.
					closeUnclosed(&cur, f.text, i)
					out = append(out, cur)
				}
				openAt(i, size)
			case roleClose:
				closeAt(i, size)
			case roleToggle:
				if open {
					closeAt(i, size)
				} else {
					openAt(i, size)
				}
			}
			i += size
		}
	}
	if open {
		closeUnclosed(&cur, f.text, p.end)
		out = append(out, cur)
	}
	return out
}

// closeUnclosed ends a quotation that has no closing mark at end, less
// the whitespace before it.
func closeUnclosed(s *span, text string, end int) {
	for end > s.words.Start && isSpaceByte(text[end-1]) {
		end--
	}
	s.words.End = max(end, s.words.Start)
	s.mark.End = s.words.End
	s.closed = false
}

func firstVisible(text string, r codex.Range) int {
	for i := r.Start; i < r.End; i++ {
		switch text[i] {
		case ' ', '\t', '>', '*', '_':
		default:
			return i
		}
	}
	return r.End
}

type role uint8

const (
	roleNone role = iota
	roleOpen
	roleClose
	// roleToggle: a straight double quote, which opens when none is open
	// and closes otherwise.
	roleToggle
)

// role says what the mark r at i does in the chapter's convention, given
// whether a quotation is open and whether r opens its paragraph.
func (f *finder) role(r rune, i, size int, open, paraStart bool) role {
	switch f.conv {
	case QuotesDouble:
		switch r {
		case '"':
			return roleToggle
		case '“':
			if open && f.closingFlank(i, size) {
				return roleClose // a “ typed for a ”
			}
			return roleOpen
		case '”':
			if !open && f.openingFlank(i, size) {
				return roleOpen // a ” typed for a “
			}
			if open {
				return roleClose
			}
		}
	case QuotesSingle:
		switch r {
		case '‘', '\'', '’':
			return f.singleRole(r, i, size, open, paraStart)
		}
	case QuotesGuillemets:
		switch r {
		case f.open:
			return roleOpen
		case f.close:
			if open {
				return roleClose
			}
		}
	case QuotesGerman:
		switch r {
		case '„':
			return roleOpen
		case '“', '”':
			if open {
				return roleClose
			}
		}
	}
	return roleNone
}

// singleRole tells a single quotation mark from an apostrophe, where
// speech is set in single quotes: an apostrophe within a word (don't,
// o'clock), one that begins a word's elision ('em, 'tis, except where it
// opens the paragraph), and one after a plural's s that is followed by a
// lower-case word (the Bennets' house) are not marks, nor is a closing
// mark with no quotation open.
func (f *finder) singleRole(r rune, i, size int, open, paraStart bool) role {
	prev, _ := utf8.DecodeLastRuneInString(f.text[:i])
	next, _ := utf8.DecodeRuneInString(f.text[i+size:])
	if i == 0 {
		prev = ' '
	}
	if i+size >= len(f.text) {
		next = ' '
	}
	wordBefore := unicode.IsLetter(prev) || unicode.IsDigit(prev)
	wordAfter := unicode.IsLetter(next) || unicode.IsDigit(next)
	if wordBefore && wordAfter {
		return roleNone // don't, o'clock
	}
	if r == '‘' || (!wordBefore && (wordAfter || strings.ContainsRune(openAfter, next))) {
		// Opening side. Inside speech, a mark that opens is a nested
		// quotation's or an elision's: not ours.
		if open {
			if r == '‘' || !f.closingFlank(i, size) {
				return roleNone
			}
			return roleClose
		}
		if !paraStart && isElision(f.text[i+size:]) {
			return roleNone
		}
		if r == '’' {
			return roleNone // ’ never opens
		}
		return roleOpen
	}
	// Closing side.
	if !open {
		return roleNone // the Bennets' house
	}
	if (prev == 's' || prev == 'S') && next == ' ' {
		w := nextWord(f.text[i+size:])
		if w != "" && unicode.IsLower(firstLetter(w)) && !isSpeechVerb(w) && !isPronoun(w) {
			return roleNone
		}
	}
	return roleClose
}

// openAfter are the characters a quotation may start with besides a
// letter: it may open on a dash, an ellipsis, a bracket or another mark.
const openAfter = "—–-.…([\"“_*"

func nextWord(s string) string {
	var w string
	forEachWord(s, func(word string, _ int) bool {
		w = word
		return false
	})
	return w
}

// elisions are the words written with an apostrophe for a dropped first
// syllable: the apostrophe is not a quotation mark.
var elisions = map[string]bool{
	"em": true, "tis": true, "twas": true, "twill": true, "twould": true, "twere": true,
	"cause": true, "cos": true, "coz": true, "til": true, "till": true, "bout": true,
	"n": true, "im": true, "er": true, "ave": true, "ow": true, "e": true, "alf": true,
	"ere": true, "fore": true, "gainst": true, "neath": true, "nuff": true, "scuse": true,
	"spose": true, "ome": true, "ad": true, "ope": true, "ouse": true, "eard": true,
	"ello": true, "umble": true, "appen": true, "ee": true, "un": true, "s": true, "t": true,
	"d": true, "ll": true, "re": true, "ve": true, "m": true, "cept": true, "mongst": true,
}

func isElision(s string) bool {
	end := 0
	for end < len(s) && end < 8 && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z') {
		end++
	}
	if end == 0 || end == 8 {
		return false
	}
	return elisions[strings.ToLower(s[:end])]
}

// openingFlank says the mark at i sits where an opening mark sits: after
// space or the paragraph's start, before a word.
func (f *finder) openingFlank(i, size int) bool {
	prev, _ := utf8.DecodeLastRuneInString(f.text[:i])
	next, _ := utf8.DecodeRuneInString(f.text[i+size:])
	return (i == 0 || unicode.IsSpace(prev) || strings.ContainsRune("([—–", prev)) && next != utf8.RuneError && !unicode.IsSpace(next)
}

// closingFlank says the mark at i sits where a closing mark sits: after
// a word or punctuation, before space, punctuation or the end.
func (f *finder) closingFlank(i, size int) bool {
	prev, _ := utf8.DecodeLastRuneInString(f.text[:i])
	next, _ := utf8.DecodeRuneInString(f.text[i+size:])
	if i == 0 || unicode.IsSpace(prev) {
		return false
	}
	return i+size >= len(f.text) || unicode.IsSpace(next) || unicode.IsPunct(next)
}

// dashSpans finds the speech of a paragraph that opens with a dash (—,
// ―, or – before a space): the speech runs to the paragraph's end, less
// the narrator's incises, each opened by a dash after a space and closed
// by the next dash (—dijo Juan—) or the paragraph's end.
func (f *finder) dashSpans(p *paragraph) []span {
	first := p.pieces[0]
	at := firstVisible(f.text, first)
	r, size := utf8.DecodeRuneInString(f.text[at:])
	if !isSpeechDash(r, f.text[at+size:]) {
		return nil
	}
	var out []span
	cur := span{mark: codex.Range{Start: at}, words: codex.Range{Start: at + size}}
	inSpeech := true
	// incise marks a French tag left unmarked inside the speech (it ends
	// at the next comma, where the speech goes on, or with its sentence).
	incise := false
	for _, piece := range p.pieces {
		for i := max(piece.Start, at+size); i < piece.End; {
			r, size := utf8.DecodeRuneInString(f.text[i:])
			switch {
			case inSpeech && (r == ',' || r == '!' || r == '?' || r == '…') && i+size < piece.End && f.text[i+size] == ' ' && frenchInciseAt(f.text, i+size+1, piece.End):
				closeUnclosed(&cur, f.text, i+size)
				cur.closed = true
				out = append(out, cur)
				inSpeech, incise = false, true
				i += size
				continue
			case incise && (r == ',' || r == '.' || r == '!' || r == '?' || r == ';'):
				// The speech goes on after the tag, past its comma or
				// the end of its sentence, when more words follow ("—
				// Vous pouvez parler, répondis-je. Il entend très-
				// difficilement.").
				incise, inSpeech = false, true
				cur = span{mark: codex.Range{Start: i + size}, words: codex.Range{Start: i + size}}
				i += size
				continue
			}
			if r != '—' && r != '―' && r != '–' {
				i += size
				continue
			}
			prev, _ := utf8.DecodeLastRuneInString(f.text[:i])
			switch {
			case inSpeech && unicode.IsSpace(prev):
				// An incise opens.
				closeUnclosed(&cur, f.text, i)
				cur.closed = true
				out = append(out, cur)
				inSpeech = false
			case !inSpeech:
				// The incise closes; speech resumes after it when more
				// words follow.
				inSpeech = true
				cur = span{mark: codex.Range{Start: i}, words: codex.Range{Start: i + size}}
			}
			i += size
		}
	}
	if inSpeech {
		closeUnclosed(&cur, f.text, p.end)
		cur.closed = true
		out = append(out, cur)
	}
	// Trim the leading punctuation and space the incise left ("—. ¿Cómo").
	kept := out[:0]
	for _, s := range out {
		for s.words.Start < s.words.End {
			r, size := utf8.DecodeRuneInString(f.text[s.words.Start:])
			if !unicode.IsSpace(r) && !strings.ContainsRune(".,;:", r) {
				break
			}
			s.words.Start += size
		}
		if s.words.Start < s.words.End {
			kept = append(kept, s)
		}
	}
	return kept
}

// isSpeechDash says a paragraph that opens with r, then rest, opens with
// a dialogue dash: an em dash or horizontal bar, or an en dash before a
// space (a Markdown list's hyphen is not one).
func isSpeechDash(r rune, rest string) bool {
	switch r {
	case '—', '―':
		return true
	case '–':
		return strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\u00a0")
	}
	return false
}

// detect finds a chapter's convention from the marks that open its
// paragraphs: the most common of “ or " (double), ‘ or ' (single, an
// elision's apostrophe not counted), « or » (guillemets), „ (German) and
// a dialogue dash; double when there is a tie or no paragraph opens with
// a mark.
func detect(text string, paras []paragraph) Quotes {
	counts := map[Quotes]int{}
	for i := range paras {
		at := firstVisible(text, paras[i].pieces[0])
		if at >= len(text) {
			continue
		}
		r, size := utf8.DecodeRuneInString(text[at:])
		switch r {
		case '"', '“':
			counts[QuotesDouble]++
		case '‘':
			counts[QuotesSingle]++
		case '\'':
			if !isElision(text[at+size:]) {
				counts[QuotesSingle]++
			}
		case '«', '»':
			counts[QuotesGuillemets]++
		case '„':
			counts[QuotesGerman]++
		default:
			if isSpeechDash(r, text[at+size:]) {
				counts[QuotesDash]++
			}
		}
	}
	if len(counts) == 0 {
		counts = inlineMarks(text, paras)
	}
	best := QuotesDouble
	for _, q := range []Quotes{QuotesSingle, QuotesGuillemets, QuotesGerman, QuotesDash} {
		if counts[q] > counts[best] {
			best = q
		}
	}
	return best
}

// inlineMarks counts the opening marks of double quotes, guillemets and
// German quotes anywhere in the paragraphs: for a chapter none of whose
// paragraphs opens with a mark, whose speech is all led in ("il jura :
// « Nom de Dieu… »"). Single quotes are left out, apostrophes being
// the same mark.
func inlineMarks(text string, paras []paragraph) map[Quotes]int {
	counts := map[Quotes]int{}
	for i := range paras {
		for _, piece := range paras[i].pieces {
			for _, r := range text[piece.Start:piece.End] {
				switch r {
				case '"', '“':
					counts[QuotesDouble]++
				case '«', '»':
					counts[QuotesGuillemets]++
				case '„':
					counts[QuotesGerman]++
				}
			}
		}
	}
	return counts
}

// guillemetsDirection says whether the chapter's guillemets point out
// (« French ») or in (» German «), by the mark its paragraphs open with.
func guillemetsDirection(text string, paras []paragraph) (open, close rune) {
	out, in := 0, 0
	for i := range paras {
		at := firstVisible(text, paras[i].pieces[0])
		r, _ := utf8.DecodeRuneInString(text[at:])
		switch r {
		case '«':
			out++
		case '»':
			in++
		}
	}
	if in > out {
		return '»', '«'
	}
	return '«', '»'
}
