package codex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// When the cache folder fails (full, read-only, not a folder, deleted
// while quire runs), the store gives it up and keeps its index in memory,
// as it does when another process holds the cache: the writer is told
// once, and the book keeps working.

// toMemory gives up the cache after it failed with cause: the disk index
// is closed and its files removed (on a full disk that frees what it
// took), the lock released, and a new index in memory built from every
// entry the store holds. The writer is told once, through OnFallback.
// s.mu must be held, or the store not yet shared.
func (s *Store) toMemory(ctx context.Context, cause error) error {
	dir := s.cacheDir
	wanted := cmp.Or(dir, s.report.CacheDir)
	if dir != "" {
		// bleve tells of failed writes only by counting them: a write of
		// our own finds the operating system's reason.
		if perr := probeWrite(dir); perr != nil {
			cause = fmt.Errorf("%w (%w)", cause, perr)
		}
	}
	// Info: the writer hears of it through OnFallback, in plainer words.
	s.log.Info("codex cache unusable; keeping the index in memory", "cache", dir, "err", cause)
	ix, err := newMemoryIndex()
	if err != nil {
		return errors.Join(cause, err)
	}
	entries := make([]*Entry, 0, len(s.entries))
	for _, e := range s.entries {
		entries = append(entries, e)
	}
	if err := ix.apply(ctx, entries, nil); err != nil {
		_ = ix.close()
		return errors.Join(cause, err)
	}
	if old := s.index.Swap(ix); old != nil {
		// A search still running on the old index may fail; the next
		// one finds the new index.
		_ = old.close()
	}
	if dir != "" {
		_ = s.wipe()
	}
	s.closeCache()
	why := cacheFailure(wanted, cause)
	if s.fallback.CompareAndSwap(nil, &why) && s.opts.OnFallback != nil {
		s.opts.OnFallback(why)
	}
	return nil
}

// probeWrite writes and removes a small file in dir, to learn why the
// disk refuses writes (full, read-only, gone), if it does.
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, "probe.*")
	if err != nil {
		return err
	}
	// As large as a small segment: a disk with less room left than this
	// is full for the index.
	_, err = f.Write(make([]byte, 1<<20))
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	_ = os.Remove(f.Name())
	return err
}

// closeCache lets go of the cache folder; the store writes nothing more.
func (s *Store) closeCache() {
	_ = s.lock.Close()
	s.lock = nil
	s.cacheDir = ""
}

// cacheFailure says for a writer why the index is in memory: what
// happened to the cache, and what to do about it. The operating system's
// words stand for the whole chain of errors when they are found in it.
func cacheFailure(dir string, cause error) string {
	where := "quire's index cache"
	if dir != "" {
		where += " (" + dir + ")"
	}
	what, why := "could not be written", cause.Error()
	for _, k := range []struct {
		errno syscall.Errno
		what  string
	}{
		{syscall.ENOSPC, "is on a full disk"},
		{syscall.EDQUOT, "is over its disk quota"},
		{syscall.EROFS, "is on a read-only disk"},
		{syscall.EACCES, "is not writable"},
		{syscall.EPERM, "is not writable"},
		{syscall.ENOTDIR, "is not a folder"},
		{syscall.ENOENT, "was deleted"},
		{syscall.EIO, "is on a failing disk"},
	} {
		// bleve wraps some errors with %v: the words are looked for too.
		if errors.Is(cause, k.errno) || strings.Contains(why, k.errno.Error()) {
			what, why = k.what, k.errno.Error()
			break
		}
	}
	return fmt.Sprintf("%s %s (%s). This session keeps the index in memory: everything works, "+
		"only the next start reads the whole codex again. Free some disk space, or make the cache folder "+
		"writable, and quire uses it again from its next start.", where, what, why)
}

// Fallback says why the index is in memory although a cache folder was
// asked for; empty while the cache is in use (or none was asked for).
func (s *Store) Fallback() string {
	if why := s.fallback.Load(); why != nil {
		return *why
	}
	return ""
}
