//go:build linux

package codex

import (
	"os"
	"syscall"
)

// newSourceArena maps a file of size bytes in dir, its blocks reserved
// on disk first so that writing into the mapping never meets a full
// disk (which a mapping reports as a fault, not an error). The file is
// unlinked at once: nothing else can reach it, and its blocks are freed
// when the process ends. Nil when any step fails: the texts then go to
// the heap.
func newSourceArena(dir string, size int64) *sourceArena {
	if dir == "" || size < minArenaBytes || size != int64(int(size)) {
		return nil
	}
	f, err := os.CreateTemp(dir, "sources.*")
	if err != nil {
		return nil
	}
	defer f.Close()
	_ = os.Remove(f.Name())
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, size); err != nil {
		return nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return &sourceArena{data: data}
}

// releaseMapping drops a shared file mapping's pages from the process:
// they stay in the system's cache (written back to the file first where
// changed), and a later read maps them again. The resident memory the
// process is charged for is then what it reads, not all it once read.
func releaseMapping(data []byte) {
	if len(data) > 0 {
		_ = syscall.Madvise(data, syscall.MADV_DONTNEED)
	}
}
