package manuscript

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/quire-ink/quire/codex"
)

// Bringing the passage index in line with the manuscript's units: only
// changed units are analysed again, in bounded batches, and a manifest
// records which paths the index holds, so a crash leaves nothing unknown.

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
	err := codex.RunBatches(ctx, passageIndexWorkers, jobs, func(j job) error {
		n, err := p.batch(ctx, j.units, j.removed)
		if err != nil {
			return err
		}
		indexed.Add(int64(n))
		return nil
	})
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
