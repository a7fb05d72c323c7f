package main

import (
	"os"
	"runtime/debug"
)

// serveMemoryLimit is the soft memory limit `quire serve` runs under
// unless GOMEMLIMIT says otherwise. A language server lives beside the
// editor for hours; Go's default lets the heap grow to twice what is
// live before collecting, and at 10,000 codex entries and a million
// words that is about 100 MB live, 250 MB at its peak. Under this limit
// the collector runs sooner instead. It is soft: a book whose live data
// outgrows it keeps working, the collector working harder (at most half
// the CPU, as the runtime caps it), and GOMEMLIMIT=off lifts it.
const serveMemoryLimit = 160 << 20

// limitServeMemory applies serveMemoryLimit unless the environment set a
// limit of its own.
func limitServeMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(serveMemoryLimit)
}
