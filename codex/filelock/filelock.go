// Package filelock holds an operating-system lock on a file, so that two
// quire processes take turns at something they share: a book's cache
// folder, the writer's trust records. The lock is the operating system's
// (flock, LockFileEx), so it goes with the process: one killed while
// holding it holds it no more.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrTimeout means another process held the lock for longer than the
// caller would wait.
var ErrTimeout = errors.New("held by another process")

// Lock is an exclusive lock on a file, held until Close.
type Lock struct{ f *os.File }

// Acquire takes the lock on the file name (created, mode 0600, when it
// is missing; its contents mean nothing), waiting up to timeout for
// another process to let go of it.
func Acquire(name string, timeout time.Duration) (*Lock, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if held {
			return &Lock{f: f}, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w (waited %s)", name, ErrTimeout, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close lets the lock go. A nil Lock holds nothing.
func (l *Lock) Close() error {
	if l == nil {
		return nil
	}
	// Closing the file releases the lock.
	return l.f.Close()
}
