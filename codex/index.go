package codex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrIndexLocked means another process holds the project's index open.
var ErrIndexLocked = errors.New("index is in use by another quire process")

// ErrIndexFailed marks a panic inside the index library, recovered.
var ErrIndexFailed = errors.New("the index library failed")

// Analyzer and field names of the index mapping. Changing any of them, or
// what a document holds, requires a new SchemaVersion.
const (
	analyzerProse = "quire_prose"
	analyzerName  = "quire_name"

	fieldName      = "name"
	fieldNameKey   = "name_key"
	fieldAliases   = "aliases"
	fieldAliasKeys = "alias_keys"
	fieldTitle     = "title"
	fieldType      = "type"
	fieldTags      = "tags"
	fieldStatus    = "status"
	fieldPath      = "path"
	fieldSummary   = "summary"
	fieldBody      = "body"
)

// indexBatchSize bounds the documents sent to bleve at once.
const indexBatchSize = 1000

// bleveIndex is the full-text index of the codex.
type bleveIndex struct {
	idx bleve.Index
	// an are the mapping's analyzers, for building documents directly.
	an docAnalyzers
	// disk says idx persists to files: apply then waits for its batches
	// to reach the disk, and reports when they cannot.
	disk bool
}

func indexMapping() (*mapping.IndexMappingImpl, error) {
	m := bleve.NewIndexMapping()
	// Text reaches the index already folded (see Fold), which is much
	// cheaper than a per-character filter over every body.
	if err := m.AddCustomAnalyzer(analyzerProse, map[string]any{
		"type":          custom.Name,
		"tokenizer":     wordTokenizerName,
		"token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, stemmerName},
	}); err != nil {
		return nil, fmt.Errorf("prose analyzer: %w", err)
	}
	if err := m.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          custom.Name,
		"tokenizer":     wordTokenizerName,
		"token_filters": []any{en.PossessiveName, lowercase.Name},
	}); err != nil {
		return nil, fmt.Errorf("name analyzer: %w", err)
	}
	field := func(analyzer string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldName, field(analyzerName))
	doc.AddFieldMappingsAt(fieldNameKey, field(keyword.Name))
	doc.AddFieldMappingsAt(fieldAliases, field(analyzerName))
	doc.AddFieldMappingsAt(fieldAliasKeys, field(keyword.Name))
	doc.AddFieldMappingsAt(fieldTitle, field(analyzerName))
	doc.AddFieldMappingsAt(fieldType, field(keyword.Name))
	doc.AddFieldMappingsAt(fieldTags, field(keyword.Name))
	doc.AddFieldMappingsAt(fieldStatus, field(keyword.Name))
	doc.AddFieldMappingsAt(fieldPath, field(analyzerName))
	doc.AddFieldMappingsAt(fieldSummary, field(analyzerProse))
	doc.AddFieldMappingsAt(fieldBody, field(analyzerProse))
	m.DefaultMapping = doc
	m.DefaultAnalyzer = analyzerProse
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m, nil
}

// newMemoryIndex builds an index that lives only in memory.
func newMemoryIndex() (*bleveIndex, error) {
	m, err := indexMapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create in-memory index: %w", err)
	}
	return newBleveIndex(idx, false)
}

// newBleveIndex wraps idx, resolving the analyzers of its mapping.
func newBleveIndex(idx bleve.Index, disk bool) (*bleveIndex, error) {
	an, err := analyzersOf(idx.Mapping())
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	return &bleveIndex{idx: idx, an: an, disk: disk}, nil
}

// openDiskIndex opens the index at dir, creating it when missing. A lock
// held by another process fails after boltTimeout with ErrIndexLocked; any
// other failure to open is returned for the caller to rebuild.
func openDiskIndex(dir string, boltTimeout time.Duration) (ix *bleveIndex, created bool, err error) {
	// bbolt and zap map index files into memory; a truncated file then
	// faults instead of failing. Turn that into an error, so the caller
	// rebuilds rather than the process dying.
	defer guard(&err, "open index "+dir+": damaged files")()
	cfg := map[string]any{
		"bolt_timeout": boltTimeout.String(),
		// With safe batches scorch's Batch waits for the segment to be
		// persisted and, when that fails (a full disk), closes a segment
		// it has already made part of the index: the next batch, search
		// or background merge then panics on it (a nil map in zapx), the
		// last in a goroutine no one can recover. Unsafe batches never
		// close it; apply waits for persistence itself (persisted).
		"unsafe_batch": true,
		// A cold build makes a segment per batch; bleve's default plan
		// merges them again at once (a tenth of the cost of a cold
		// index). Up to twenty segments of a batch's size stay as they
		// are; the small segments of later edits still merge.
		"scorchMergePlanOptions": map[string]any{
			"MaxSegmentsPerTier": 20,
			"FloorSegmentSize":   indexBatchSize,
		},
	}
	if _, statErr := os.Stat(dir); statErr == nil {
		idx, err := bleve.OpenUsing(dir, cfg)
		if err != nil {
			return nil, false, lockedOr(fmt.Errorf("open index %s: %w", dir, err))
		}
		ix, err := newBleveIndex(idx, true)
		return ix, false, err
	}
	m, err := indexMapping()
	if err != nil {
		return nil, false, err
	}
	idx, err := bleve.NewUsing(dir, m, scorch.Name, scorch.Name, cfg)
	if err != nil {
		return nil, false, lockedOr(fmt.Errorf("create index %s: %w", dir, err))
	}
	ix, err = newBleveIndex(idx, true)
	return ix, true, err
}

// lockedOr reports a bolt lock timeout as ErrIndexLocked. bleve formats
// bbolt's error with %v, so errors.Is cannot find it and the message is
// matched as well.
func lockedOr(err error) error {
	if errors.Is(err, bolterrors.ErrTimeout) || strings.Contains(err.Error(), bolterrors.ErrTimeout.Error()) {
		return fmt.Errorf("%w (%v)", ErrIndexLocked, err)
	}
	return err
}

// guard turns a panic or a memory fault into an error. bleve and its
// segment code panic on some write failures (on a full disk a segment is
// left half loaded, with a nil cache map) and fault on truncated mapped
// files; either is a failing disk, not a reason to end the process, so
// callers get an error and fall back to memory. It is used as
//
//	defer guard(&err, "what failed")()
//
// at the top of a function with a named error result: the call turns
// faults into panics for the current goroutine until the function
// returns, and the deferred closure recovers.
func guard(err *error, what string) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			*err = fmt.Errorf("%s: %w: %v", what, ErrIndexFailed, r)
		}
	}
}

// indexWorkers is how many batches are analyzed and built at once. Two
// keeps both cores of a small machine busy: bleve analyzes a batch in
// parallel but builds its segment on one goroutine.
const indexWorkers = 2

// pace is how an apply feeds bleve: batches of size documents, workers
// of them at once. Larger batches and more workers build faster; each
// batch in flight holds its analyzed documents in memory.
type pace struct{ workers, size int }

// fast is for a build someone waits for (`quire index`): both cores.
var fast = pace{workers: indexWorkers, size: indexBatchSize}

// lean is for a build behind the catalog (Options.BackgroundIndex): one
// small batch at a time, so the server's memory stays low while it
// answers; search waits a little longer.
var lean = pace{workers: 1, size: leanBatchSize}

// leanBatchSize bounds a background build's batches.
const leanBatchSize = 250

// apply indexes upserts and removes deletes, in concurrent batches.
func (ix *bleveIndex) apply(ctx context.Context, upserts []*Entry, deletes []string) error {
	return ix.applyAt(ctx, fast, upserts, deletes)
}

// applyAt is apply at a given pace.
func (ix *bleveIndex) applyAt(ctx context.Context, p pace, upserts []*Entry, deletes []string) error {
	type chunk struct {
		upserts []*Entry
		deletes []string
	}
	chunks := []chunk{{deletes: deletes}}
	for i := 0; i < len(upserts); i += p.size {
		part := upserts[i:min(i+p.size, len(upserts))]
		if i == 0 {
			chunks[0].upserts = part
		} else {
			chunks = append(chunks, chunk{upserts: part})
		}
	}
	// Each batch sent to a disk index reports here once persisted.
	persisted := make(chan error, len(chunks))
	var sent atomic.Int64
	failedBefore := ix.failures()
	err := RunBatches(ctx, p.workers, chunks, func(c chunk) error {
		return ix.batch(ctx, c.upserts, c.deletes, persisted, &sent)
	})
	if err == nil && ix.disk {
		err = ix.waitPersisted(ctx, persisted, int(sent.Load()), failedBefore)
	}
	return err
}

// waitPersisted waits until n batches have reached the disk. bleve keeps
// retrying a write that fails, and counts each failure: one more than
// before the batches were sent means the disk does not take them.
func (ix *bleveIndex) waitPersisted(ctx context.Context, persisted <-chan error, n int, failedBefore uint64) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for n > 0 {
		select {
		case err := <-persisted:
			if err != nil {
				return fmt.Errorf("write index: %w", err)
			}
			n--
		case <-tick.C:
			if ix.failures() > failedBefore {
				return fmt.Errorf("the index could not be saved (%d failed attempts)", ix.failures()-failedBefore)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// batch runs on the workers of apply: a panic in bleve is recovered on
// the goroutine it happens in, or it would end the process.
func (ix *bleveIndex) batch(ctx context.Context, upserts []*Entry, deletes []string, persisted chan<- error, sent *atomic.Int64) (err error) {
	defer guard(&err, "index batch")()
	b := ix.idx.NewBatch()
	if ix.disk {
		b.SetPersistedCallback(func(err error) { persisted <- err })
	}
	for _, id := range deletes {
		b.Delete(id)
	}
	for _, e := range upserts {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.IndexAdvanced(ix.an.document(e)); err != nil {
			return fmt.Errorf("index %s: %w", e.ID, err)
		}
	}
	if b.Size() == 0 {
		return nil
	}
	if ix.disk {
		sent.Add(1)
	}
	if err := ix.idx.Batch(b); err != nil {
		return fmt.Errorf("index batch: %w", err)
	}
	return nil
}

func (ix *bleveIndex) count() (n uint64, err error) {
	defer guard(&err, "count index documents")()
	return ix.idx.DocCount()
}

func (ix *bleveIndex) close() (err error) {
	defer guard(&err, "close index")()
	return ix.idx.Close()
}

// failures counts the errors bleve met in its own goroutines (persisting
// and merging segments), which it reports nowhere else: a rising count
// on a disk index means the disk no longer takes its writes.
func (ix *bleveIndex) failures() (n uint64) {
	var err error
	defer guard(&err, "index stats")()
	stats, _ := ix.idx.StatsMap()["index"].(map[string]any)
	// Only failed persists and merges: other errors bleve counts (an old
	// file it could not remove) say nothing of the disk taking writes.
	persist, _ := stats["TotPersistLoopErr"].(uint64)
	merge, _ := stats["TotFileMergeLoopErr"].(uint64)
	return persist + merge
}
