package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// seriesLink is how a book follows its series folder: the book as
// opened (whose series it reads again when quire.yaml's series: or the
// writer's trust changes), and the follow of the workspace's one watcher
// of the series folder, with what watch gave it, to follow the new
// series the same way.
type seriesLink struct {
	book *mbook.Book

	mu      sync.Mutex
	ctx     context.Context
	log     *slog.Logger
	changed func()
	stop    func()
	// problems, when set, sends the problems of the codex files
	// (publishCodexProblems) as soon as a series change is read.
	problems func()
}

// sendSeriesProblemsFirst has send run as soon as the book reads a
// change of its series, before the chapters are scanned again with the
// series' names: the problems of a series file need no chapter scanned
// (the series' paths are never the book's chapters), and the writer who
// saved one would otherwise wait for every chapter of the book (100-250
// ms at 200 chapters, BenchmarkSeriesSaveToDiagnostics).
func (p *openBook) sendSeriesProblemsFirst(send func()) {
	l := &p.series
	l.mu.Lock()
	defer l.mu.Unlock()
	l.problems = send
}

// seriesStore is the store of the series the book reads now; nil when
// it reads none.
func (p *openBook) seriesStore() *codex.Store {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.series
}

// releaseSeries stops following the series and lets go of its store,
// which the other books of the workspace may still read.
func (p *openBook) releaseSeries() {
	l := &p.series
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	l.ctx = nil
	if l.book != nil {
		_ = l.book.CloseSeries()
	}
}

// entryFile is the file of e: the book's, or the series folder's for an
// entry of the series canon that the book does not override.
func (p *openBook) entryFile(e *codex.Entry) string {
	if src := p.canon().Source(e); src != nil && src.Book == nil {
		return src.File()
	}
	return filepath.Join(p.real, filepath.FromSlash(e.ID))
}

// view is the saved codex of the book with its series', as quire/lookup,
// quire/search and quire/list read it.
func (p *openBook) view() *codex.View {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.view == nil {
		o.view = codex.NewSharedView(p.store, o.series, o.seriesCatalogs)
	}
	return o.view
}

// seriesChanged says whether the series folder quire.yaml names (once
// trusted) is another than the one the book reads: the configuration in
// force changed it.
func (p *openBook) seriesChanged(old, now bookConfig) bool {
	return old.series != now.series && p.series.book != nil
}

// reopenSeries reads the series the configuration in force names, in
// place of the one read until now (or none): the writer named, changed
// or removed quire.yaml's series:, or trusted the book (or took the trust
// back), and the editor need not open the book again. The new series'
// canon joins hover and everything else that reads canon, the
// manuscript's mentions are found again with its names, and the series
// folder is followed as at the start. The old series is let go of on
// another goroutine: the shelf waits for its watcher, which may be
// waiting for the lock the caller holds (followMu).
func (p *openBook) reopenSeries(ctx context.Context) error {
	l := &p.series
	// Held throughout: watchSeries and releaseSeries read the book's
	// series too.
	l.mu.Lock()
	defer l.mu.Unlock()
	log := l.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	loaded, err := settings.Load(p.sources())
	if err != nil {
		// The series read until now stays, followed again.
		if l.ctx != nil && l.ctx.Err() == nil {
			l.stop = p.followSeries(l.ctx, l.log, l.changed)
		}
		return err
	}
	release, err := l.book.ReloadSeries(ctx, loaded)
	o := &p.overlay
	o.mu.Lock()
	o.series, o.seriesCatalogs = l.book.Series, l.book.SeriesCatalogs
	o.merged, o.view = nil, nil
	o.mu.Unlock()
	go func() {
		if err := release(); err != nil {
			log.Warn("series canon not let go of", "root", p.real, "err", err)
		}
	}()
	o.namesMu.Lock()
	m := p.setMatcherFor(p.catalog())
	o.namesMu.Unlock()
	p.ms.SetMatcher(m)
	if l.ctx != nil && l.ctx.Err() == nil {
		l.stop = p.followSeries(l.ctx, l.log, l.changed)
	}
	log.Debug("series read again", "root", p.real, "series", o.series != nil)
	return err
}

// watchSeries follows the series folder until ctx ends, and the one it
// names from then on (reopenSeries).
func (p *openBook) watchSeries(ctx context.Context, log *slog.Logger, changed func()) {
	l := &p.series
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ctx, l.log, l.changed = ctx, log, changed
	l.stop = p.followSeries(ctx, log, changed)
	context.AfterFunc(ctx, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.stop != nil {
			l.stop()
			l.stop = nil
		}
	})
}

// followSeries follows the series folder the book reads now (l.mu held) through the
// one watcher the workspace's books share (mbook.Shelf): a changed series
// entry gives the book a new name automaton, its chapters' mentions
// found again, and changed (diagnostics) runs. The series' own paths
// are never the book's chapters, so no chapter is read again.
func (p *openBook) followSeries(ctx context.Context, log *slog.Logger, changed func()) (stop func()) {
	b := p.series.book
	if b == nil || b.Series == nil {
		return nil
	}
	problems := p.series.problems
	return b.FollowSeries(func(ch codex.Change) {
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
		if problems != nil {
			// changed sends them again after the scan, and only what
			// changed since: nothing, unless a problem of the book's
			// own changed too.
			problems()
		}
		p.ms.SetMatcher(m)
		p.followMu.Unlock()
		if changed != nil {
			changed()
		}
	}, func(err error) { log.Warn("series watcher stopped", "root", p.real, "err", err) })
}
