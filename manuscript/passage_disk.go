package manuscript

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"
)

// passageConfig is the scorch configuration of a passage index on disk.
// With safe batches scorch's Batch waits for the segment to be persisted
// and, when that fails (a full disk), closes a segment it has already
// made part of the index: the next batch or background merge then
// panics on it (a nil map in zapx), the merge in a goroutine no one can
// recover. Unsafe batches never close it; Sync waits for persistence
// itself (waitPersisted) and reports a disk that refuses it.
func passageConfig(boltTimeout time.Duration) map[string]any {
	return map[string]any{"bolt_timeout": boltTimeout.String(), "unsafe_batch": true}
}

// guardBatch turns a panic or memory fault in the index library, on the
// goroutine of a batch, into *err, so that the caller can fall back to
// memory instead of the process ending. Use as
// `defer guardBatch(&err)()`.
func guardBatch(err *error) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			*err = fmt.Errorf("index batch: the index library failed: %v", r)
		}
	}
}

// failures counts the errors bleve met persisting and merging in its
// own goroutines, which it reports nowhere else.
func (p *Passages) failures() (n uint64) {
	var err error
	defer guardBatch(&err)()
	stats, _ := p.idx.StatsMap()["index"].(map[string]any)
	// Only failed persists and merges: other errors bleve counts (an old
	// file it could not remove) say nothing of the disk taking writes.
	persist, _ := stats["TotPersistLoopErr"].(uint64)
	merge, _ := stats["TotFileMergeLoopErr"].(uint64)
	return persist + merge
}

// waitPersisted waits until every batch sent to a disk index so far is
// on disk: one more batch (the schema stamp again) is sent, and persisted
// in order after the others. A rise in bleve's failure count means the
// disk refuses the writes. In memory it returns at once.
func (p *Passages) waitPersisted(ctx context.Context) (err error) {
	if p.lock == nil {
		return nil
	}
	defer guardBatch(&err)()
	failedBefore := p.failures()
	done := make(chan error, 1)
	b := p.idx.NewBatch()
	b.SetInternal([]byte(keySchema), []byte(strconv.Itoa(passageSchema)))
	b.SetPersistedCallback(func(err error) { done <- err })
	if err := p.idx.Batch(b); err != nil {
		return fmt.Errorf("write passage index: %w", err)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return fmt.Errorf("write passage index: %w", err)
			}
			return nil
		case <-tick.C:
			if n := p.failures(); n > failedBefore {
				return fmt.Errorf("the passage index could not be saved (%d failed attempts)", n-failedBefore)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
