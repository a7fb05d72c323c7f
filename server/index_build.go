package server

import "github.com/quire-ink/quire/codex/count"

// The codex's search index is built after the book answers: hover,
// definition, references, completion and diagnostics need only the
// catalog, so the book is ready once the entries are parsed, and the
// index is built behind it (codex.Options.BackgroundIndex). It starts
// once the chapters have been scanned for mentions, so that the first
// hover's counts do not share the cores with it, and the writer sees it
// on the book's loading progress, which ends when search is ready.
// Searches wait for it (quire/search, workspace/symbol) or say they
// could only match names (the advisor's search_codex).

// buildIndex lets p's index build start once the chapters are scanned
// (and a test lets it), and ends the loading progress once it is done.
func (s *Server) buildIndex(p *openBook, prog *progress) {
	finished := func() {
		prog.end(s.ctx, count.Of(p.store.Catalog().Len(), "codex entry")+", "+count.Of(len(p.ms.Snapshot().Units()), "chapter"))
		p.markSettled()
	}
	// The watcher's first sync reads recent files again: not loading.
	prog.stopCounting()
	// The series' index, shared with the workspace's other books, is
	// built behind its entries too: search is ready once both are.
	series := p.overlay.series
	building := p.store.IndexBuilding() || series != nil && series.IndexBuilding()
	if building {
		prog.message(s.ctx, "building the search index; canon already answers")
	}
	go func() {
		if hold := s.opts.holdIndex; hold != nil {
			select {
			case <-hold:
			case <-s.ctx.Done():
				return
			}
		}
		close(p.indexGate)
		if !building {
			return
		}
		err := p.store.WaitIndex(s.ctx)
		if err == nil && series != nil {
			err = series.WaitIndex(s.ctx)
		}
		if err != nil {
			p.markSettled()
			if s.ctx.Err() == nil {
				s.log.Warn("codex search index not built", "root", p.real, "err", err)
				prog.end(s.ctx, "the search index could not be built; search matches names only")
			}
			return
		}
		finished()
	}()
	if !building {
		finished()
	}
}
