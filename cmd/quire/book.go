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
// index, or in memory when another quire process holds it.
func (g *globalOptions) openPassages(ctx context.Context, root string) (*manuscript.Passages, error) {
	dir := g.CacheDir
	if dir == "" {
		var err error
		if dir, err = codex.CacheDirFor(root); err != nil {
			return nil, err
		}
	}
	opts := manuscript.PassageOptions{Logger: g.logger()}
	p, err := manuscript.OpenPassages(ctx, filepath.Join(dir, "manuscript"), opts)
	if errors.Is(err, codex.ErrIndexLocked) {
		fmt.Fprintln(g.stderr, "quire: the manuscript index is in use by another quire process; using a temporary in-memory index")
		opts.InMemory = true
		p, err = manuscript.OpenPassages(ctx, "", opts)
	}
	return p, err
}
