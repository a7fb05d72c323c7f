package server

import (
	"log/slog"
	"sync"
	"time"
)

// The chapter cache (manuscript.Manuscript.SaveCache) is written as the
// session learns what it holds, not only when the session ends: an
// editor that kills its server on exit, a crash or a power cut would
// otherwise leave the next start to read and scan every chapter again.
// No request waits for it. It is written once the first scan of the
// book is done (flush, from keepLearned, before the codex's search index
// starts to build: that build's CPU and disk writes, seconds of them,
// made a save beside it take seconds too, and a server killed a second
// after its first hover had saved nothing), and
// after the watcher's changes (soon, on a goroutine of its own). soon
// waits for the changes to settle, and never longer than a bound after
// the first one it was asked for, so a book changing for a long while
// is still saved now and then; the file is rewritten whole (megabytes
// for a long book), so it is not rewritten per change. Saving writes
// nothing when the file already says it all.

// Delays of chapterSaves.soon.
const (
	chapterSaveQuiet = 5 * time.Second
	chapterSaveLimit = 30 * time.Second
)

// chapterSaves writes one book's chapter cache in the background.
type chapterSaves struct {
	save func() error
	log  *slog.Logger
	// quiet and limit are soon's delays: after the last call, and at most
	// after the first one not yet saved.
	quiet, limit time.Duration

	mu sync.Mutex
	// timer is the save to come; pendingSince when it was first asked.
	timer        *time.Timer
	pendingSince time.Time
	stopped      bool
	// running counts saves under way; saving lets one run at a time.
	running sync.WaitGroup
	saving  sync.Mutex
}

func newChapterSaves(save func() error, log *slog.Logger) *chapterSaves {
	return &chapterSaves{save: save, log: log, quiet: chapterSaveQuiet, limit: chapterSaveLimit}
}

// flush saves now, on the caller's goroutine, in place of a save to
// come.
func (c *chapterSaves) flush() { c.run() }

// soon saves once changes have settled: quiet after this call, at most
// limit after the first call not yet saved.
func (c *chapterSaves) soon() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	now := time.Now()
	if c.pendingSince.IsZero() {
		c.pendingSince = now
	}
	wait := max(0, min(c.quiet, c.pendingSince.Add(c.limit).Sub(now)))
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer = time.AfterFunc(wait, c.run)
}

// run saves, unless stop came first.
func (c *chapterSaves) run() {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer, c.pendingSince = nil, time.Time{}
	c.running.Add(1)
	c.mu.Unlock()
	defer c.running.Done()
	c.saving.Lock()
	defer c.saving.Unlock()
	start := time.Now()
	if err := c.save(); err != nil {
		// The next start reads the chapters again; nothing else is lost.
		c.log.Warn("chapter cache not saved", "err", err)
		return
	}
	c.log.Debug("chapter cache saved", "ms", time.Since(start).Milliseconds())
}

// stop cancels the save to come and waits for one under way: the
// session's last save (project.close) follows it.
func (c *chapterSaves) stop() {
	c.mu.Lock()
	c.stopped = true
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.mu.Unlock()
	c.running.Wait()
}
