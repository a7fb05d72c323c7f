package manuscript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/quire-ink/quire/codex"
)

// The passage index: what Passages is, how its bleve index is mapped,
// opened and closed. Keeping it up to date is passage_sync.go; asking it
// for support of a quote is explicate.go.

// Index mapping names. Changing any of them, or what a document holds,
// requires a new passageSchema.
const (
	analyzerPassage  = "quire_passage"
	fieldPassageText = "text"
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
