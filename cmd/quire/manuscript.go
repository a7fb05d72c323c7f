package main

import (
	"context"

	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// openManuscript reads the project's chapters, where the settings say
// they are (quire.yaml over the writer's config.yaml).
func (g *globalOptions) openManuscript(ctx context.Context) (*manuscript.Manuscript, error) {
	b, err := g.open(ctx, mbook.Options{Parts: mbook.Chapters})
	if err != nil {
		return nil, err
	}
	return b.Manuscript, nil
}
