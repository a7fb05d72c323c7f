package main

import (
	"context"
	"os"
	"runtime/debug"
	"time"
)

// How `quire index` has the collector run. A cold index of 10,000 codex
// entries allocates about ten times what it keeps; at Go's default the
// collector runs each time the heap doubles and marked what is live a
// dozen times over, a tenth of the command's CPU. The index instead
// lets the heap grow to four times what is live, under a soft limit of
// indexMemoryFloor or twice the live heap, whichever is more: a book of
// that size collects less often and peaks lower than at the default
// (the limit also bounds the peak), and a far larger one is never held
// tighter than Go's default would hold it. GOGC or GOMEMLIMIT in the
// environment leave the collector as they set it.
const (
	indexGCPercent   = 300
	indexMemoryFloor = 250 << 20
	// indexGCEvery is how often the limit is fitted to the live heap.
	indexGCEvery = 100 * time.Millisecond
)

// tuneIndexGC applies the index's collector settings until ctx ends,
// unless the environment set its own.
func tuneIndexGC(ctx context.Context) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(indexMemoryFloor)
	debug.SetGCPercent(indexGCPercent)
	fitMemoryLimit(ctx, indexGCEvery, indexMemoryLimit)
}

// indexMemoryLimit is the soft limit for a live heap of live bytes.
func indexMemoryLimit(live uint64) int64 {
	l := int64(min(live, 1<<61))
	return max(indexMemoryFloor, 2*l)
}
