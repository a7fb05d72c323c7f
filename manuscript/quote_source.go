package manuscript

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/quire-ink/quire/codex"
)

// findQuoteSource looks through every entry and soul for quote: first
// for the same words in order, else for the run of up to sourceWindow
// sentences that holds most of its meaning. Meaning is weighed by rarity
// across the codex, so a passage that shares only the words every entry
// uses is no source. One pass over the catalog's text, with no
// allocation per word for plain ASCII, keeps this fast enough for ten
// thousand entries; the pass also counts how many files hold each word,
// which is all the rarity needs.
func findQuoteSource(ctx context.Context, cat *codex.Catalog, quote string, stop analysis.TokenMap) (*QuoteSource, *codex.Entry, error) {
	q := newQuoteWords(quote, stop)
	if q == nil {
		return nil, nil, nil
	}
	filesWith := make([]int, len(q.content))
	files := 0
	var candidates []sourceCandidate
	for n, e := range cat.All() {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		fs := []sourceFile{{path: e.ID, text: e.Source, bodyStart: e.Body.Start, sections: e.Sections}}
		if e.Soul != nil {
			fs = append(fs, sourceFile{path: e.Soul.ID, text: e.Soul.Source, bodyStart: e.Soul.Body.Start, sections: e.Soul.Sections})
		}
		for _, f := range fs {
			scan := q.scan(f)
			if scan.exact != nil {
				return sourceOf(e, f, *scan.exact, true), e, nil
			}
			files++
			for i := range filesWith {
				if scan.words[i/64]&(1<<(i%64)) != 0 {
					filesWith[i]++
				}
			}
			for _, c := range scan.candidates {
				c.entry, c.file = e, f
				candidates = append(candidates, c)
			}
		}
	}
	weight := make([]float64, len(filesWith))
	total := 0.0
	for i, n := range filesWith {
		// A word no file holds weighs as a rare one, not more: it is what
		// rewording brings, not evidence against a source.
		weight[i] = math.Log(1 + float64(files)/float64(1+max(n, 1)))
		total += weight[i]
	}
	var best *sourceCandidate
	bestShare := 0.0
	for i := range candidates {
		c := &candidates[i]
		held := 0.0
		for w := range weight {
			if c.bits[w/64]&(1<<(w%64)) != 0 {
				held += weight[w]
			}
		}
		share := held / total
		if share < sourceOverlap {
			continue
		}
		if best == nil || share > bestShare || share == bestShare && c.words < best.words {
			best, bestShare = c, share
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	return sourceOf(best.entry, best.file, *best, false), best.entry, nil
}

// A reworded quote is looked for in runs of up to sourceWindow
// sentences, at most sourceStretch times as long as the quote plus
// sourceSlack words: in a long enough passage common words alone would
// match. A run must hold sourceOverlap of the quote's meaning, weighed by
// rarity; to be weighed at all it must hold sourceShortlist of its
// meaningful words, and each file offers its sourcePerFile best runs.
const (
	sourceOverlap   = 0.6
	sourceShortlist = 0.4
	sourceWindow    = 3
	sourceStretch   = 2
	sourceSlack     = 5
	sourcePerFile   = 3
)

type sourceFile struct {
	path      string
	text      string
	bodyStart int
	sections  []codex.Section
}

// sourceCandidate is a run of sentences a quote may be a rewording of.
type sourceCandidate struct {
	// bits marks the quote's meaningful words the run holds; shared
	// counts them; words counts every word of the run.
	bits          []uint64
	shared, words int
	r             codex.Range
	entry         *codex.Entry
	file          sourceFile
}

// betterThan prefers more shared words, then a length closer to the
// quote's.
func (c sourceCandidate) betterThan(o sourceCandidate) bool {
	if c.shared != o.shared {
		return c.shared > o.shared
	}
	return c.words < o.words
}

func sourceOf(e *codex.Entry, f sourceFile, c sourceCandidate, exact bool) *QuoteSource {
	return &QuoteSource{
		Entry:   e.ID,
		Name:    e.Name,
		Path:    f.path,
		Section: innermostSection(f.sections, c.r.Start),
		Range:   c.r,
		Exact:   exact,
	}
}

// innermostSection is the heading of the deepest section holding off.
func innermostSection(sections []codex.Section, off int) string {
	heading := ""
	for _, s := range sections {
		if s.HeadingRange.Start > off {
			break
		}
		if s.Range.Contains(off) {
			heading = s.Heading
		}
	}
	return heading
}

// quoteWords is a quote made ready for matching: its words in order, and
// its meaningful (non-stop) words numbered for bit sets.
type quoteWords struct {
	seq     []string
	content map[string]int
	// shortlist is how many meaningful words a run must hold to be
	// weighed as a source.
	shortlist int
	// maxWindow bounds the words of a passage the quote can be a
	// rewording of: in a long enough passage, common words alone reach
	// the overlap.
	maxWindow int
	// signatures has a bit set for each meaningful word's first letter,
	// last letter and length, so that most words of an entry are passed
	// over without being normalized or looked up.
	signatures [4]uint64
	// buf is scratch space for lower-casing a word.
	buf []byte
}

func newQuoteWords(quote string, stop analysis.TokenMap) *quoteWords {
	q := &quoteWords{content: map[string]int{}}
	eachWord(quote, func(start, end int) {
		q.seq = append(q.seq, string(q.key(quote[start:end])))
	})
	if len(q.seq) == 0 {
		return nil
	}
	for _, w := range q.seq {
		if _, ok := q.content[w]; !ok && !stop[w] {
			q.content[w] = len(q.content)
		}
	}
	if len(q.content) == 0 {
		// A quote of nothing but small words: all of them count.
		for _, w := range q.seq {
			if _, ok := q.content[w]; !ok {
				q.content[w] = len(q.content)
			}
		}
	}
	q.shortlist = max(1, int(math.Ceil(float64(len(q.content))*sourceShortlist)))
	q.maxWindow = sourceStretch*len(q.seq) + sourceSlack
	for w := range q.content {
		if sig, ok := wordSignature(w); ok {
			q.signatures[sig/64] |= 1 << (sig % 64)
		} else {
			// A word signature cannot judge lets every word through.
			q.signatures = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
	}
	return q
}

// mayMatch reports whether a word as written could be one of the
// quote's meaningful words, by its signature.
func (q *quoteWords) mayMatch(w string) bool {
	if n := len(w); n > 2 && w[n-2] == '\'' && w[n-1] == 's' {
		w = w[:n-2]
	}
	sig, ok := wordSignature(w)
	return !ok || q.signatures[sig/64]&(1<<(sig%64)) != 0
}

// wordSignature hashes a plain ASCII word's first and last letters, case
// aside, and its length into 0-255; ok is false for any other word,
// whose normalized form may differ in all three.
func wordSignature(w string) (sig uint8, ok bool) {
	if w == "" {
		return 0, false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return 0, false
		}
	}
	lower := func(c byte) uint32 { return uint32(c) | 0x20 }
	h := lower(w[0])*31*31 + lower(w[len(w)-1])*31 + uint32(len(w))
	return uint8(h ^ h>>8), true
}

// key normalizes one word for matching: lower case, no diacritics, no
// possessive ending. It works in scratch space, so a plain ASCII word
// costs no allocation; the result is valid until the next call.
func (q *quoteWords) key(w string) []byte {
	q.buf = q.buf[:0]
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		q.buf = append(q.buf, codex.Normalize(w)...)
	} else {
		for i := 0; i < len(w); i++ {
			c := w[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			q.buf = append(q.buf, c)
		}
	}
	// As codex.StripPossessive does, on bytes.
	switch n := len(q.buf); {
	case n > 2 && q.buf[n-2] == '\'' && q.buf[n-1] == 's':
		return q.buf[:n-2]
	case n > 2 && q.buf[n-2] == 's' && q.buf[n-1] == '\'':
		return q.buf[:n-1]
	}
	return q.buf
}

// fileScan is what one file holds of a quote.
type fileScan struct {
	// exact is the quote word for word, when the file holds it.
	exact *sourceCandidate
	// candidates are the file's best runs for a reworded quote.
	candidates []sourceCandidate
	// words marks the quote's meaningful words found anywhere in the file.
	words []uint64
}

// scan reads one file for the quote.
func (q *quoteWords) scan(f sourceFile) fileScan {
	size := (len(q.content) + 63) / 64
	type sentence struct {
		bits       []uint64
		words      int
		start, end int
	}
	var ring [sourceWindow]sentence
	for i := range ring {
		ring[i].bits = make([]uint64, size)
	}
	out := fileScan{words: make([]uint64, size)}
	window := make([]uint64, size)
	cur, filled := 0, 0
	reset := func(s *sentence) {
		clear(s.bits)
		s.words, s.start, s.end = 0, -1, -1
	}
	reset(&ring[0])
	offer := func(c sourceCandidate) {
		if len(out.candidates) < sourcePerFile {
			c.bits = slices.Clone(c.bits)
			out.candidates = append(out.candidates, c)
			return
		}
		worst := 0
		for i := range out.candidates {
			if out.candidates[worst].betterThan(out.candidates[i]) {
				worst = i
			}
		}
		if c.betterThan(out.candidates[worst]) {
			c.bits = slices.Clone(c.bits)
			out.candidates[worst] = c
		}
	}
	closeSentence := func() {
		if ring[cur].words == 0 {
			return
		}
		filled = min(filled+1, sourceWindow)
		clear(window)
		total := 0
		for k := range filled {
			s := &ring[(cur-k+sourceWindow)%sourceWindow]
			for i, b := range s.bits {
				window[i] |= b
			}
			total += s.words
			if total > q.maxWindow {
				break
			}
			if shared := countBits(window); shared >= q.shortlist {
				offer(sourceCandidate{bits: window, shared: shared, words: total, r: codex.Range{Start: s.start, End: ring[cur].end}})
			}
		}
		cur = (cur + 1) % sourceWindow
		reset(&ring[cur])
	}
	prevEnd := 0
	eachWord(f.text, func(start, end int) {
		if prevEnd > 0 && endsSentence(f.text[prevEnd:start], start <= f.bodyStart) {
			closeSentence()
		}
		prevEnd = end
		s := &ring[cur]
		if s.start < 0 {
			s.start = start
		}
		s.end = end
		s.words++
		if !q.mayMatch(f.text[start:end]) {
			return
		}
		if i, ok := q.content[string(q.key(f.text[start:end]))]; ok {
			s.bits[i/64] |= 1 << (i % 64)
			out.words[i/64] |= 1 << (i % 64)
		}
	})
	closeSentence()
	if countBits(out.words) == len(q.content) {
		if r, ok := q.exactIn(f.text); ok {
			out.exact = &sourceCandidate{shared: len(q.content), words: len(q.seq), r: r}
		}
	}
	return out
}

// exactIn finds the quote's words, in order and nothing between them,
// in text.
func (q *quoteWords) exactIn(text string) (codex.Range, bool) {
	type word struct {
		w          string
		start, end int
	}
	var words []word
	eachWord(text, func(start, end int) {
		words = append(words, word{string(q.key(text[start:end])), start, end})
	})
	for i := 0; i+len(q.seq) <= len(words); i++ {
		match := true
		for k, w := range q.seq {
			if words[i+k].w != w {
				match = false
				break
			}
		}
		if match {
			return codex.Range{Start: words[i].start, End: words[i+len(q.seq)-1].end}, true
		}
	}
	return codex.Range{}, false
}

// eachWord calls yield with the byte range of every word of s: runs
// of letters, digits and combining marks, an apostrophe between letters
// kept inside ("Mara's"), as the index's tokenizer reads them.
func eachWord(s string, yield func(start, end int)) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && byteClasses[c] != byteWord {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			if !isWordRune(r) {
				i += size
				continue
			}
		}
		start := i
		i += size
		for i < len(s) {
			c := s[i]
			if byteClasses[c] == byteWord {
				i++
				continue
			}
			r, size := rune(c), 1
			if c >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if isWordRune(r) {
				i += size
				continue
			}
			if r == '\'' || r == '’' {
				if next, _ := utf8.DecodeRuneInString(s[i+size:]); i+size < len(s) && unicode.IsLetter(next) {
					i += size
					continue
				}
			}
			break
		}
		yield(start, i)
	}
}

// endsSentence reports whether the text between two words ends a
// sentence: final punctuation before whitespace, a blank line, a new
// list item, heading, table row or quote, or any line break in front
// matter, where each line is a field of its own.
func endsSentence(gap string, inFrontMatter bool) bool {
	if gap == " " {
		return false
	}
	nl := strings.IndexByte(gap, '\n')
	if nl >= 0 && inFrontMatter {
		return true
	}
	for i, r := range gap {
		if isSentenceFinal(r) {
			rest := strings.TrimLeftFunc(gap[i+utf8.RuneLen(r):], func(r rune) bool { return isSentenceFinal(r) || isSentenceCloser(r) })
			if next, _ := utf8.DecodeRuneInString(rest); rest == "" || unicode.IsSpace(next) {
				return true
			}
		}
	}
	if nl < 0 {
		return false
	}
	after := gap[nl+1:]
	if strings.Contains(after, "\n") {
		// A blank line, or lines of markup alone.
		return true
	}
	after = strings.TrimLeft(after, " \t")
	return after != "" && strings.ContainsRune("-*+#|>", rune(after[0]))
}

func countBits(set []uint64) int {
	n := 0
	for _, b := range set {
		n += bits.OnesCount64(b)
	}
	return n
}
