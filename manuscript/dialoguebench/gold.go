package dialoguebench

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// Gold is one utterance the benchmark expects: one character's speech
// from an opening quotation mark to its closing one, the narration that
// interrupts it left out.
type Gold struct {
	// Spans are its words without quotation marks, sorted and apart.
	Spans []codex.Range
	// Speaker is the speaking character's ID, "" when the speaker is not
	// in the codex.
	Speaker string
	// Named is the speaker as the annotation names them.
	Named string
	// Type is the strongest quotation type among those it joins.
	Type QuoteType
	// Quotes are the IDs of the annotation's quotations it holds.
	Quotes []string
}

// Cover is the number of bytes its spans hold.
func (g Gold) Cover() int { return coverLen(g.Spans) }

// GoldStats says what reading the annotations as utterances did.
type GoldStats struct {
	// Quotes are the annotation's quotations; Utterances the gold
	// utterances made of them.
	Quotes, Utterances int
	// Split counts quotations cut in two at a paragraph that closes its
	// speech: PDNC sometimes keeps one speaker's speech over a paragraph
	// of narration, or over a reply, as one quotation.
	Split int
	// Nested counts joins of two quotations of one speaker in one
	// paragraph with no quotation mark between: PDNC cuts speech at a
	// nested quotation ("I said 'Good night,' and he ...") and leaves
	// the nested words out.
	Nested int
	// Tags counts joins of two quotations of one speaker in one
	// paragraph with a tag between, in an annotation that gives speech a
	// tag interrupts as two quotations (LitBank: "I cannot," said Emma,
	// "agree."); PDNC gives it as one quotation of two parts, and where
	// it gives two its annotators judged the narration between more than
	// a tag, which the benchmark keeps.
	Tags int
	// Paragraphs counts joins of speech that runs on into the next
	// paragraph: the paragraph ends with no closing mark and the next
	// opens with one. PDNC mostly gives each paragraph a quotation.
	Paragraphs int
	// Filled counts gaps filled between the parts of an utterance that
	// hold no quotation mark (a nested quotation, a parenthesis).
	Filled int
	// Extended counts utterances whose first or last words were moved
	// out to their quotation mark over a nested quotation the
	// annotation left out.
	Extended int
}

// Add counts another book's.
func (s *GoldStats) Add(o GoldStats) {
	s.Quotes += o.Quotes
	s.Utterances += o.Utterances
	s.Split += o.Split
	s.Nested += o.Nested
	s.Tags += o.Tags
	s.Paragraphs += o.Paragraphs
	s.Filled += o.Filled
	s.Extended += o.Extended
}

// marks are a book's convention for its outer speech: double marks
// ("speech", “speech”), single ones ('speech', ‘speech’), or a dash
// that opens a paragraph of speech, where no mark closes it and a tag
// interrupts it unmarked (Joyce's —Thanks, old chap, he cried.).
type marks struct {
	single, dash bool
}

// outer reports whether the rune at i in text is a mark that opens or
// closes the book's outer speech (an apostrophe between letters is
// none; a book of dashes has none).
func (m marks) outer(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	switch {
	case m.dash:
		return false
	case !m.single:
		return r == '"' || r == '“' || r == '”'
	}
	switch r {
	case '‘':
		return true
	case '\'', '’':
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		return !(unicode.IsLetter(before) && unicode.IsLetter(after))
	}
	return false
}

// nested reports whether r is a mark of speech nested in the outer one.
func (m marks) nested(r rune) bool {
	if m.single {
		return r == '"' || r == '“' || r == '”'
	}
	return r == '\'' || r == '‘' || r == '’'
}

// anyOuter reports whether text[from:to] holds an outer mark.
func (m marks) anyOuter(text string, from, to int) bool {
	for i := from; i < to; {
		if m.outer(text, i) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return false
}

// marksOf finds a book's convention: the mark most of its quotations
// open with (a mark right before a quotation's first words, itself
// after white space, a bracket or the text's start; a dash there).
func marksOf(b Book) marks {
	single, double, dash := 0, 0, 0
	for _, q := range b.Quotes {
		if len(q.Spans) == 0 {
			continue
		}
		before := strings.TrimRight(b.Text[:q.Spans[0].Start], " \t\n")
		r, size := utf8.DecodeLastRuneInString(before)
		prev, _ := utf8.DecodeLastRuneInString(before[:len(before)-size])
		opening := len(before) == size || unicode.IsSpace(prev) || strings.ContainsRune("([_", prev)
		switch {
		case r == '—' || r == '–' || r == '-':
			dash++
		case !opening:
		case r == '\'' || r == '‘':
			single++
		case r == '"' || r == '“':
			double++
		}
	}
	return marks{single: single > double && single >= dash, dash: dash > double && dash > single}
}

// Reading turns the annotation's quotations into gold utterances, so
// that both sources mean by a quotation what quire means by an
// utterance: one character's speech from an opening mark to its closing
// one, over a tag that interrupts it and over the paragraphs it runs
// on into. It
//
//  1. cuts a quotation at a paragraph that closes its speech, the
//     narration or reply after it left out;
//  2. joins, in text order, a quotation to the next when one character
//     speaks both in one paragraph with no mark of the book's outer
//     speech between them (a nested quotation PDNC cuts out), or with
//     a tag between them where the annotation splits speech at its tags
//     (LitBank; Book.SplitAtTags): narration of one sentence, the way
//     PDNC's annotators join sub-quotations; or when the first ends its
//     paragraph without a closing mark and the next opens the next
//     paragraph with one;
//  3. fills the gaps between an utterance's parts that hold no mark of
//     the book's outer speech and no paragraph break (a nested
//     quotation or a parenthesis the annotators left out), and moves an
//     utterance's first and last words out to its marks over a nested
//     quotation that opens or ends it. In a book whose speech opens with
//     a dash and has no closing mark, a gap is always a tag: no gap is
//     filled.
//
// Speakers are resolved to characters; those that are none stay Named.
func Reading(b Book) ([]Gold, GoldStats) {
	st := GoldStats{Quotes: len(b.Quotes)}
	m := marksOf(b)
	// 1. Pieces: each quotation cut at paragraphs that close its speech.
	var pieces []Gold
	for _, q := range b.Quotes {
		spans := cleanSpans(q.Spans)
		if len(spans) == 0 {
			continue
		}
		g := Gold{Named: q.Speaker, Type: q.Type, Quotes: []string{q.ID}}
		if _, ok := b.character(q.Speaker); ok {
			g.Speaker = q.Speaker
		}
		for i, s := range spans {
			if i > 0 {
				gap := b.Text[spans[i-1].End:s.Start]
				if paragraphBreak(gap) && !runsOn(gap) {
					pieces = append(pieces, g)
					g.Spans = nil
					st.Split++
				}
			}
			g.Spans = append(g.Spans, s)
		}
		pieces = append(pieces, g)
	}
	slices.SortStableFunc(pieces, func(a, b Gold) int { return a.Spans[0].Start - b.Spans[0].Start })

	// 2. Joins.
	var out []Gold
	for _, p := range pieces {
		if n := len(out); n > 0 {
			last := &out[n-1]
			end := last.Spans[len(last.Spans)-1].End
			if last.Named == p.Named && end <= p.Spans[0].Start {
				gap := b.Text[end:p.Spans[0].Start]
				join := true
				switch {
				case !paragraphBreak(gap) && !m.dash && !m.anyOuter(b.Text, end, p.Spans[0].Start):
					st.Nested++
				case !paragraphBreak(gap) && b.SplitAtTags && tagBetween(gap):
					st.Tags++
				case runsOn(gap):
					st.Paragraphs++
				default:
					join = false
				}
				if join {
					last.Spans = append(last.Spans, p.Spans...)
					last.Quotes = append(last.Quotes, p.Quotes...)
					last.Type = stronger(last.Type, p.Type)
					continue
				}
			}
		}
		out = append(out, p)
	}

	// 3. Fill and extend.
	for i := range out {
		g := &out[i]
		var spans []codex.Range
		for _, s := range g.Spans {
			if n := len(spans); n > 0 {
				if last := &spans[n-1]; s.Start <= last.End || !m.dash && !paragraphBreak(b.Text[last.End:s.Start]) && !m.anyOuter(b.Text, last.End, s.Start) {
					if s.Start > last.End {
						st.Filled++
					}
					last.End = max(last.End, s.End)
					continue
				}
			}
			spans = append(spans, s)
		}
		first, last := &spans[0], &spans[len(spans)-1]
		extended := false
		if at, ok := openingBefore(b.Text, first.Start, m); ok && at < first.Start {
			first.Start, extended = at, true
		}
		if at, ok := closingAfter(b.Text, last.End, m); ok && at > last.End {
			last.End, extended = at, true
		}
		if extended {
			st.Extended++
		}
		g.Spans = spans
	}
	st.Utterances = len(out)
	return out, st
}

// RawReading is the annotation's quotations as they stand, one gold
// utterance each: the benchmark prints detection against it too.
func RawReading(b Book) []Gold {
	var out []Gold
	for _, q := range b.Quotes {
		spans := cleanSpans(q.Spans)
		if len(spans) == 0 {
			continue
		}
		g := Gold{Spans: spans, Named: q.Speaker, Type: q.Type, Quotes: []string{q.ID}}
		if _, ok := b.character(q.Speaker); ok {
			g.Speaker = q.Speaker
		}
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b Gold) int { return a.Spans[0].Start - b.Spans[0].Start })
	return out
}

// cleanSpans sorts spans and drops the empty ones.
func cleanSpans(spans []codex.Range) []codex.Range {
	var out []codex.Range
	for _, s := range spans {
		if s.End > s.Start {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b codex.Range) int { return a.Start - b.Start })
	return out
}

// paragraphBreak reports whether text holds a blank line: a line
// between two line breaks with nothing but spaces on it.
func paragraphBreak(text string) bool {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return false
		}
		text = text[i+1:]
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return false
		}
		if strings.TrimSpace(text[:j]) == "" {
			return true
		}
	}
}

// runsOn reports whether gap is speech running on into a new paragraph:
// the first paragraph ends with no closing mark and the next opens with
// a mark, nothing else between.
func runsOn(gap string) bool {
	nl := strings.IndexByte(gap, '\n')
	if nl < 0 || strings.TrimSpace(gap[:nl]) != "" || !paragraphBreak(gap) {
		return false
	}
	switch strings.TrimSpace(gap) {
	case `"`, "“", "‘", "'", "«", "»", "„":
		return true
	}
	return false
}

// openingBefore finds the outer mark that opens the speech whose first
// words the annotation starts at start, when the words between it and
// start open with a nested quotation mark and hold no outer mark and no
// paragraph break: a nested quotation the annotation left out ("'Woman,
// lovely woman.' It is such a pretty charade"). It returns the offset
// just after the mark.
func openingBefore(text string, start int, m marks) (int, bool) {
	from := strings.LastIndex(text[:start], "\n\n")
	for i := start - 1; i > from && i >= 0; i-- {
		if !utf8.RuneStart(text[i]) || !m.outer(text, i) {
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+size:])
		if i > 0 && !unicode.IsSpace(before) && !strings.ContainsRune("([—-", before) || unicode.IsSpace(after) {
			return 0, false // the mark closes something: not this speech's
		}
		skipped := strings.TrimSpace(text[i+size : start])
		if r, _ := utf8.DecodeRuneInString(skipped); skipped == "" || !m.nested(r) {
			return 0, false
		}
		return i + size, true
	}
	return 0, false
}

// closingAfter is openingBefore's twin at the speech's end, over words
// that end with a nested quotation mark: the offset of the outer mark
// that closes it.
func closingAfter(text string, end int, m marks) (int, bool) {
	to := strings.Index(text[end:], "\n\n")
	if to < 0 {
		to = len(text)
	} else {
		to += end
	}
	for i := end; i < to; {
		_, size := utf8.DecodeRuneInString(text[i:])
		if !m.outer(text, i) {
			i += size
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+size:])
		if unicode.IsSpace(before) || i+size < len(text) && unicode.IsLetter(after) {
			return 0, false // the mark opens something: not this speech's
		}
		skipped := strings.TrimSpace(text[end:i])
		if r, _ := utf8.DecodeLastRuneInString(skipped); skipped == "" || !m.nested(r) {
			return 0, false
		}
		return i, true
	}
	return 0, false
}

// tagBetween reports whether the narration between two quotations is a
// tag: one sentence ("said Emma", "said Mr. Knightley, laughing", "he
// persisted."), with no sentence end or dash inside it.
func tagBetween(gap string) bool {
	// The marks and stops at either end are the quotations'.
	n := strings.Join(strings.Fields(strings.Trim(gap, " \t\r\n\"“”‘’'.,;:!?-—")), " ")
	for _, abbr := range []string{"Mr.", "Mrs.", "Dr.", "St.", "Messrs.", "Col.", "Capt.", "Mme.", "Mlle.", "Prof.", "Rev.", "Gen.", "Lt."} {
		n = strings.ReplaceAll(n, abbr, strings.TrimSuffix(abbr, "."))
	}
	if n == "" {
		return false
	}
	if strings.Contains(n, "--") || strings.Contains(n, "—") || strings.ContainsAny(n, "\"“”‘") {
		return false // a break, or more speech
	}
	for i := 0; i+2 < len(n); i++ {
		if strings.IndexByte(".!?;", n[i]) >= 0 && n[i+1] == ' ' {
			if r, _ := utf8.DecodeRuneInString(n[i+2:]); unicode.IsUpper(r) {
				return false
			}
		}
	}
	return true
}

// stronger is the type that says more of who speaks.
func stronger(a, b QuoteType) QuoteType {
	rank := func(t QuoteType) int {
		switch t {
		case Explicit:
			return 3
		case Anaphoric:
			return 2
		case Implicit:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// coverLen is the number of bytes spans hold, overlaps counted once.
func coverLen(spans []codex.Range) int {
	n := 0
	for _, s := range union(spans) {
		n += s.End - s.Start
	}
	return n
}

// union sorts spans and merges those that overlap or touch.
func union(spans []codex.Range) []codex.Range {
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b codex.Range) int { return a.Start - b.Start })
	var out []codex.Range
	for _, s := range sorted {
		if s.End <= s.Start {
			continue
		}
		if n := len(out); n > 0 && s.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// overlap is the number of bytes two sorted, merged span lists share.
func overlap(a, b []codex.Range) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if hi > lo {
			n += hi - lo
		}
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return n
}
