package manuscript

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
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

// Index mapping names. Changing any of them, or what a document holds,
// requires a new passageSchema.
const (
	analyzerPassage  = "quire_passage"
	fieldPassageText = "text"
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

// passageBatchBytes bounds the unit text behind one bleve batch;
// passageIndexWorkers is how many batches are analyzed and built at once
// (bleve builds a segment on one goroutine, so two keep a small machine
// busy).
const (
	passageBatchBytes   = 512 << 10
	passageIndexWorkers = 2
)

// PassageOptions configure OpenPassages. The zero value is ready to use.
type PassageOptions struct {
	// InMemory keeps the index in memory and writes nothing anywhere.
	InMemory bool
	// BoltTimeout bounds the wait for a folder another process holds;
	// the default is one second.
	BoltTimeout time.Duration
	// Logger receives paths, counts and durations, never prose. The
	// default discards everything.
	Logger *slog.Logger
}

// PassageReport says what opening the index found and did.
type PassageReport struct {
	// Dir is the folder of the index; empty in memory.
	Dir string `json:"dir,omitempty"`
	// Rebuilt is true when the index was built from nothing, and Reason
	// says why (missing, schema, corrupt, damaged files).
	Rebuilt bool   `json:"rebuilt"`
	Reason  string `json:"reason,omitempty"`
	// Units is how many units the index held when opened.
	Units int `json:"units"`
}

// SyncStats count the work of one Sync.
type SyncStats struct {
	// Units is how many units the index now holds.
	Units int `json:"units"`
	// Indexed counts units whose paragraphs were (re)indexed, Removed
	// units whose paragraphs were dropped, Paragraphs the paragraphs
	// indexed.
	Indexed    int           `json:"indexed"`
	Removed    int           `json:"removed"`
	Paragraphs int           `json:"paragraphs"`
	Duration   time.Duration `json:"durationNs"`
}

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

// Passages is the full-text index of manuscript paragraphs. Sync keeps
// it equal to a set of units; Explicate searches it. All methods are safe
// for concurrent use.
type Passages struct {
	idx    bleve.Index
	lock   io.Closer // nil in memory
	log    *slog.Logger
	report PassageReport
	// prose analyzes quotes as the index analyzes paragraphs; stop tells
	// the words that carry no meaning of their own.
	prose analysis.Analyzer
	stop  analysis.TokenMap

	// syncMu serializes Sync and Close; it guards states and manifest,
	// which record what the index holds.
	syncMu   sync.Mutex
	states   map[string]unitState
	manifest []string

	// snap is the units of the last Sync, which hits are read against.
	snap   atomic.Pointer[passageSnapshot]
	closed atomic.Bool
}

// passageSnapshot is an immutable view of the synced units.
type passageSnapshot struct {
	units map[string]*indexedUnit
}

// indexedUnit is a unit and its paragraphs, split once on first need:
// a warm start that finds every unit current splits none.
type indexedUnit struct {
	unit       *Unit
	hash       string
	paragraphs func() []Paragraph
}

func newIndexedUnit(u *Unit) *indexedUnit {
	return &indexedUnit{
		unit:       u,
		hash:       unitHash(u),
		paragraphs: sync.OnceValue(func() []Paragraph { return Paragraphs(u) }),
	}
}

func passageMapping() (*mapping.IndexMappingImpl, error) {
	m := bleve.NewIndexMapping()
	// Text reaches the index folded (codex.Fold), as the codex's does.
	if err := m.AddCustomAnalyzer(analyzerPassage, map[string]any{
		"type":          custom.Name,
		"tokenizer":     codex.WordTokenizer,
		"token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, porter.Name},
	}); err != nil {
		return nil, fmt.Errorf("passage analyzer: %w", err)
	}
	f := bleve.NewTextFieldMapping()
	f.Analyzer = analyzerPassage
	f.Store = false
	f.IncludeInAll = false
	// Positions make phrase queries possible: a passage that repeats the
	// quote outranks one that merely shares its words.
	f.IncludeTermVectors = true
	f.DocValues = false
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldPassageText, f)
	m.DefaultMapping = doc
	m.DefaultAnalyzer = analyzerPassage
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	// BM25 weighs a term by paragraph length, so a long paragraph that
	// happens to hold many words does not bury a short one that is all
	// about the quote ("bm25" is bleve_index_api's BM25Scoring).
	m.ScoringModel = "bm25"
	return m, nil
}

// OpenPassages opens the passage index kept in dir, a folder inside the
// project's cache folder that the caller chooses (for example
// filepath.Join(codex.CacheDirFor(root), "manuscript")). The folder is
// locked for as long as the index is open: a second process gets
// codex.ErrIndexLocked after opt.BoltTimeout. A missing, damaged or
// outdated index is rebuilt empty; the next Sync fills it.
func OpenPassages(ctx context.Context, dir string, opt PassageOptions) (*Passages, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.BoltTimeout <= 0 {
		opt.BoltTimeout = time.Second
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Passages{log: log}
	if opt.InMemory {
		idx, err := newMemoryPassageIndex()
		if err != nil {
			return nil, err
		}
		p.idx, p.states = idx, map[string]unitState{}
		p.report = PassageReport{Rebuilt: true, Reason: "in memory"}
	} else {
		if dir == "" {
			return nil, errors.New("open passage index: no folder given")
		}
		lock, err := codex.LockFolder(dir, passageLockFile, opt.BoltTimeout)
		if err != nil {
			return nil, fmt.Errorf("open passage index %s: %w", dir, err)
		}
		o, err := openPassageIndex(dir, opt.BoltTimeout)
		if err != nil {
			_ = lock.Close()
			return nil, err
		}
		p.idx, p.lock, p.states, p.manifest = o.idx, lock, o.states, o.manifest
		p.report = PassageReport{Dir: dir, Rebuilt: o.rebuilt, Reason: o.reason, Units: len(o.states)}
	}
	if err := p.prepareAnalysis(); err != nil {
		_ = p.Close()
		return nil, err
	}
	p.snap.Store(&passageSnapshot{units: map[string]*indexedUnit{}})
	log.Info("passage index open", "dir", p.report.Dir, "rebuilt", p.report.Rebuilt,
		"reason", p.report.Reason, "units", p.report.Units)
	return p, nil
}

func (p *Passages) prepareAnalysis() error {
	p.prose = p.idx.Mapping().AnalyzerNamed(analyzerPassage)
	if p.prose == nil {
		return fmt.Errorf("passage index: analyzer %s missing", analyzerPassage)
	}
	stop, err := registry.NewCache().TokenMapNamed(en.StopName)
	if err != nil {
		return fmt.Errorf("passage index: stop words: %w", err)
	}
	p.stop = stop
	return nil
}

// Report says what OpenPassages found and did.
func (p *Passages) Report() PassageReport { return p.report }

// Close releases the index and its folder. A Sync under way finishes
// first.
func (p *Passages) Close() error {
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	if p.closed.Swap(true) {
		return nil
	}
	err := p.idx.Close()
	if err != nil {
		err = fmt.Errorf("close passage index: %w", err)
	}
	if p.lock != nil {
		err = errors.Join(err, p.lock.Close())
	}
	return err
}

// Sync brings the index to exactly these units: a unit whose text
// changed since the index last saw it is split and indexed again, a unit
// no longer given loses its paragraphs, and the rest cost a hash. What
// the index holds survives a restart, so the first Sync of a warm start
// re-indexes only what changed while quire was not running. Explicate
// reads hits against the units of the last Sync.
func (p *Passages) Sync(ctx context.Context, units []*Unit) (stats SyncStats, err error) {
	// The index library panics on some disk failures; the caller gets an
	// error and falls back to memory.
	defer func() {
		if r := recover(); r != nil {
			stats, err = SyncStats{}, fmt.Errorf("index the manuscript: %v", r)
		}
	}()
	start := time.Now()
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	if p.closed.Load() {
		return SyncStats{}, ErrPassagesClosed
	}
	if err := ctx.Err(); err != nil {
		return SyncStats{}, err
	}
	next := make(map[string]*indexedUnit, len(units))
	var changed []*indexedUnit
	for _, u := range units {
		if u == nil {
			continue
		}
		if _, dup := next[u.Path]; dup {
			return SyncStats{}, fmt.Errorf("sync passages: unit %s given twice", u.Path)
		}
		iu := newIndexedUnit(u)
		next[u.Path] = iu
		if st, ok := p.states[u.Path]; !ok || st.Hash != iu.hash {
			changed = append(changed, iu)
		}
	}
	var removed []string
	for path := range p.states {
		if _, ok := next[path]; !ok {
			removed = append(removed, path)
		}
	}
	slices.SortFunc(changed, func(a, b *indexedUnit) int { return strings.Compare(a.unit.Path, b.unit.Path) })
	slices.Sort(removed)

	stats = SyncStats{Units: len(next), Indexed: len(changed), Removed: len(removed)}
	if len(changed)+len(removed) > 0 {
		stats.Paragraphs, err = p.apply(ctx, changed, removed)
	}
	// Hits are checked against each unit's hash, so the new units are
	// safe to read against even when only part of the work landed.
	p.snap.Store(&passageSnapshot{units: next})
	stats.Duration = time.Since(start)
	if err != nil {
		return stats, fmt.Errorf("sync passages: %w", err)
	}
	p.log.Info("passages synced", "units", stats.Units, "indexed", stats.Indexed,
		"removed", stats.Removed, "paragraphs", stats.Paragraphs, "ms", stats.Duration.Milliseconds())
	return stats, nil
}

// apply indexes the changed units and drops the removed ones, in
// concurrent batches, each unit's documents and record in one batch.
// It returns how many paragraphs it indexed.
func (p *Passages) apply(ctx context.Context, changed []*indexedUnit, removed []string) (int, error) {
	// List every unit touched before touching any, so that a sync that
	// stops half way leaves no documents the list does not lead to.
	listed := make(map[string]bool, len(p.manifest)+len(changed))
	for _, path := range p.manifest {
		listed[path] = true
	}
	union := slices.Clone(p.manifest)
	for _, iu := range changed {
		if !listed[iu.unit.Path] {
			union = append(union, iu.unit.Path)
		}
	}
	if len(union) > len(p.manifest) {
		if err := p.writeManifest(union); err != nil {
			return 0, err
		}
	}

	type job struct {
		units   []*indexedUnit
		removed []string
	}
	jobs := []job{{removed: removed}}
	size := 0
	for _, iu := range changed {
		last := &jobs[len(jobs)-1]
		if len(last.units) > 0 && size+len(iu.unit.Text) > passageBatchBytes {
			jobs = append(jobs, job{})
			last, size = &jobs[len(jobs)-1], 0
		}
		last.units = append(last.units, iu)
		size += len(iu.unit.Text)
	}

	var indexed atomic.Int64
	work := make(chan job)
	errs := make(chan error, passageIndexWorkers)
	var wg sync.WaitGroup
	for range min(passageIndexWorkers, len(jobs)) {
		wg.Go(func() {
			for j := range work {
				n, err := p.batch(ctx, j.units, j.removed)
				if err != nil {
					errs <- err
					return
				}
				indexed.Add(int64(n))
			}
		})
	}
	var err error
feed:
	for _, j := range jobs {
		select {
		case work <- j:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	if err != nil {
		// Some batches may have landed: read back what the index holds,
		// so the next Sync starts from the truth.
		if states, manifest, lerr := loadUnitStates(p.idx); lerr == nil {
			p.states, p.manifest = states, manifest
		} else {
			err = errors.Join(err, lerr)
		}
		return int(indexed.Load()), err
	}

	for _, iu := range changed {
		p.states[iu.unit.Path] = unitState{Hash: iu.hash, Paragraphs: len(iu.paragraphs())}
	}
	for _, path := range removed {
		delete(p.states, path)
	}
	// Now the list can shrink to the units the index holds.
	held := slices.Sorted(maps.Keys(p.states))
	if !slices.Equal(held, slices.Sorted(slices.Values(union))) {
		if err := p.writeManifest(held); err != nil {
			return int(indexed.Load()), err
		}
	} else {
		p.manifest = union
	}
	// Everything above is on disk before Sync returns (passageConfig).
	return int(indexed.Load()), p.waitPersisted(ctx)
}

func (p *Passages) writeManifest(paths []string) error {
	data, err := encodeManifest(paths)
	if err != nil {
		return err
	}
	if err := p.idx.SetInternal([]byte(keyUnits), data); err != nil {
		return fmt.Errorf("record unit list: %w", err)
	}
	p.manifest = paths
	return nil
}

// batch replaces the paragraphs of units and drops those of removed in
// one atomic bleve batch. p.states is only read here: apply updates it
// once every batch has landed.
func (p *Passages) batch(ctx context.Context, units []*indexedUnit, removed []string) (_ int, err error) {
	defer guardBatch(&err)() // runs on apply's workers
	b := p.idx.NewBatch()
	dropOld := func(path string) {
		if old, ok := p.states[path]; ok {
			for i := range old.Paragraphs {
				b.Delete(docID(path, old.Hash, i))
			}
		}
	}
	for _, path := range removed {
		dropOld(path)
		b.DeleteInternal(unitKey(path))
	}
	n := 0
	for _, iu := range units {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		path := iu.unit.Path
		dropOld(path)
		paras := iu.paragraphs()
		for i, para := range paras {
			if err := b.Index(docID(path, iu.hash, i), map[string]any{fieldPassageText: codex.Fold(para.Text)}); err != nil {
				return 0, fmt.Errorf("index %s: %w", path, err)
			}
		}
		rec, err := encodeUnitState(unitState{Hash: iu.hash, Paragraphs: len(paras)})
		if err != nil {
			return 0, fmt.Errorf("index %s: %w", path, err)
		}
		b.SetInternal(unitKey(path), rec)
		n += len(paras)
	}
	if b.Size() == 0 {
		return 0, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := p.idx.Batch(b); err != nil {
		return 0, fmt.Errorf("index batch: %w", err)
	}
	return n, nil
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
	out := strings.TrimSpace(text[best:bestEnd])
	if best > 0 {
		out = "… " + out
	}
	if bestEnd < len(text) {
		out += " …"
	}
	return out
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
