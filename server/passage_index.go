package server

import (
	"context"
	"errors"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// passageIndex is a project's manuscript paragraph index, opened on the
// first explicate (never while code actions are listed) and kept until
// the project closes.
type passageIndex struct {
	mu     sync.Mutex
	p      *manuscript.Passages
	closed bool
}

// open returns the index, opening it beside the codex index in the
// cache, or in memory when another quire process holds that folder.
func (x *passageIndex) open(ctx context.Context, proj *openBook, opts Options) (*manuscript.Passages, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errors.New("the project is closed")
	}
	if x.p != nil {
		return x.p, nil
	}
	popts := manuscript.PassageOptions{}
	// The book's cache, laid out as for the command line (manuscript/book).
	dir := proj.cache.Passages()
	var p *manuscript.Passages
	err := codex.ErrIndexLocked
	if dir != "" && !proj.inMemory.Load() {
		p, err = manuscript.OpenPassages(ctx, dir, popts)
	}
	// Another process holding the folder, or a cache that fails (full,
	// read-only, deleted), leaves this session's index in memory.
	if err != nil && ctx.Err() == nil {
		popts.InMemory = true
		p, err = manuscript.OpenPassages(ctx, "", popts)
	}
	if err != nil {
		return nil, err
	}
	x.p = p
	return p, nil
}

// toMemory replaces an index on disk whose writes failed by an empty one
// in memory, which the caller fills with a Sync.
func (x *passageIndex) toMemory(ctx context.Context, failed *manuscript.Passages) (*manuscript.Passages, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errors.New("the project is closed")
	}
	if x.p != failed && x.p != nil {
		return x.p, nil // another request replaced it already
	}
	_ = failed.Close()
	p, err := manuscript.OpenPassages(ctx, "", manuscript.PassageOptions{InMemory: true})
	if err != nil {
		x.p = nil
		return nil, err
	}
	x.p = p
	return p, nil
}

// close releases the index; later opens fail.
func (x *passageIndex) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.closed = true
	if x.p != nil {
		_ = x.p.Close()
		x.p = nil
	}
}
