package editortest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// errInternal is Windows's ERROR_INTERNAL_ERROR, which Wine prints as
// "Internal error.".
const errInternal = syscall.Errno(1359)

// Start starts the command make builds (its pipes too, if it has any)
// and returns it started.
//
// Under Wine (QUIRE_UNDER_WINE, which wine-exec.sh sets), a process start
// now and then fails before any process exists: CI's Windows run lost
// the hostile suite to "fork/exec …quire.test.exe: Internal error." while
// four other starts ran beside it, and the same test passes alone and
// again. Such a failure, and only such, is tried once more with a command
// make builds afresh (a failed exec.Cmd cannot be started again, and its
// pipes are closed), and logged. quire never ran, so nothing of quire's is
// hidden; any other error, and any error on Linux or real Windows, is
// returned at once. logf says so (t.Logf, or log.Printf in a benchmark's
// helper that has no t).
func Start(logf func(format string, args ...any), make func() (*exec.Cmd, error)) (*exec.Cmd, error) {
	cmd, err := make()
	if err != nil {
		return nil, err
	}
	err = cmd.Start()
	if err == nil || !wineStartFailure(err) {
		return cmd, err
	}
	logf("under Wine, starting %s failed before it ran (%v); starting it once more", cmd.Path, err)
	cmd, err = make()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return cmd, fmt.Errorf("starting it once more: %w", err)
	}
	return cmd, nil
}

// wineStartFailure reports whether err is Wine's failed process start.
func wineStartFailure(err error) bool {
	return os.Getenv("QUIRE_UNDER_WINE") != "" && errors.Is(err, errInternal)
}
