package health

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// connRefused says nothing listens at the address err failed to reach:
// Windows reports it as WSAECONNREFUSED, which syscall.ECONNREFUSED
// (an errno Go makes up there) never matches.
func connRefused(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, syscall.ECONNREFUSED)
}
