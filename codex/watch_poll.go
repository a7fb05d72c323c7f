package codex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// isWatchLimit reports whether the system refused a watch for want of
// resources: file descriptors (macOS's kqueue takes one per watched file
// and folder, so a 10,000-entry codex meets the default limit) or
// inotify watches (Linux's max_user_watches). Go already raises the
// process's soft descriptor limit to its hard limit at start, the most
// a program may take without privileges; past that, quire scans instead.
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOSPC)
}

// pollFiles are the files outside the codex that change what quire reads
// and that a scan looks at besides the Markdown files: the book's
// settings and its ignore rules.
var pollFiles = []string{"quire.yaml", ".gitignore"}

// poll keeps the store current by scanning the project every
// PollInterval, for when the system will not watch it (why). It tells the
// writer once (Options.OnWatchFallback), then reports each scan's changes
// to onChange as the watcher would, until ctx ends.
func (s *Store) poll(ctx context.Context, onChange func(Change), why error) error {
	reason := fmt.Sprintf("the system will not let quire watch this book's files (%v); quire looks for changes every %s instead, so an edit made outside the editor may take that long to show. Raising the open-file limit (ulimit -n) lets quire watch again.",
		why, s.opts.PollInterval)
	s.log.Warn("watching files failed; scanning instead", "root", s.root, "every", s.opts.PollInterval, "err", why)
	if s.opts.OnWatchFallback != nil {
		s.opts.OnWatchFallback(reason)
	}
	defer func() {
		if err := s.Save(); err != nil && !errors.Is(err, errClosed) {
			s.log.Warn("codex state not saved", "err", err)
		}
	}()
	// Stamps first, then the catch-up: a change between the two shows in
	// the first scan rather than being missed.
	prev := s.scanStamps(ctx)
	if ch, _, err := s.sync(ctx); err != nil && !errors.Is(err, errClosed) && ctx.Err() == nil {
		s.log.Warn("codex resync failed", "err", err)
	} else if err == nil && onChange != nil && len(ch.Updated)+len(ch.Removed) > 0 {
		onChange(ch)
	}
	s.watchOnce.Do(func() { close(s.watching) })

	tick := time.NewTicker(s.opts.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		cur := s.scanStamps(ctx)
		if cur == nil {
			continue // the scan failed (a folder moving); the next one tries again
		}
		rels := changedStamps(prev, cur)
		prev = cur
		if len(rels) == 0 {
			continue
		}
		full := slices.Contains(rels, ".gitignore")
		ch, err := s.update(ctx, full, rels)
		if errors.Is(err, errClosed) || ctx.Err() != nil {
			return nil
		}
		if err != nil {
			s.log.Warn("codex update failed", "err", err)
			continue
		}
		ch.Paths, ch.Resynced = rels, full
		if full {
			ch.Paths = nil
		}
		if onChange != nil {
			onChange(ch)
		}
	}
}

// FileStamp is what stat says of a file: enough to tell, without
// reading it, that it changed since it was last seen. The codex's scans
// and the manuscript's catch-up compare them.
type FileStamp struct {
	Size int64
	Mod  int64 // modification time, Unix nanoseconds
}

// StampOf is info's stamp.
func StampOf(info fs.FileInfo) FileStamp {
	return FileStamp{Size: info.Size(), Mod: info.ModTime().UnixNano()}
}

// scanStamps is every Markdown file of the project that is not ignored,
// and the pollFiles, by project-relative path; nil when the walk failed.
func (s *Store) scanStamps(ctx context.Context) map[string]FileStamp {
	w := walkProject(ctx, s.root, false)
	if w.err != nil {
		return nil
	}
	out := make(map[string]FileStamp, len(w.cands)+len(pollFiles))
	for _, c := range w.cands {
		out[c.ID] = FileStamp{c.Size, c.ModTime.UnixNano()}
	}
	for _, rel := range pollFiles {
		if info, err := os.Stat(filepath.Join(s.root, rel)); err == nil {
			out[rel] = StampOf(info)
		}
	}
	return out
}

// changedStamps lists, sorted, the paths added, removed or changed
// between two scans.
func changedStamps(prev, cur map[string]FileStamp) []string {
	var out []string
	for rel, st := range cur {
		if old, ok := prev[rel]; !ok || old != st {
			out = append(out, rel)
		}
	}
	for rel := range prev {
		if _, ok := cur[rel]; !ok {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}
