package book

import (
	"context"
	"errors"
	"fmt"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// OpenPassages opens the manuscript's paragraph index in the book's cache
// folder and brings it up to date with the chapters. It lives in memory
// when another quire process holds the folder, when the codex could not
// use the cache, or when the cache fails it now (full, read-only,
// deleted disk); warn is told why, in words for the writer.
func (b *Book) OpenPassages(ctx context.Context, warn func(string)) (*manuscript.Passages, error) {
	units := b.Manuscript.Snapshot().Units()
	opts := manuscript.PassageOptions{Logger: b.opts.Logger}
	inMemory := func(warning string) (*manuscript.Passages, error) {
		if warning != "" {
			warn(warning)
		}
		opts.InMemory = true
		p, err := manuscript.OpenPassages(ctx, "", opts)
		if err != nil {
			return nil, err
		}
		if _, err := p.Sync(ctx, units); err != nil {
			p.Close()
			return nil, err
		}
		return p, nil
	}
	if b.Locked || b.Store != nil && b.Store.Report().Fallback != "" {
		return inMemory("") // the codex has said why
	}
	dir := b.Cache.Passages()
	if dir == "" {
		return inMemory("no cache folder for the manuscript index; using a temporary in-memory index")
	}
	p, err := manuscript.OpenPassages(ctx, dir, opts)
	if errors.Is(err, codex.ErrIndexLocked) {
		warn("the manuscript index is in use by another quire process; using a temporary in-memory index")
		return inMemory("")
	}
	if err == nil {
		if _, err = p.Sync(ctx, units); err != nil {
			p.Close()
		}
	}
	if err != nil && ctx.Err() == nil {
		return inMemory(fmt.Sprintf("quire's manuscript index could not be saved in its cache folder (%v). "+
			"This run keeps it in memory; free some disk space or make the cache folder writable.", err))
	}
	return p, err
}
