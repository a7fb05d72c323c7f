package codex

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/quire-ink/quire/codex/filelock"
)

// lockFile is held, with an operating-system file lock, for as long as a
// store has a cache folder open, so that a second process neither reads a
// half-written index nor wipes a stale one from under the first. The
// file's contents mean nothing; a damaged one locks as well as any.
const lockFile = "lock"

// lockCache takes the lock on dir, waiting up to timeout for another
// process to let go of it.
func lockCache(dir string, timeout time.Duration) (*filelock.Lock, error) {
	return lockCacheFile(filepath.Join(dir, lockFile), timeout)
}

func lockCacheFile(name string, timeout time.Duration) (*filelock.Lock, error) {
	dir := filepath.Dir(name)
	l, err := filelock.Acquire(name, timeout)
	switch {
	case errors.Is(err, filelock.ErrTimeout):
		return nil, fmt.Errorf("%w (waited %s for %s)", ErrIndexLocked, timeout, dir)
	case err != nil:
		return nil, fmt.Errorf("lock cache folder %s: %w", dir, err)
	}
	return l, nil
}

// resolveMissing resolves the symlinks of a path that may not exist yet:
// the nearest existing ancestor is resolved and the rest appended, so a
// cache folder about to be created is judged by where it will really be.
func resolveMissing(p string) string {
	var rest []string
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// InsideProject reports whether the cache folder dir would lie in the
// project at root, following links in either.
func InsideProject(root, dir string) bool {
	return within(root, resolveMissing(dir))
}

// LockFolder takes an exclusive operating-system lock on dir (through a
// file named name inside it), waiting up to timeout; it fails with
// ErrIndexLocked when another process keeps it. Other indexes kept beside
// the codex's (the manuscript's) lock their own folders with it. Closing
// the returned value releases the lock.
func LockFolder(dir, name string, timeout time.Duration) (io.Closer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("lock folder %s: %w", dir, err)
	}
	l, err := lockCacheFile(filepath.Join(dir, name), timeout)
	if err != nil {
		return nil, err
	}
	return l, nil
}
