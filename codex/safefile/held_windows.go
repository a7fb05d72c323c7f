package safefile

import (
	"errors"
	"syscall"
)

// heldOpen reports whether a rename failed because another handle holds
// the target (or the source) open without sharing its deletion.
func heldOpen(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	switch errno {
	case syscall.ERROR_ACCESS_DENIED, errSharingViolation, errLockViolation:
		return true
	}
	return false
}

// ERROR_SHARING_VIOLATION and ERROR_LOCK_VIOLATION, which syscall does
// not name.
const (
	errSharingViolation = syscall.Errno(32)
	errLockViolation    = syscall.Errno(33)
)
