package codex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch keeps the store current until ctx ends: it watches every project
// folder (adding new ones as they appear, dropping moved or deleted ones),
// lets bursts of events settle for the debounce interval, then re-reads
// exactly the paths that changed. Editor saves through a temporary file
// and a rename, and backup-then-write saves, come out as one change of
// the file. When the kernel's event queue overflows, it falls back to a
// full resync. onChange, if set, is called after each applied batch from
// the watcher's goroutine. Watching tells when the watch has begun.
func (s *Store) Watch(ctx context.Context, onChange func(Change)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return s.poll(ctx, onChange, err)
	}
	s.mu.Lock()
	ig := s.ignore
	s.mu.Unlock()
	if ig == nil {
		ig = loadIgnore(s.root)
	}
	watched := map[string]bool{}
	if err := s.watchTree(w, s.root, ig, watched); err != nil {
		w.Close()
		return s.poll(ctx, onChange, err)
	}
	defer w.Close()
	// Files written between Open and the first watch would be missed.
	if ch, _, err := s.sync(ctx); err != nil && !errors.Is(err, errClosed) && ctx.Err() == nil {
		s.log.Warn("codex resync failed", "err", err)
	} else if err == nil && onChange != nil && len(ch.Updated)+len(ch.Removed) > 0 {
		onChange(ch)
	}
	s.watchOnce.Do(func() { close(s.watching) })

	pending := map[string]bool{}
	fullSync, rewatch := false, false
	settle := time.NewTimer(time.Hour)
	settle.Stop()
	save := time.NewTimer(time.Hour)
	save.Stop()
	defer func() {
		if err := s.Save(); err != nil && !errors.Is(err, errClosed) {
			s.log.Warn("codex state not saved", "err", err)
		}
	}()

	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			rel, inside := s.relative(ev.Name)
			if !inside {
				continue
			}
			if rel == ".gitignore" {
				s.mu.Lock()
				s.ignore = loadIgnore(s.root)
				ig = s.ignore
				s.mu.Unlock()
				fullSync = true
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				// A moved folder keeps its inotify watch under the old
				// name; drop it, the new name arrives as a Create. A
				// folder reached by two paths has one watch: dropping it
				// under one name needs the tree walked again.
				if s.unwatchTree(w, ev.Name, watched) {
					rewatch = true
				}
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() && !ig.Ignored(rel, true) {
					if err := s.watchTree(w, ev.Name, ig, watched); err != nil {
						// The system's limit is reached: from now on the
						// project is scanned instead, this folder too.
						w.Close()
						return s.poll(ctx, onChange, err)
					}
				}
			}
			if rel != "" && !(ig.Ignored(rel, false) && ig.Ignored(rel, true)) {
				pending[rel] = true
			}
			settle.Reset(s.opts.Debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				s.log.Warn("file events overflowed; rescanning the project")
				fullSync = true
				settle.Reset(s.opts.Debounce)
				continue
			}
			s.log.Warn("file watcher error", "err", err)
		case <-settle.C:
			var ch Change
			var err error
			if rewatch || fullSync {
				if err := s.watchTree(w, s.root, ig, watched); err != nil {
					w.Close()
					return s.poll(ctx, onChange, err)
				}
			}
			rewatch = false
			resynced := fullSync
			var rels []string
			if !fullSync {
				rels = make([]string, 0, len(pending))
				for rel := range pending {
					rels = append(rels, rel)
				}
				slices.Sort(rels)
			}
			ch, err = s.update(ctx, fullSync, rels)
			ch.Paths, ch.Resynced = rels, resynced
			pending, fullSync = map[string]bool{}, false
			if errors.Is(err, errClosed) || ctx.Err() != nil {
				return nil
			}
			if err != nil {
				s.log.Warn("codex update failed", "err", err)
				continue
			}
			if len(ch.Updated)+len(ch.Removed) > 0 {
				save.Reset(s.opts.SaveDelay)
			}
			if onChange != nil && (len(ch.Updated)+len(ch.Removed) > 0 || len(ch.Paths) > 0 || ch.Resynced) {
				onChange(ch)
			}
		case <-save.C:
			if err := s.Save(); err != nil {
				s.log.Warn("codex state not saved", "err", err)
			}
		}
	}
}

// update applies one settled batch: the whole project again, or the
// paths that changed. A panic in it (a parser, the index library) costs
// this batch, reported as an error, and the watcher goes on.
func (s *Store) update(ctx context.Context, full bool, rels []string) (ch Change, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("update the codex: quire failed on this change: %v", r)
		}
	}()
	if full {
		ch, _, err = s.sync(ctx)
		return ch, err
	}
	return s.Refresh(ctx, rels)
}

// relative converts an event path to a project-relative one.
func (s *Store) relative(name string) (string, bool) {
	rel, err := filepath.Rel(s.root, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// watchTree watches dir and every folder below it that is not ignored,
// following symlinked folders that stay inside the project. It stops at
// the first folder the system refuses for want of descriptors or watches
// (errWatchLimit): the caller then scans instead of watching. A folder
// refused for another reason is logged and left out, as before.
func (s *Store) watchTree(w *fsnotify.Watcher, dir string, ig *Ignore, watched map[string]bool) error {
	seen := map[string]bool{}
	var limit error
	var walk func(dir string)
	walk = func(dir string) {
		real := realPath(dir)
		if limit != nil || seen[real] || !within(s.root, real) {
			return
		}
		seen[real] = true
		if !watched[dir] {
			if err := w.Add(dir); err != nil {
				if isWatchLimit(err) {
					limit = err
					return
				}
				if !errors.Is(err, fs.ErrNotExist) {
					s.log.Warn("cannot watch folder", "dir", dir, "err", err)
				}
				return
			}
			watched[dir] = true
		}
		list, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, de := range list {
			child := filepath.Join(dir, de.Name())
			isDir := de.IsDir()
			if de.Type()&fs.ModeSymlink != 0 {
				if info, err := os.Stat(child); err == nil {
					isDir = info.IsDir()
				}
			}
			if !isDir {
				continue
			}
			if rel, ok := s.relative(child); ok && !ig.Ignored(rel, true) {
				walk(child)
			}
		}
	}
	walk(dir)
	return limit
}

// unwatchTree drops the watches on dir and below, after a move or
// delete, and reports whether there were any.
func (s *Store) unwatchTree(w *fsnotify.Watcher, dir string, watched map[string]bool) bool {
	prefix := dir + string(filepath.Separator)
	dropped := false
	for p := range watched {
		if p == dir || strings.HasPrefix(p, prefix) {
			_ = w.Remove(p)
			delete(watched, p)
			dropped = true
		}
	}
	return dropped
}

// Watching is closed once Watch looks at the files and has caught up
// with what changed before: from then on no change is missed. Files the
// store does not read (quire.yaml) that changed before that are the
// caller's to check.
func (s *Store) Watching() <-chan struct{} { return s.watching }
