//go:build race

package main

// reserveStartHeap is false in a build with the race detector: the
// detector shadows every byte the reservation maps, so on a small book
// the reservation cost `quire serve` some 100 MB more resident memory
// and the collection that hands it back stopped the process for 0.35 to
// 0.5 s (GODEBUG=gctrace=1, 2026-12-01), while a start under the
// detector is too slow for its page faults to matter. The tests that
// bound serve's memory and its first second run such a build.
const reserveStartHeap = false
