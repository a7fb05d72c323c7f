package codex

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// lockFile is held, with an operating-system file lock, for as long as a
// store has a cache folder open, so that a second process neither reads a
// half-written index nor wipes a stale one from under the first. The
// file's contents mean nothing; a damaged one locks as well as any.
const lockFile = "lock"

// cacheLock is an exclusive lock on a project's cache folder.
type cacheLock struct{ f *os.File }

// lockCache takes the lock on dir, waiting up to timeout for another
// process to let go of it.
func lockCache(dir string, timeout time.Duration) (*cacheLock, error) {
	return lockCacheFile(filepath.Join(dir, lockFile), timeout)
}

func lockCacheFile(name string, timeout time.Duration) (*cacheLock, error) {
	dir := filepath.Dir(name)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock cache folder %s: %w", dir, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock cache folder %s: %w", dir, err)
		}
		if held {
			return &cacheLock{f: f}, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w (waited %s for %s)", ErrIndexLocked, timeout, dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *cacheLock) release() error {
	if l == nil {
		return nil
	}
	// Closing the file releases the lock.
	return l.f.Close()
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
	return l.f, nil
}
