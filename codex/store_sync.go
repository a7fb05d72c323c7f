package codex

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// What starts a change of the store: a full sync, new globs, a rebuild, or
// a refresh of the files the watcher saw change (followed through symlinked
// folders). Each ends in apply.

// Sync walks the whole project and applies every difference from what the
// store knows: new, changed, moved and deleted files.
func (s *Store) Sync(ctx context.Context) (SyncStats, error) {
	_, stats, err := s.sync(ctx)
	return stats, err
}

func (s *Store) sync(ctx context.Context) (Change, SyncStats, error) {
	start := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Change{}, SyncStats{}, errClosed
	}
	return s.applyWalk(ctx, walkProject(ctx, s.root, false), start)
}

// walk is the project's files as one walk found them, with the ignore
// rules it walked by.
type walk struct {
	ignore *Ignore
	cands  []candidate
	links  []linkPair
	err    error
}

// walkProject walks root; lean stats the files on one goroutine.
func walkProject(ctx context.Context, root string, lean bool) walk {
	w := walk{ignore: loadIgnore(root)}
	w.cands, w.links, w.err = discoverLean(ctx, root, w.ignore, lean)
	return w
}

// walkAhead walks the project on a goroutine of its own. Open starts it
// before reading the saved state: the walk only stats files, the state
// read is mostly decoding, and on a warm start each took about as long
// as the other, one after the other. The walk is taken as it finds the
// files, exactly as a sync just after Open would; what changes later is
// the watcher's.
func walkAhead(ctx context.Context, root string) <-chan walk {
	done := make(chan walk, 1)
	go func() { done <- walkProject(ctx, root, false) }()
	return done
}

// applyWalk applies a full walk of the project; s.mu must be held.
func (s *Store) applyWalk(ctx context.Context, w walk, start time.Time) (Change, SyncStats, error) {
	if w.err != nil {
		return Change{}, SyncStats{}, w.err
	}
	s.ignore = w.ignore
	s.links = w.links
	ch, stats, err := s.apply(ctx, w.cands, func(string) bool { return true })
	stats.Duration = time.Since(start)
	return ch, stats, err
}

// SetGlobs changes where entries are looked for (none: everywhere) and
// brings the store in line: entries now outside go, files now inside are
// read. The change it returns is marked Resynced.
func (s *Store) SetGlobs(ctx context.Context, patterns []string) (Change, SyncStats, error) {
	globs, err := compileCodexGlobs(patterns)
	if err != nil {
		return Change{}, SyncStats{}, err
	}
	s.mu.Lock()
	s.globs = globs
	s.mu.Unlock()
	ch, stats, err := s.sync(ctx)
	ch.Resynced = true
	return ch, stats, err
}

// Rebuild forgets what the store knows of every file's content, then
// reads the whole project again and rewrites every entry in the index:
// the cure when the index seems out of step with the files. The change it
// returns is marked Resynced.
func (s *Store) Rebuild(ctx context.Context) (Change, SyncStats, error) {
	s.mu.Lock()
	for id := range s.files {
		// Keeping the key lets a file that is gone still count as removed.
		s.files[id] = fileState{}
	}
	s.mu.Unlock()
	ch, stats, err := s.sync(ctx)
	ch.Resynced = true
	return ch, stats, err
}

// loadIgnore reads the project's .gitignore; a missing one is no error.
func loadIgnore(root string) *Ignore {
	data, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		data = nil
	}
	return ParseIgnore(string(data))
}

// Refresh re-reads the given project-relative paths (files or folders,
// present or gone) and applies what changed. The watcher calls it with
// each settled burst of events.
func (s *Store) Refresh(ctx context.Context, rels []string) (Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Change{}, errClosed
	}
	if s.ignore == nil {
		s.ignore = loadIgnore(s.root)
	}

	var cands []candidate
	files := map[string]bool{}
	var folders []string
	seen := map[string]bool{}
	var visit func(rel string)
	visit = func(rel string) {
		if seen[rel] || rel == "" || s.ignore.Ignored(rel, false) && s.ignore.Ignored(rel, true) {
			return
		}
		seen[rel] = true
		abs := filepath.Join(s.root, filepath.FromSlash(rel))
		info, err := os.Stat(abs)
		if err == nil && !within(s.root, realPath(abs)) {
			err = fs.ErrNotExist // a link that now leads out counts as gone
		}
		switch {
		case err != nil:
			files[rel] = true
			folders = append(folders, rel+"/")
		case info.IsDir():
			if s.ignore.Ignored(rel, true) {
				return
			}
			found, links, derr := discoverUnder(ctx, s.root, s.ignore, rel)
			if derr == nil {
				cands = append(cands, found...)
				s.addLinks(links)
			}
			folders = append(folders, rel+"/")
		case info.Mode().IsRegular() && IsMarkdown(rel) && !s.ignore.Ignored(rel, false):
			cands = append(cands, classify(s.root, rel, info))
			files[rel] = true
		}
		// A new or deleted index.md turns its folder into an entry folder
		// or back: every file beside it is read anew.
		if path.Base(rel) == entryIndex {
			visit(parentDir(rel))
		}
	}
	for _, rel := range s.throughLinks(rels) {
		visit(rel)
	}
	inScope := func(id string) bool {
		if files[id] {
			return true
		}
		for _, f := range folders {
			if strings.HasPrefix(id, f) {
				return true
			}
		}
		return false
	}
	ch, _, err := s.apply(ctx, cands, inScope)
	return ch, err
}

// throughLinks adds to project-relative paths the other names they have
// through symlinks inside the project: editing a link's target changes
// the entry read through the link, and the watcher reports only one name.
func (s *Store) throughLinks(rels []string) []string {
	out := make([]string, 0, len(rels))
	seen := map[string]bool{}
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	for _, rel := range rels {
		add(strings.Trim(filepath.ToSlash(rel), "/"))
	}
	// Two rounds follow a link into a linked folder, and no further.
	for range 2 {
		for _, rel := range slices.Clone(out) {
			for _, l := range s.links {
				if rest, ok := underPath(rel, l.target); ok {
					add(path.Join(l.link, rest))
				}
				if rest, ok := underPath(rel, l.link); ok {
					add(path.Join(l.target, rest))
				}
			}
		}
	}
	return out
}

// underPath reports whether rel is base or lies below it, and the rest.
func underPath(rel, base string) (string, bool) {
	if rel == base {
		return "", true
	}
	if strings.HasPrefix(rel, base+"/") {
		return rel[len(base)+1:], true
	}
	return "", false
}

func (s *Store) addLinks(links []linkPair) {
	for _, l := range links {
		if !slices.Contains(s.links, l) {
			s.links = append(s.links, l)
		}
	}
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Check walks the project and applies what changed since the store
// last looked, as Sync does, and returns the change: after an Open that
// answered first (Options.CheckAfter), what changed on disk while quire
// was not running, to be followed as the watcher's changes are.
//
// Its walk is lean: one goroutine stats the files, leaving the other
// cores to the requests it runs behind.
func (s *Store) Check(ctx context.Context) (Change, SyncStats, error) {
	start := time.Now()
	return s.applyFound(ctx, walkProject(ctx, s.root, true), start)
}

// applyFound applies a walk made without the lock, taking it.
func (s *Store) applyFound(ctx context.Context, w walk, start time.Time) (Change, SyncStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Change{}, SyncStats{}, errClosed
	}
	return s.applyWalk(ctx, w, start)
}

// openSync is Open's first sync, with the walk walkAhead began.
func (s *Store) openSync(ctx context.Context, w walk, start time.Time) (SyncStats, error) {
	_, stats, err := s.applyFound(ctx, w, start)
	return stats, err
}
