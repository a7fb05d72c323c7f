package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/stretchr/testify/require"
)

// smallDisk mounts a tmpfs of size (as mount's size= takes it) on a new
// temporary folder, read-only when ro. Mounting needs root and a kernel
// or container that allows it; without them the test is skipped and
// says why, unless QUIRE_REQUIRE_MOUNT is set, where it fails.
func smallDisk(t *testing.T, size string, ro bool) string {
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

// A book too large for the cache disk used to crash the server inside
// bleve (issue 14, item 2); now it opens from memory and says so.
func TestBookWorksOnAFullCacheDisk(t *testing.T) {
	disk := smallDisk(t, "256k", false)
	root := filepath.Join(t.TempDir(), "book")
	_, err := corpus.Generate(context.Background(), root, corpus.Options{Entries: 2000, Chapters: 1, ChapterWords: 50})
	require.NoError(t, err)
	for rel, text := range bookFiles {
		writeFileAt(t, root, rel, text)
	}
	c := startServer(t, Options{CacheDir: disk})
	c.initialize(root)

	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	requireSearchFinds(t, c, "harbormistress", "Ilse Dorn")
	requireToldInMemory(t, c, "is on a full disk")
}

// A read-only cache disk (issue 14, item 11).
func TestBookWorksOnAReadOnlyCacheDisk(t *testing.T) {
	disk := smallDisk(t, "1m", true)
	c := startServer(t, Options{CacheDir: disk})
	c.initialize(writeProject(t, bookFiles))

	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	requireSearchFinds(t, c, "harbormistress", "Ilse Dorn")
	requireToldInMemory(t, c, "is on a read-only disk")
}
