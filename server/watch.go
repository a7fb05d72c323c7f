package server

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/quire-ink/quire/codex"
)

// watch follows the project's files with the codex's own watcher (Neovim
// turns client-side file watching off on Linux, so the server cannot rely
// on workspace/didChangeWatchedFiles): codex changes give the manuscript
// a new name automaton; changed chapters are read again. changed, when
// set, runs after each batch.
func (p *openBook) watch(ctx context.Context, log *slog.Logger, changed func()) {
	// Both goroutines run library code on every change; a panic there
	// costs that change, never the session.
	survive := func(what string) {
		if r := recover(); r != nil {
			log.Error(what+" panicked", "root", p.real, "panic", fmt.Sprint(r))
		}
	}
	go func() {
		defer survive("following quire.yaml")
		select {
		case <-p.store.Watching():
			// quire.yaml and the chapters may have changed between the
			// book's loading and the watch's start; the codex's catch-up
			// reads neither.
			p.followMu.Lock()
			err := p.reloadConfig(ctx)
			if err != nil {
				log.Warn("quire.yaml not applied", "err", err)
			}
			if _, err := p.ms.CatchUp(ctx); err != nil {
				log.Warn("manuscript not caught up", "err", err)
			}
			p.followMu.Unlock()
			// What changed before the watch began is kept too.
			p.kickSnapshots()
			if changed != nil {
				changed()
			}
		case <-ctx.Done():
		}
	}()
	p.watchSeries(ctx, log, changed)
	err := p.store.Watch(ctx, func(ch codex.Change) {
		defer survive("following a change")
		p.follow(ctx, ch, log)
		if changed != nil {
			changed()
		}
	})
	if err != nil {
		log.Warn("file watcher stopped", "root", p.real, "err", err)
	}
}

// uncheckedSince says the book answered from what the last session left
// (a warm start) and has files to check behind its first answers; a
// cold start read every file before it answered.
func (p *openBook) uncheckedSince() bool {
	return p.store.Report().Unchecked || p.ms.Unverified()
}

// checkBudget bounds how long the check behind a warm start's first
// answers waits for requests: a client that never stops asking still
// sees what changed on disk soon after the start. The start's first
// requests (the hover the editor sends with the open chapter) are
// answered within it; a longer wait only delays the correction.
const checkBudget = 60 * time.Millisecond

// checkBehind is the check behind a warm start's first answers
// (mbook.Options.CheckAfter): the codex's files compared with what the
// last session left, the chapters taken by their size and time hashed,
// and what changed followed as the watcher's changes are. shown runs as
// soon as each part has followed a change (it schedules the open
// documents' diagnostics), so that a codex file changed while quire was
// not running corrects the open chapters before the chapters are
// hashed; changed, the rest of what a change brings (every codex file's
// problems, the status: under Wine 160 ms of messages), runs once at the
// end, so that the chapters are hashed before it. The start's requests
// go first: it waits for them, and between chapters for any that come,
// checkBudget at most in all (yield.go).
func (p *openBook) checkBehind(ctx context.Context, log *slog.Logger, shown, changed func()) {
	unchecked := p.store.Report().Unchecked
	pause := p.gate.pacer(checkBudget)
	if pause(ctx) != nil {
		return
	}
	start := time.Now()
	any := false
	if unchecked {
		ch, stats, err := p.store.Check(ctx)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("codex files not checked; the watcher's catch-up will", "root", p.real, "err", err)
			}
			ch = codex.Change{}
		}
		if len(ch.Updated)+len(ch.Removed)+len(ch.Paths) > 0 || ch.Resynced {
			p.follow(ctx, ch, log)
			shown()
			any = true
		}
		log.Debug("codex files checked behind the first answers", "root", p.real, "files", stats.Files, "parsed", stats.Parsed, "entriesChanged", len(ch.Updated)+len(ch.Removed), "ms", time.Since(start).Milliseconds())
	}
	start = time.Now()
	p.followMu.Lock()
	again, err := p.ms.Verify(ctx, pause)
	p.followMu.Unlock()
	if err != nil && ctx.Err() == nil {
		// The watcher's catch-up compares sizes and times, which matched:
		// a chapter not hashed is trusted until it changes again.
		log.Warn("chapters not hashed; those whose size and time matched the last session's are trusted until they change", "root", p.real, "err", err)
	}
	log.Debug("chapters checked behind the first answers", "root", p.real, "readAgain", len(again), "ms", time.Since(start).Milliseconds())
	if len(again) > 0 {
		shown()
		any = true
	}
	if any {
		changed()
	}
}

// follow brings the manuscript in line with a codex change: a new name
// automaton when entries changed, and the chapters the change touched.
// The watcher and a reindex may both call it; they take turns.
func (p *openBook) follow(ctx context.Context, ch codex.Change, log *slog.Logger) {
	p.followMu.Lock()
	defer p.followMu.Unlock()
	if len(ch.Updated)+len(ch.Removed) > 0 {
		// The names of open codex files are the editor's.
		p.overlay.namesMu.Lock()
		m := p.setMatcherFor(p.catalog())
		p.overlay.namesMu.Unlock()
		p.ms.SetMatcher(m)
	}
	if ch.Resynced || slices.Contains(ch.Paths, configFile) {
		if err := p.reloadConfig(ctx); err != nil {
			log.Warn("quire.yaml not applied", "err", err)
		}
	}
	if err := p.followManuscript(ctx, ch); err != nil {
		log.Warn("manuscript not updated", "err", err)
	}
	p.observeWords()
	p.kickSnapshots()
}

// followManuscript applies a batch of file changes to the manuscript: the
// files themselves when every path is a Markdown file, else (a folder
// moved, or the watcher lost events) a fresh look at every chapter.
func (p *openBook) followManuscript(ctx context.Context, ch codex.Change) error {
	if ch.Resynced {
		return p.ms.Reload(ctx)
	}
	for _, rel := range ch.Paths {
		if !codex.IsMarkdown(rel) {
			return p.ms.Reload(ctx)
		}
	}
	_, err := p.ms.Refresh(ctx, ch.Paths)
	return err
}
