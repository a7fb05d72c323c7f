package disktest

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size (as mount's size= takes it) on a new
// temporary folder, read-only when ro. Mounting needs root and a kernel
// or container that allows it; without them the test is skipped and
// says why, unless QUIRE_REQUIRE_MOUNT is set (make test sets it), where
// it fails.
func SmallDisk(t testing.TB, size string, ro bool) string {
	t.Helper()
	cannot := func(why string) {
		t.Helper()
		if os.Getenv("QUIRE_REQUIRE_MOUNT") != "" {
			t.Fatalf("QUIRE_REQUIRE_MOUNT is set but %s", why)
		}
		t.Skipf("skipped: %s; run the tests as root where mount works to fill a real disk", why)
	}
	if os.Geteuid() != 0 {
		cannot("mounting a small disk needs root")
	}
	dir := t.TempDir()
	var flags uintptr
	if ro {
		flags = syscall.MS_RDONLY
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, "size="+size); err != nil {
		cannot(fmt.Sprintf("this machine refuses to mount a tmpfs (%v)", err))
	}
	// Runs before TempDir's own clean-up, which then removes the folder.
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}
