package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// serveMemoryLimit is the soft memory limit `quire serve` starts under
// unless GOMEMLIMIT says otherwise. A language server lives beside the
// editor for hours; Go's default lets the heap grow to twice what is
// live before collecting, and at 10,000 codex entries and a million
// words that is about 100 MB live, 250 MB at its peak. Under this limit
// the collector runs sooner instead. GOMEMLIMIT=off lifts it.
const serveMemoryLimit = 160 << 20

// memoryLimitEvery is how often the limit is fitted to the live heap.
const memoryLimitEvery = 2 * time.Second

// startCollectorAfter bounds how long the collector waits for the
// start to end (limitServeMemory) should a book never finish loading.
const startCollectorAfter = 20 * time.Second

// limitServeMemory applies serveMemoryLimit unless the environment set a
// limit of its own, and keeps it a quarter above the live heap until ctx
// ends.
//
// Until the returned func is called (the server's start is over:
// server.Options.Started) the collector runs only at the limit: a warm
// start builds some 100 MB of catalog and chapter records in a few
// hundred milliseconds, and collecting at each doubling on the way took
// a fifth of its CPU, ahead of the writer's first hover. The limit still
// holds the heap; the collector's usual pace resumes once the start is
// over, or after startCollectorAfter. A fixed limit below what a large book (a series of several
// million words) keeps live would have the collector run back to back,
// taking up to half the CPU from every keystroke; a quarter of headroom
// has it run about four times as often as Go's default instead, and a
// book that fits under the starting limit is not affected.
func limitServeMemory(ctx context.Context) (started func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return func() {}
	}
	debug.SetMemoryLimit(serveMemoryLimit)
	started = func() {}
	if _, set := os.LookupEnv("GOGC"); !set {
		percent := debug.SetGCPercent(-1)
		var once sync.Once
		t := time.AfterFunc(startCollectorAfter, func() { once.Do(func() { debug.SetGCPercent(percent) }) })
		started = func() {
			t.Stop()
			once.Do(func() { debug.SetGCPercent(percent) })
		}
	}
	fitMemoryLimit(ctx, memoryLimitEvery, fittedMemoryLimit)
	return started
}

// fitMemoryLimit sets the soft memory limit to limit(live heap) every
// period until ctx ends: a limit that follows what the process keeps.
func fitMemoryLimit(ctx context.Context, every time.Duration, limit func(live uint64) int64) {
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			debug.SetMemoryLimit(limit(sample[0].Value.Uint64()))
		}
	}()
}

// fittedMemoryLimit is the limit for a live heap of live bytes: the
// starting limit, or the live heap and a quarter when that is more.
func fittedMemoryLimit(live uint64) int64 {
	l := int64(min(live, 1<<61))
	return max(serveMemoryLimit, l+l/4)
}
