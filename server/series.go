package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// trustsSeries says whether the book reads the series folder its
// quire.yaml names: the configuration keeps the series only once the
// writer trusts the book (layerConfig, llm.BookReach.Guard), which the
// book opener asks after reading the configuration.
func (p *project) trustsSeries(*settings.Loaded, string) bool {
	c := p.config.Load()
	return c != nil && c.series != ""
}

// releaseSeries lets go of the series store, which the other books of
// the workspace may still read.
func (p *project) releaseSeries() {
	if p.overlay.closeSeries != nil {
		_ = p.overlay.closeSeries()
		p.overlay.closeSeries = nil
	}
}

// entryFile is the file of e: the book's, or the series folder's for an
// entry of the series canon that the book does not override.
func (p *project) entryFile(e *codex.Entry) string {
	if src := p.canon().Source(e); src != nil && src.Book == nil {
		return src.File()
	}
	return filepath.Join(p.real, filepath.FromSlash(e.ID))
}

// view is the saved codex of the book with its series', as quire/lookup,
// quire/search and quire/list read it.
func (p *project) view() *codex.View {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.view == nil {
		o.view = codex.NewSharedView(p.store, o.series, o.seriesCatalogs)
	}
	return o.view
}

// watchSeries follows the series folder until ctx ends, through the one
// watcher the workspace's books share (mbook.Shelf): a changed series
// entry gives the book a new name automaton, its chapters' mentions
// found again, and changed (diagnostics) runs. The series' own paths
// are never the book's chapters, so no chapter is read again.
func (p *project) watchSeries(ctx context.Context, log *slog.Logger, changed func()) {
	if p.overlay.followSeries == nil || p.overlay.series == nil {
		return
	}
	stop := p.overlay.followSeries(func(ch codex.Change) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("following the series panicked", "root", p.real, "panic", fmt.Sprint(r))
			}
		}()
		if ctx.Err() != nil || len(ch.Updated)+len(ch.Removed) == 0 && !ch.Resynced {
			return
		}
		p.followMu.Lock()
		p.overlay.namesMu.Lock()
		m := p.setMatcherFor(p.catalog())
		p.overlay.namesMu.Unlock()
		p.ms.SetMatcher(m)
		p.followMu.Unlock()
		if changed != nil {
			changed()
		}
	}, func(err error) { log.Warn("series watcher stopped", "root", p.real, "err", err) })
	context.AfterFunc(ctx, stop)
}
