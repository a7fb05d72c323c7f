package main

import (
	"fmt"
	"os"

	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/progress"
)

// history is the book's writing history for `quire stats` and `quire
// map`. The book's cache folder is made first: opening only the chapters
// (no codex index) does not make it, and the history does not make
// folders itself (a cache cleared under a running server stays cleared).
func (g *globalOptions) history(b *mbook.Book) *progress.Store {
	path := b.Cache.Progress()
	if path != "" {
		if err := os.MkdirAll(b.Cache.Dir, 0o700); err != nil {
			fmt.Fprintln(g.stderr, "quire: warning: today's count is not kept:", err)
			path = ""
		}
	}
	return progress.New(progress.Options{Path: path, Logger: g.logger()})
}
