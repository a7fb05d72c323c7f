package server

import (
	"log/slog"
	"sync"
)

// keepLearned saves what the book's cold start learned, before its
// search index starts to build: the chapter cache (chapter_saves.go)
// and, beside it, the codex's parsed entries, the book's and its
// series', marked as not vouching for the index still to come
// (codex.Store.Save). So a session killed from its first hover on (an
// editor that kills its server on exit, a crash) leaves the next start
// warm. It runs on the book's loading goroutine: requests do not wait
// for it, and the index build, whose CPU and disk writes would slow
// both saves down, waits for it. On a warm start both find nothing new
// to write.
func (p *openBook) keepLearned(log *slog.Logger) {
	var codexSaves sync.WaitGroup
	codexSaves.Go(func() {
		if err := p.store.Save(); err != nil {
			log.Warn("codex state not saved", "root", p.real, "err", err)
		}
		if series := p.overlay.series; series != nil {
			if err := series.Save(); err != nil {
				log.Warn("series codex state not saved", "root", series.Root(), "err", err)
			}
		}
	})
	p.chapterSaves.flush()
	codexSaves.Wait()
}
