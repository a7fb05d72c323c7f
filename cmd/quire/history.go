package main

import (
	"fmt"

	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/progress"
)

// history is the book's writing history for `quire stats` and `quire
// map`, in the book's data folder (outside the cache, which a writer may
// clear). That folder is made first, and a history older quire kept in
// the cache is moved into it; the history does not make folders itself.
func (g *globalOptions) history(b *mbook.Book) *progress.Store {
	path := b.Data.Progress()
	if path != "" {
		if _, err := b.Data.Migrate(); err != nil {
			fmt.Fprintln(g.stderr, "quire: warning: today's count is not kept:", err)
			path = ""
		}
	}
	return progress.New(progress.Options{Path: path, Logger: g.logger()})
}
