// Package safefile replaces files whole: a reader sees the old bytes or
// the new, never half, on every system quire runs on.
//
// On Windows a file cannot be replaced while another process holds it
// open without sharing its deletion (most programs, Go's own os.Open
// included): os.Rename then fails with "Access is denied" or a sharing
// violation until that process closes it. A second quire reading the
// same cache, an indexer or a virus scanner hold files that way for
// moments, so Replace tries again for a while there, as the go command
// does for its own cache (cmd/go/internal/robustio).
package safefile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// patience is how long Replace keeps trying while the target is held.
const patience = 2 * time.Second

// Replace renames from over to, trying again for up to two seconds
// while to is held open where that blocks a rename (Windows).
func Replace(from, to string) error {
	deadline := time.Now().Add(patience)
	wait := time.Millisecond
	for {
		err := os.Rename(from, to)
		if err == nil || !heldOpen(err) || time.Now().After(deadline) {
			return err
		}
		// A little random, so two waiting writers do not step in time.
		time.Sleep(wait + rand.N(wait))
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// WriteFile writes data to path whole: to a temporary file beside it,
// then Replace. perm applies to a new file, as for os.WriteFile.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = Replace(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}
