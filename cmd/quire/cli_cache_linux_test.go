package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/stretchr/testify/assert"
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

// The repro: a 256 KB disk as the user cache and `quire index`
// on 5,000 entries panicked with exit 2 (issue 14, item 2).
func TestIndexOnAFullCacheDisk(t *testing.T) {
	disk := smallDisk(t, "256k", false)
	c, err := corpus.Generate(context.Background(), filepath.Join(t.TempDir(), "book"),
		corpus.Options{Entries: 5000, Chapters: 1, ChapterWords: 50})
	require.NoError(t, err)

	stdout, stderr, code := runWithCache(t, disk, "index", "--project", c.Root)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, "Indexed 5000 codex entries")
	assert.Contains(t, stdout, "Index: in memory")
	requireMemoryWarning(t, stderr, "is on a full disk")

	name := c.Entries[0].Name
	stdout, stderr, code = runWithCache(t, disk, "lookup", "--project", c.Root, name)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, name)
	requireMemoryWarning(t, stderr, "is on a full disk")
}

// A read-only cache disk (issue 14, item 11).
func TestCommandsWorkOnAReadOnlyCacheDisk(t *testing.T) {
	disk := smallDisk(t, "1m", true)
	book, _ := sampleProject(t)
	requireCommandsWorkInMemory(t, book, disk, "is on a read-only disk", "Teodora Quill")
}

// explicate keeps the manuscript's paragraphs in the same cache: a codex
// that fits the disk and chapters that do not made bleve panic in the
// passage index's workers. Now explicate answers from memory and warns.
func TestExplicateOnAFullCacheDisk(t *testing.T) {
	disk := smallDisk(t, "1m", false)
	c, err := corpus.Generate(context.Background(), filepath.Join(t.TempDir(), "book"),
		corpus.Options{Entries: 50, Chapters: 150})
	require.NoError(t, err)

	stdout, stderr, code := runWithCache(t, disk, "explicate", "--project", c.Root, "the tide lamp by the harbor")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, "manuscript/")
	assert.NotContains(t, stderr, "panic")
	assert.Contains(t, stderr, "quire: warning: quire's manuscript index could not be saved")
	assert.Contains(t, stderr, "keeps it in memory")
}
