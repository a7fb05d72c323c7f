//go:build !linux

package codex

// newSourceArena has no mapped file to offer here: the texts go to the
// heap. (macOS has no call that reserves a file's blocks before it is
// mapped, and Windows cannot unlink a mapped file.)
func newSourceArena(dir string, size int64) *sourceArena { return nil }

// releaseMapping leaves the pages to the system.
func releaseMapping(data []byte) {}
