package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/goals"
	history "github.com/quire-ink/quire/manuscript/progress"
)

// Words and progress in the server. A chapter's count is made when the
// manuscript takes its text (manuscript.NewUnit, on the edit queue's
// debounced path, edit_queue.go), so nothing here counts per keystroke:
// each new manuscript snapshot is handed whole to the book's history
// (manuscript/progress), which writes it in the background.

// progressDebounce lets a burst of edits settle before the history is
// written; the write never holds a request. Short, so that what a
// session saw is on disk before an editor that does not wait for its
// server's exit is gone.
const progressDebounce = time.Second

// wordCounts follows a book's snapshots into its history.
type wordCounts struct {
	// store is nil until the book has loaded.
	store *history.Store
	log   *slog.Logger
	// mu orders the sights: an older snapshot is never seen after a newer.
	mu   sync.Mutex
	last *manuscript.Snapshot
	// counts is reused for each sight (Observe keeps none of it), so an
	// edit adds no garbage for the collector.
	counts map[string]int
}

// openWordCounts starts the book's history, in its cache folder (in
// memory when it has none), and takes its first sight.
func (p *openBook) openWordCounts(opts Options, log *slog.Logger) {
	p.words.log = log.With("root", p.real)
	p.words.store = history.New(history.Options{Path: p.data.Progress(), Now: opts.now,
		Debounce: progressDebounce, Logger: p.words.log})
	p.observeWords()
}

// observeWords hands the manuscript as it stands to the history, once
// per snapshot.
func (p *openBook) observeWords() {
	if p.words.store == nil || p.ms == nil {
		return
	}
	p.words.mu.Lock()
	defer p.words.mu.Unlock()
	snap := p.ms.Snapshot()
	if snap == p.words.last {
		return
	}
	p.words.last = snap
	if p.words.counts == nil {
		p.words.counts = map[string]int{}
	}
	clear(p.words.counts)
	for _, u := range snap.Units() {
		// Chapters only, as goals.ChaptersOf has them.
		if u.Position > 0 {
			p.words.counts[u.Path] = u.Words
		}
	}
	p.words.store.Observe(p.words.counts)
}

// closeWordCounts writes what the session saw last.
func (p *openBook) closeWordCounts() {
	if p.words.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.words.store.Close(ctx); err != nil {
		p.words.log.Warn("progress: history not written", "err", err)
	}
}

// summary is the book's counts, history and goals as they stand.
func (p *openBook) summary() goals.Summary {
	p.observeWords()
	snap := p.ms.Snapshot()
	var h history.History
	now := time.Now()
	if p.words.store != nil {
		h, now = p.words.store.History(), p.words.store.Now()
	}
	sum := goals.Summarize(goals.ChaptersOf(snap), h, p.configOf().goals, now)
	if p.words.store != nil {
		sum.Session = p.words.store.Session()
	}
	return sum
}
