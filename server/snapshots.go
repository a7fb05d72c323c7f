package server

import (
	"context"
	"errors"
	"fmt"
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
	dir string
	log *slog.Logger
	// opened is closed once the store is open (store set) or failed to
	// open (openErr set). The store opens behind the book's first
	// answers, not before them: reading a store of years takes tens of
	// milliseconds the first hover should not wait for.
	opened  chan struct{}
	store   *snapshot.Store
	openErr error
	kick    chan struct{}
	// ctx ends when the book closes: a keeping under way stops between
	// chapters, so closing waits for one chapter at most.
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	stop   sync.Once
	// exited is closed when keepSnapshots returns: closing the book
	// waits for a keeping under way, so nothing writes after it.
	exited chan struct{}
	// syncMu keeps one keeping at a time: the background's and a
	// command's.
	syncMu sync.Mutex
}

// snapshotsAfterStart is how long after the book opens its chapters are
// first read for the snapshots: the first second of a session belongs
// to the writer's first requests.
const snapshotsAfterStart = time.Second

// openSnapshots keeps the book's chapters in its snapshot store, in the
// data folder, in the background: the store opens and the chapters as
// they are now are kept once the start's requests are answered.
func (p *openBook) openSnapshots(log *slog.Logger) {
	dir := p.data.Snapshots()
	if dir == "" {
		return
	}
	// The folder is made now; the store opens later in it, and not at
	// all when it was deleted meanwhile (a cleaner emptying the folder
	// under a running quire): nothing is written there again.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		log.Warn("snapshots are not kept", "root", p.real, "err", err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.snaps = &snapshots{dir: dir, log: log.With("root", p.real), opened: make(chan struct{}), ctx: ctx, cancel: cancel,
		kick: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{})}
	go p.keepSnapshots()
}

// open opens the store, once.
func (s *snapshots) open() {
	defer close(s.opened)
	if _, err := os.Stat(s.dir); err != nil {
		s.openErr = err
		s.log.Warn("snapshots are not kept: their folder is gone", "err", err)
		return
	}
	st, err := snapshot.Open(s.dir, snapshot.Options{})
	if err != nil {
		s.openErr = err
		s.log.Warn("snapshots are not kept", "err", err)
		return
	}
	for _, r := range st.Repairs() {
		s.log.Warn("snapshot store repaired", "what", r)
	}
	s.store = st
}

// storeNow is the store if it is open by now: what a code action, asked
// on every cursor move, offers without waiting.
func (s *snapshots) storeNow() *snapshot.Store {
	select {
	case <-s.opened:
		return s.store
	default:
		return nil
	}
}

// wait is the store once it is open: a writer's command opens it at
// once rather than wait for the start's delay.
func (s *snapshots) wait(ctx context.Context) (*snapshot.Store, error) {
	select {
	case s.kick <- struct{}{}:
	default:
	}
	select {
	case <-s.opened:
		if s.store == nil {
			return nil, s.openErr
		}
		return s.store, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
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
	// The store opens after the start, or at once when a command asks.
	select {
	case <-s.done:
		s.openErr = errors.New("the book was closed")
		close(s.opened)
		return
	case <-time.After(snapshotsAfterStart):
	case <-s.kick:
	}
	s.open()
	if s.store == nil {
		<-s.done
		return
	}
	// The chapters as they are at the opening, then the keeping rule,
	// once a session: versions older than the rule keeps go.
	p.syncSnapshots(true)
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
		p.syncSnapshots(true)
	}
}

// syncSnapshots reads every chapter from disk and keeps those that
// changed, and notes those whose file is gone. In the background
// (yield) each file read waits for the requests in flight; a request
// that needs what was saved just now keeps it without waiting for
// itself.
func (p *openBook) syncSnapshots(yield bool) {
	s := p.snaps
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("keeping snapshots panicked", "panic", r)
		}
	}()
	if s.storeNow() == nil {
		return
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	units := p.ms.Snapshot().Units()
	chapters := make([]string, len(units))
	for i, u := range units {
		chapters[i] = u.Path
	}
	kept, err := s.store.Sync(s.ctx, chapters, func(path string) (string, error) {
		if yield {
			if err := p.gate.yield(s.ctx); err != nil {
				return "", err
			}
		}
		// Read and kept one at a time: the store holds one chapter's
		// text while the start still builds the search index.
		data, err := os.ReadFile(filepath.Join(p.real, filepath.FromSlash(path)))
		switch {
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			// Not read this time: keep nothing more rather than call
			// any chapter deleted.
			return "", fmt.Errorf("a chapter could not be read; nothing more kept this time: %w", err)
		case len(data) > maxAutoSnapshotBytes:
			return "", snapshot.ErrNotKept
		}
		return string(data), err
	})
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
