// Package linktest makes the symbolic links of quire's tests, and skips
// a test, saying why, on a system that cannot make them: Windows without
// the right to (Developer Mode or an administrator), or Wine 8.0, whose
// CreateSymbolicLinkW reports success and makes nothing.
package linktest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// Symlink makes newname a symbolic link to oldname, as os.Symlink, and
// fails the test when that fails. Where this system makes no links at
// all, it skips the test instead, with the reason.
func Symlink(t testing.TB, oldname, newname string) {
	t.Helper()
	if why := Unsupported(); why != "" {
		t.Skipf("skipped: %s", why)
	}
	if err := os.Symlink(oldname, newname); err != nil {
		t.Fatalf("make link %s -> %s: %v", newname, oldname, err)
	}
}

var probe = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "quire-linkprobe-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		return ""
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		if errors.Is(err, errPrivilegeNotHeld) {
			return "this Windows account may not make symbolic links (turn on Developer Mode to run these cases)"
		}
		return fmt.Sprintf("this system makes no symbolic links (%v)", err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		return "os.Symlink reports success here but makes no link (as Wine 8.0 does)"
	}
	if data, err := os.ReadFile(link); err != nil || string(data) != "x" {
		return "a symbolic link made here does not lead to its target"
	}
	return ""
})

// Unsupported is why this system makes no symbolic links, or "" when it
// does; the probe runs once per test binary.
func Unsupported() string { return probe() }

// errPrivilegeNotHeld is Windows' ERROR_PRIVILEGE_NOT_HELD.
const errPrivilegeNotHeld = syscall.Errno(1314)
