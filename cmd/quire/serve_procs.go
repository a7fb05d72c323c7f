package main

import (
	"os"
	"runtime"
)

// serveProcs gives `quire serve` one processor more than Go's own count
// (GOMAXPROCS: the machine's cores, or its container's share), unless
// the environment sets GOMAXPROCS, and returns how many it runs with.
//
// Why: the server's background work is CPU-bound for tens of
// milliseconds at a time, on every core (after a book opens: the first
// diagnostics of the open chapter count the untracked names over the
// whole book on each core, while the check behind the first answers
// hashes the chapters and the collector marks). A request read
// meanwhile waits for a processor, and Go takes one from a running
// goroutine only after 10 ms. With one processor more than cores the
// kernel shares them out instead, in slices of a few milliseconds.
// Measured on the 2-core development machine (docs/performance.md,
// 2026-12-03): hovers from the first card at 1,000 entries, the slowest
// of 3,000 took 9.4 and 4.9 ms against 20.0 and 10.9 ms, and the warm
// first card of the 4M-word series came no later (median of nine starts,
// four rounds: 88-112 ms against 97-127 ms). Two more (4 on 2 cores)
// made the warm card slower again.
func serveProcs() int {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return runtime.GOMAXPROCS(0)
	}
	n := runtime.GOMAXPROCS(0) + 1
	runtime.GOMAXPROCS(n)
	return n
}
