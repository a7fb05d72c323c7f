//go:build !windows

package health

import (
	"errors"
	"syscall"
)

// connRefused says nothing listens at the address err failed to reach.
func connRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
