package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// serveMemoryLimit is the soft memory limit `quire serve` starts under
// unless GOMEMLIMIT says otherwise. A language server lives beside the
// editor for hours; Go's default lets the heap grow to twice what is
// live before collecting, and at 10,000 codex entries and a million
// words that is about 100 MB live, 250 MB at its peak. Under this limit
// the collector runs sooner instead. GOMEMLIMIT=off lifts it.
const serveMemoryLimit = 160 << 20

// coldStartMemoryLimit is the limit a start that parses a whole codex
// (a book's first opening: server.Options.ParsingAll) runs under instead
// of serveMemoryLimit. Such a start keeps less live than a warm one of
// the same book, for the entries' texts are out of the heap
// (codex/source_arena.go), and it has no first card under 100 ms to
// keep; its search index's build, which allocates some 560 MB at
// 10,000 entries, would otherwise fill the 160 MiB. Under it the cold
// start at 10,000 entries and 200 chapters peaked at 147.5 MB (median of
// three) rather than 194-196 MB, its search index ready after 5.5 s
// rather than 3.7-4.7 s, its first card no later (docs/performance.md).
const coldStartMemoryLimit = 100 << 20

// settledMemoryFloor is the least the limit comes down to once the
// start's work is done (settledMemoryLimit): a book that keeps less than
// 48 MiB live is held no tighter than by Go's default.
const settledMemoryFloor = 96 << 20

// memoryLimitEvery is how often the limit is fitted to the live heap:
// often enough that a heap growing through background work (a cold
// start's search index) raises the limit before the collector has run
// many times against it.
const memoryLimitEvery = 250 * time.Millisecond

// startCollectorAfter bounds how long the collector waits for the
// start to end (limitServeMemory) should a book never finish loading.
const startCollectorAfter = 20 * time.Second

// limitServeMemory applies serveMemoryLimit unless the environment set a
// limit of its own, and fits the limit to the live heap until ctx ends.
//
// Until started is called (the server's start is over:
// server.Options.Started) the collector runs only at the limit: a warm
// start builds some 100 MB of catalog and chapter records in a few
// hundred milliseconds, and collecting at each doubling on the way took
// a fifth of its CPU, ahead of the writer's first hover. The limit still
// holds the heap; the collector's usual pace resumes once the start is
// over, or after startCollectorAfter.
//
// Until settled is called (server.Options.Settled: a cold start's search
// index is built too) the limit is serveMemoryLimit, or the live heap
// and a quarter when that is more (fittedMemoryLimit). From then on it
// follows the live heap down as well (settledMemoryLimit): at 10,000
// entries some 90 MB stay live, and under a fixed 160 MiB the heap
// filled it for the whole session. Held that tight while the search
// index was built, the build took twice as long. A fixed limit below
// what a book keeps live would have the collector run back to back,
// taking up to half the CPU from every keystroke.
//
// parsingAll, called when a book's codex opens with no saved state,
// lowers the starting limit to coldStartMemoryLimit.
func limitServeMemory(ctx context.Context) (started, settled, parsingAll func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return func() {}, func() {}, func() {}
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
	var fit limitFit
	fitMemoryLimit(ctx, memoryLimitEvery, func(live uint64) int64 {
		cycles, overhead := runtimeState()
		return fit.limit(live, cycles, overhead)
	})
	parsingAll = func() {
		if fit.cold.CompareAndSwap(false, true) && fit.mark.Load() == 0 {
			debug.SetMemoryLimit(coldStartMemoryLimit)
		}
	}
	var settleOnce sync.Once
	return started, func() {
		settleOnce.Do(func() {
			cycles, _ := runtimeState()
			fit.settle(cycles)
			// The start's garbage collected and its memory given back
			// at once, rather than when the writer's next edits have
			// the collector run: the collection also measures the heap
			// the settled limit is fitted to.
			go debug.FreeOSMemory()
		})
	}, parsingAll
}

// limitFit chooses the limit for the live heap as `quire serve` goes:
// fittedMemoryLimit until the start's work is done, settledMemoryLimit
// after.
//
// The live heap is what the last collection found; after a start that
// ran none it is far below what the start built, and a limit fitted to
// it had the collector run back to back (a warm start's search came 60%
// later). So the limit comes down only once a collection has ended
// since the start's work was done.
type limitFit struct {
	// mark is one more than the count of collections ended when the
	// start's work was done; 0 before.
	mark atomic.Uint64
	// cold says the start parses a whole codex: its limit starts from
	// coldStartMemoryLimit.
	cold atomic.Bool
}

// settle says the start's work is done, after cycles collections.
func (f *limitFit) settle(cycles uint64) { f.mark.CompareAndSwap(0, cycles+1) }

// limit is the limit for live bytes after cycles collections, with
// overhead bytes the runtime holds besides its objects.
func (f *limitFit) limit(live, cycles, overhead uint64) int64 {
	if mark := f.mark.Load(); mark == 0 || cycles < mark {
		if f.cold.Load() {
			return coldFittedMemoryLimit(live)
		}
		return fittedMemoryLimit(live)
	}
	return settledMemoryLimit(live, overhead)
}

// runtimeState reads how many collections have ended, and the memory
// the runtime holds besides its heap's objects and the free pages it
// may give back: goroutine stacks, its own records, and the unused room
// in spans that hold objects (what a start's many short-lived
// allocations leave among the records it keeps).
func runtimeState() (cycles, overhead uint64) {
	s := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	held := v[2] + v[3] + v[4]
	if v[1] > held {
		overhead = v[1] - held
	}
	return v[0], overhead
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

// fittedMemoryLimit is the limit through the start for a live heap of
// live bytes: the starting limit, or the live heap and a quarter when
// that is more.
func fittedMemoryLimit(live uint64) int64 { return fitAbove(serveMemoryLimit, live, 4) }

// coldFittedMemoryLimit is fittedMemoryLimit for a start that parses a
// whole codex: coldStartMemoryLimit, or the live heap and an eighth. With
// a quarter the cold start at 10,000 entries held 97-106 MB of its own
// at its peak, its search index's build taking the live heap past 84 MB
// for a while; with an eighth, 97-99 MB (three runs each).
func coldFittedMemoryLimit(live uint64) int64 { return fitAbove(coldStartMemoryLimit, live, 8) }

// fitAbove is start, or the live heap and a part of it (1/part) when that
// is more.
func fitAbove(start int64, live uint64, part int64) int64 {
	l := int64(min(live, 1<<61))
	return max(start, l+l/part)
}

// settledMemoryLimit is the limit once the start's work is done: the
// runtime's overhead, the live heap and half as much again, or
// settledMemoryFloor when that is more. The limit counts all the
// runtime's memory: fitted to the live heap alone, the room left for
// new objects after a cold start (whose build leaves more unused room
// in its spans) was so small that typing took three times the CPU. A
// quarter above the live heap had the collector take 60% more CPU
// through 600 edits at 10,000 entries; half above took none more than
// before.
func settledMemoryLimit(live, overhead uint64) int64 {
	l := int64(min(live, 1<<60))
	return max(settledMemoryFloor, int64(min(overhead, 1<<60))+l+l/2)
}
