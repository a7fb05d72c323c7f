package server

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript/snapshot"
)

// maxAutoSnapshotBytes bounds the chapters kept on their own: one
// larger than this (a whole long novel is some 700 KB) is kept only when
// the writer asks (a named snapshot, quire snapshot save), so that a
// machine-made file of megabytes never costs every save a copy.
const maxAutoSnapshotBytes = 1 << 20

// snapshotDebounce lets a burst of saves settle before the chapters are
// read from disk and kept; the keeping never holds a request.
const snapshotDebounce = 300 * time.Millisecond

// snapshots keeps a version of each chapter whose text on disk changed
// (manuscript/snapshot): at the book's loading, and after each batch of
// file changes the watcher brings. Only what is on disk is kept, never
// an editor's unsaved text.
type snapshots struct {
	store *snapshot.Store
	log   *slog.Logger
	kick  chan struct{}
	// ctx ends when the book closes: a keeping under way stops between
	// chapters, so closing waits for one chapter at most.
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	stop   sync.Once
	// exited is closed when keepSnapshots returns: closing the book
	// waits for a keeping under way, so nothing writes after it.
	exited chan struct{}
}

// openSnapshots opens the book's snapshot store in its data folder and
// keeps the chapters as they are now, in the background.
func (p *openBook) openSnapshots(log *slog.Logger) {
	dir := p.data.Snapshots()
	if dir == "" {
		return
	}
	log = log.With("root", p.real)
	st, err := snapshot.Open(dir, snapshot.Options{})
	if err != nil {
		log.Warn("snapshots are not kept", "err", err)
		return
	}
	for _, r := range st.Repairs() {
		log.Warn("snapshot store repaired", "what", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.snaps = &snapshots{store: st, log: log, ctx: ctx, cancel: cancel, kick: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{})}
	go p.keepSnapshots()
}

// kickSnapshots asks for the chapters to be kept as they are on disk.
func (p *openBook) kickSnapshots() {
	if p.snaps == nil {
		return
	}
	select {
	case p.snaps.kick <- struct{}{}:
	default:
	}
}

func (p *openBook) keepSnapshots() {
	s := p.snaps
	defer close(s.exited)
	// The chapters as they are at the opening, then the keeping rule,
	// once a session: versions older than the rule keeps go.
	p.syncSnapshots()
	if s.ctx.Err() == nil {
		p.pruneSnapshots()
	}
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
		}
		// A burst of saves is kept once.
		select {
		case <-s.done:
			return
		case <-time.After(snapshotDebounce):
		}
		select {
		case <-s.kick:
		default:
		}
		p.syncSnapshots()
	}
}

// syncSnapshots reads every chapter from disk and keeps those that
// changed, and notes those whose file is gone.
func (p *openBook) syncSnapshots() {
	s := p.snaps
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("keeping snapshots panicked", "panic", r)
		}
	}()
	texts := map[string]string{}
	present := map[string]bool{}
	for _, u := range p.ms.Snapshot().Units() {
		data, err := os.ReadFile(filepath.Join(p.real, filepath.FromSlash(u.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Gone from disk (or never saved): not kept, and noted as
			// deleted when the store knows it.
		case err != nil:
			// Not read this time: keep nothing rather than call it
			// deleted.
			s.log.Warn("snapshots: a chapter could not be read; nothing kept this time", "err", err)
			return
		case len(data) > maxAutoSnapshotBytes:
			present[u.Path] = true
		default:
			present[u.Path] = true
			texts[u.Path] = string(data)
		}
	}
	kept, err := s.store.Sync(s.ctx, texts, present)
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("snapshots: not kept", "err", err)
	}
	for _, r := range s.store.Repairs() {
		s.log.Warn("snapshot store repaired", "what", r)
	}
	if len(kept) > 0 {
		s.log.Debug("snapshots kept", "versions", len(kept))
	}
}

// pruneSnapshots applies the book's keeping rule (snapshots:).
func (p *openBook) pruneSnapshots() {
	l, err := settings.Load(p.sources())
	if err != nil {
		p.snaps.log.Warn("snapshots: settings not read; the default rule applies", "err", err)
	}
	policy, _ := snapshot.PolicyFrom(l)
	res, err := p.snaps.store.Prune(policy)
	if err != nil {
		p.snaps.log.Warn("snapshots: not pruned", "err", err)
		return
	}
	if res.Versions > 0 {
		p.snaps.log.Info("snapshots pruned", "versions", res.Versions, "bytesBefore", res.Before, "bytesAfter", res.After)
	}
}

func (p *openBook) closeSnapshots() {
	if p.snaps == nil {
		return
	}
	p.snaps.stop.Do(func() {
		p.snaps.cancel()
		close(p.snaps.done)
	})
	<-p.snaps.exited
}
