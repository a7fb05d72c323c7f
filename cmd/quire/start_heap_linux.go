//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"runtime/debug"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// startHeap is how much heap prepareStartHeap maps and advises: about
// what a warm start of the 4M-word series (10,000 codex entries, 800
// chapters) fills, a little more than it keeps live.
const startHeap = 192 << 20

// hugePage is the size of a transparent huge page on these systems (a
// PMD of 4 KiB pages); the advice is given over whole ones.
const hugePage = 2 << 20

// prepareStartHeap maps the heap a start is about to fill and asks
// Linux to back it with transparent huge pages, and reports the range
// it advised (none when it gave no advice).
//
// Why: a warm start of a large book fills some 150 MB of heap in about
// a hundred milliseconds, and the kernel faults each 4 KiB page in on
// its first touch: on the development machine those faults were a
// third of the start's CPU before the first hover could be answered
// (perf, 2026-11-30). Where huge pages are given only on request
// ("madvise", the default of Ubuntu and of many virtual machines), the
// Go runtime never asks for them; a 2 MiB page is one fault instead of
// 512. Where they are always on the advice changes nothing; where they
// are never on, nothing either.
//
// How: the runtime maps its heap piece by piece as it grows, and a
// piece mapped anew does not inherit advice, so the heap is grown once,
// now, by an allocation that is never touched; the pages it spanned are
// advised, then handed back (debug.FreeOSMemory: collected, and
// released to the system, which keeps the advice on the mapping). The
// start's own allocations then fill those pages. An untouched page
// costs no memory; huge pages hold some memory a fragmented heap would
// have left unbacked (some 4 to 11 MB more at the peak, measured).
//
// GODEBUG=disablethp=1, the runtime's own switch against huge pages,
// turns this off too, and so does a limit on the process's address
// space (ulimit -v) too small to spare the reservation: failing to map
// it would end the process.
func prepareStartHeap() (from, to uintptr) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return 0, 0
	}
	var as unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &as); err != nil || !roomForStartHeap(as.Cur) {
		return 0, 0
	}
	b := make([]byte, startHeap)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from = (start + hugePage - 1) &^ (hugePage - 1)
	to = (start + startHeap) &^ (hugePage - 1)
	// A kernel built without transparent huge pages refuses the advice:
	// none was given.
	advised := unix.Madvise(b[from-start:to-start], unix.MADV_HUGEPAGE) == nil
	b = nil
	debug.FreeOSMemory()
	if !advised {
		return 0, 0
	}
	return from, to
}

// roomForStartHeap reports whether an address space limit of limit
// bytes (RLIMIT_AS) leaves room to map the start's heap beside what the
// process maps anyway, with a wide margin: the runtime reserves address
// space freely, and the reservation is only worth making where it can
// never be what runs out.
func roomForStartHeap(limit uint64) bool {
	return limit == unix.RLIM_INFINITY || limit >= 16<<30
}
