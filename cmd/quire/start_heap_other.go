//go:build !linux || !(amd64 || arm64)

package main

// prepareStartHeap does nothing here: transparent huge pages are
// Linux's (start_heap_linux.go), and a 32-bit heap has no room for the
// reservation.
func prepareStartHeap() (from, to uintptr) { return 0, 0 }
