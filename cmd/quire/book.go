package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// book is a project opened whole: the codex and the manuscript, whose
// mentions are found with the codex's names.
type book struct {
	store *codex.Store
	ms    *manuscript.Manuscript
}

func (g *globalOptions) openBook(ctx context.Context) (*book, error) {
	s, err := g.openStore(ctx)
	if err != nil {
		return nil, err
	}
	m, err := g.openManuscript(ctx, s.Catalog())
	if err != nil {
		s.Close()
		return nil, err
	}
	return &book{store: s, ms: m}, nil
}

func (b *book) Close() error { return b.store.Close() }

// entry describes a codex entry by ID for a table: its name and type, or
// the ID when the entry is gone.
func (b *book) entry(id string) (name string, typ codex.Type) {
	if e, ok := b.store.Catalog().Get(id); ok {
		return e.Name, e.Type
	}
	return id, ""
}

// openPassages opens the manuscript's paragraph index beside the codex
// index and brings it up to date with b's chapters. It lives in memory
// when another quire process holds the folder, when the codex could not
// use the cache, or when the cache fails it now (full, read-only,
// deleted disk), with a warning on stderr.
func (g *globalOptions) openPassages(ctx context.Context, b *book) (*manuscript.Passages, error) {
	units := b.ms.Snapshot().Units()
	opts := manuscript.PassageOptions{Logger: g.logger()}
	inMemory := func(warning string) (*manuscript.Passages, error) {
		if warning != "" {
			fmt.Fprintln(g.stderr, "quire: warning:", warning)
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
	if b.store.Report().Fallback != "" {
		return inMemory("") // the codex has said why
	}
	dir := g.CacheDir
	if dir == "" {
		var err error
		if dir, err = codex.CacheDirFor(b.store.Root()); err != nil {
			return inMemory(fmt.Sprintf("no cache folder for the manuscript index (%v); using a temporary in-memory index", err))
		}
	}
	p, err := manuscript.OpenPassages(ctx, filepath.Join(dir, "manuscript"), opts)
	if errors.Is(err, codex.ErrIndexLocked) {
		fmt.Fprintln(g.stderr, "quire: the manuscript index is in use by another quire process; using a temporary in-memory index")
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
