package main

import (
	"context"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// openManuscript reads the project's chapters, where quire.yaml says
// they are.
func (g *globalOptions) openManuscript(ctx context.Context, cat *codex.Catalog) (*manuscript.Manuscript, error) {
	dir, err := g.projectDir()
	if err != nil {
		return nil, err
	}
	globs, err := manuscript.GlobsFromConfig(dir)
	if err != nil {
		return nil, err
	}
	return manuscript.Open(ctx, dir, manuscript.Options{Globs: globs, Logger: g.logger(), Catalog: cat})
}
