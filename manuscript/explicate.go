package manuscript

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/quire-ink/quire/codex"
)

// Bounds of an explication.
const (
	// MaxQuoteChars bounds a quote: a sentence or a few, not an entry.
	MaxQuoteChars = 2000
	// DefaultPassages and MaxPassages bound how many passages come back.
	DefaultPassages = 5
	MaxPassages     = 20
	// PassageExcerptBytes bounds the text returned with each passage.
	PassageExcerptBytes = 1000
)

var (
	// ErrEmptyQuote is returned for a quote with nothing but whitespace.
	ErrEmptyQuote = errors.New("quote is empty")
	// ErrQuoteTooLong is returned for a quote over MaxQuoteChars.
	ErrQuoteTooLong = errors.New("quote is too long")
	// ErrPassagesClosed is returned by a Passages used after Close.
	ErrPassagesClosed = errors.New("passage index is closed")
)

// Query tuning. A passage that repeats the quote word for word is the
// best support there is; a passage that names the entry the quote is
// about usually is about the same thing.
const (
	phraseBoost   = 3
	nameBoost     = 1.5
	namePartBoost = 0.5
	// wordsForTwo is how many distinct words a quote needs before a
	// passage must share two of them: one shared word among many is
	// chance, not support.
	wordsForTwo = 4
)

// ExplicateOptions shape an explication.
type ExplicateOptions struct {
	// Limit is how many passages to return: DefaultPassages when zero or
	// less, at most MaxPassages.
	Limit int
	// Catalog, when set, is searched for the entry the quote comes from;
	// its name and aliases then help rank the passages.
	Catalog *codex.Catalog
}

// Explication is what supports a quoted codex sentence.
type Explication struct {
	Quote string `json:"quote"`
	// Source is where in the codex the quote was found; nil when no
	// catalog was given or no entry holds it.
	Source *QuoteSource `json:"source,omitempty"`
	// Passages are the best supporting paragraphs, best first.
	Passages []Passage `json:"passages"`
}

// QuoteSource is the place in the codex a quote comes from.
type QuoteSource struct {
	// Entry is the entry's ID, Name its name.
	Entry string `json:"entry"`
	Name  string `json:"name"`
	// Path is the file Range points into: the entry's own, or its
	// soul.md.
	Path string `json:"path"`
	// Section is the heading the quote sits under; empty in front matter
	// or before the first heading.
	Section string      `json:"section,omitempty"`
	Range   codex.Range `json:"range"`
	// Exact is true when the file holds the quote's words in order
	// (case, accents, punctuation and markup aside); false when it holds
	// a sentence close enough.
	Exact bool `json:"exact"`
}

// Passage is one manuscript paragraph that supports a quote.
type Passage struct {
	Path     string      `json:"path"`
	Title    string      `json:"title"`
	Number   int         `json:"number,omitempty"`
	Position int         `json:"position,omitempty"`
	Heading  string      `json:"heading,omitempty"`
	Range    codex.Range `json:"range"`
	// Score ranks passages within one explication. It is relative: it
	// means nothing across quotes or after the manuscript changes.
	Score float64 `json:"score"`
	// Text is the paragraph, or the part of it richest in the quote's
	// words, at most PassageExcerptBytes with "…" where it was cut.
	Text string `json:"text"`
}

// Explicate finds the manuscript paragraphs that best support quote, a
// sentence or a few from the codex. The quote is folded and analyzed as
// paragraphs are; a paragraph must share its words (two of them once it
// has several) and ranks higher for repeating it as a phrase and, when
// the quote's entry is found in opt.Catalog, for naming that entry.
// Passages come from the units of the last Sync.
func (p *Passages) Explicate(ctx context.Context, quote string, opt ExplicateOptions) (*Explication, error) {
	if p.closed.Load() {
		return nil, ErrPassagesClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	quote = strings.TrimSpace(quote)
	if quote == "" {
		return nil, ErrEmptyQuote
	}
	if n := utf8.RuneCountInString(quote); n > MaxQuoteChars {
		return nil, fmt.Errorf("%w: %d characters, at most %d", ErrQuoteTooLong, n, MaxQuoteChars)
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultPassages
	}
	limit = min(limit, MaxPassages)
	start := time.Now()

	ex := &Explication{Quote: quote, Passages: []Passage{}}
	var names []string
	if opt.Catalog != nil {
		src, e, err := findQuoteSource(ctx, opt.Catalog, quote, p.stop)
		if err != nil {
			return nil, err
		}
		if src != nil {
			ex.Source = src
			names = append([]string{e.Name}, e.Aliases...)
		}
	}
	folded := codex.Fold(quote)
	terms := p.terms(folded)
	if len(terms) == 0 {
		// Nothing but stop words: nothing a paragraph could be found by.
		return ex, nil
	}
	q := passageQuery(folded, terms, names)
	// Ask for more than needed: hits on units being re-indexed by a
	// concurrent Sync are skipped.
	req := bleve.NewSearchRequestOptions(q, 2*limit, 0, false)
	// Ties are broken by the document id, not by the order the index was
	// filled in (which a parallel batch makes differ from one fresh cache
	// to the next), so the same book gives the same candidates.
	req.SortBy([]string{"-_score", "_id"})
	res, err := p.idx.SearchInContext(ctx, req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, fmt.Errorf("explicate: search passages: %w", err)
	}
	termSet := make(map[string]bool, len(terms))
	for _, t := range terms {
		termSet[t] = true
	}
	snap := p.snap.Load()
	for _, hit := range res.Hits {
		path, hash, i, ok := parseDocID(hit.ID)
		if !ok {
			continue
		}
		iu := snap.units[path]
		if iu == nil || iu.hash != hash {
			continue
		}
		paras := iu.paragraphs()
		if i >= len(paras) {
			continue
		}
		para := paras[i]
		u := iu.unit
		ex.Passages = append(ex.Passages, Passage{
			Path:     u.Path,
			Title:    u.Title,
			Number:   u.Number,
			Position: u.Position,
			Heading:  para.Heading,
			Range:    para.Range,
			Score:    hit.Score,
			Text:     p.excerpt(para.Text, termSet, PassageExcerptBytes),
		})
	}
	// Best first; passages that score the same in the order of the
	// book: by path, then by place in the chapter.
	slices.SortStableFunc(ex.Passages, func(a, b Passage) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.Range.Start, b.Range.Start)
	})
	if len(ex.Passages) > limit {
		ex.Passages = ex.Passages[:limit]
	}
	source := ""
	if ex.Source != nil {
		source = ex.Source.Entry
	}
	p.log.Debug("explicated", "passages", len(ex.Passages), "source", source,
		"ms", time.Since(start).Milliseconds())
	return ex, nil
}

// terms analyzes text as the index analyzes paragraphs and returns its
// distinct terms in order.
func (p *Passages) terms(text string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, tok := range p.prose.Analyze([]byte(text)) {
		t := string(tok.Term)
		if !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	return terms
}

// passageQuery asks for paragraphs that share the quote's terms or
// repeat it, ranked up for naming the entry the quote belongs to.
func passageQuery(folded string, terms, names []string) query.Query {
	words := bleve.NewDisjunctionQuery()
	for _, t := range terms {
		tq := bleve.NewTermQuery(t)
		tq.SetField(fieldPassageText)
		words.AddQuery(tq)
	}
	if len(terms) >= wordsForTwo {
		words.SetMin(2)
	}
	phrase := bleve.NewMatchPhraseQuery(folded)
	phrase.SetField(fieldPassageText)
	phrase.SetBoost(phraseBoost)
	content := bleve.NewDisjunctionQuery(words, phrase)
	if len(names) == 0 {
		return content
	}
	// A paragraph that names the entry needs only one of the quote's
	// words: "her dark brown eyes" is the passage that matters for a codex
	// line about Séverine's green eyes.
	anyWord := bleve.NewDisjunctionQuery()
	for _, t := range terms {
		tq := bleve.NewTermQuery(t)
		tq.SetField(fieldPassageText)
		anyWord.AddQuery(tq)
	}
	named := bleve.NewDisjunctionQuery()
	q := bleve.NewBooleanQuery()
	for _, n := range names {
		if strings.TrimSpace(n) == "" {
			continue
		}
		n = codex.Fold(n)
		full := bleve.NewMatchPhraseQuery(n)
		full.SetField(fieldPassageText)
		full.SetBoost(nameBoost)
		// Prose calls Tobias Wren "Tobias" or "old Wren" more often than
		// by his full name. Rarity weighs each part, so "Tobias" counts
		// and the "Harbor" of a place name little.
		part := bleve.NewMatchQuery(n)
		part.SetField(fieldPassageText)
		part.SetBoost(namePartBoost)
		q.AddShould(full, part)
		named.AddQuery(full, part)
	}
	content.AddQuery(bleve.NewConjunctionQuery(named, anyWord))
	q.AddMust(content)
	return q
}

// excerpt bounds a paragraph to about limit bytes. When it must cut, it
// keeps the run of whole sentences that holds the most of the quote's
// terms, so the text shown is the text that matched.
func (p *Passages) excerpt(text string, terms map[string]bool, limit int) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if len(text) <= limit {
		return text
	}
	var hits []int
	for _, tok := range p.prose.Analyze([]byte(text)) {
		if terms[string(tok.Term)] || terms[codex.Fold(string(tok.Term))] {
			hits = append(hits, tok.Start)
		}
	}
	ends := sentenceEnds(text)
	starts := []int{0}
	for _, e := range ends {
		if s := trimRangeSpace(text, codex.Range{Start: e, End: len(text)}).Start; s < len(text) {
			starts = append(starts, s)
		}
	}
	best, bestEnd, bestCount := 0, 0, -1
	for _, s := range starts {
		end := excerptWindowEnd(text, s, limit)
		// Stop at the last sentence that fits, if one does.
		if i := sort.SearchInts(ends, end+1) - 1; i >= 0 && ends[i] > s {
			end = ends[i]
		}
		count := sort.SearchInts(hits, end) - sort.SearchInts(hits, s)
		if count > bestCount {
			best, bestEnd, bestCount = s, end, count
		}
		if end == len(text) {
			// Later starts only see less of the same tail.
			break
		}
	}
	return codex.CutExcerpt(text, best, bestEnd)
}

// excerptWindowEnd is where a window of at most limit bytes from start
// ends: at the text's end, else at the last space that fits, else at a
// character boundary.
func excerptWindowEnd(text string, start, limit int) int {
	if len(text)-start <= limit {
		return len(text)
	}
	end := start + limit
	if i := lastSpaceIn(text, start, end); i > start {
		return i
	}
	if cut := toRuneStart(text, end); cut > start {
		return cut
	}
	_, size := utf8.DecodeRuneInString(text[start:])
	return start + size
}
