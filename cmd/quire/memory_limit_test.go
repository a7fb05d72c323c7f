package main

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFittedMemoryLimit keeps the server's memory limit at its start for
// a book that fits under it, and a quarter above the live heap for one
// that does not, so the collector never runs back to back.
func TestFittedMemoryLimit(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, serveMemoryLimit},
		{60 << 20, serveMemoryLimit},
		{128 << 20, serveMemoryLimit},
		{200 << 20, 250 << 20},
		{1 << 62, 1<<61 + 1<<59},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, fittedMemoryLimit(tc.live), "live %d", tc.live)
	}
}

// TestSettledMemoryLimit: once the start's work is done the limit is
// the runtime's overhead and half above the live heap, down to its
// floor.
func TestSettledMemoryLimit(t *testing.T) {
	tests := []struct {
		live, overhead uint64
		want           int64
	}{
		{0, 0, settledMemoryFloor},
		{60 << 20, 0, settledMemoryFloor},
		{60 << 20, 4 << 20, settledMemoryFloor},
		{60 << 20, 10 << 20, 100 << 20},
		{88 << 20, 0, 132 << 20},
		{88 << 20, 30 << 20, 162 << 20},
		{200 << 20, 10 << 20, 310 << 20},
		{1 << 62, 1 << 62, 1<<61 + 1<<59},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, settledMemoryLimit(tc.live, tc.overhead), "live %d, overhead %d", tc.live, tc.overhead)
	}
}

// TestLimitFit: the start's limit until the start's work is done and a
// collection has measured the heap since.
func TestLimitFit(t *testing.T) {
	const live = 88 << 20
	var f limitFit
	steps := []struct {
		settle bool
		cycles uint64
		want   int64
	}{
		{false, 0, serveMemoryLimit},
		{false, 3, serveMemoryLimit},
		{true, 3, serveMemoryLimit}, // the live heap is the start's
		{false, 3, serveMemoryLimit},
		{false, 4, 140 << 20},
		{true, 9, 140 << 20}, // settled once
	}
	for i, s := range steps {
		if s.settle {
			f.settle(s.cycles)
		}
		assert.Equal(t, s.want, f.limit(live, s.cycles, 8<<20), "step %d", i)
	}
}

// TestLimitFitCold: a start that parses a whole codex is fitted from
// the cold start's limit, up with the live heap; settled, as any other.
func TestLimitFitCold(t *testing.T) {
	var f limitFit
	f.cold.Store(true)
	assert.Equal(t, int64(coldStartMemoryLimit), f.limit(60<<20, 0, 8<<20))
	assert.Equal(t, int64(112<<20+512<<10), f.limit(100<<20, 2, 8<<20), "an eighth above a heap that outgrew it")
	f.settle(2)
	assert.Equal(t, int64(140<<20), f.limit(88<<20, 3, 8<<20), "settled")
}

// TestServeMemoryLimitColdStart: a start told it parses a whole codex
// runs under the cold start's limit from then on, fitted to the live
// heap as the warm one is; told after the start's work is done, it
// changes nothing.
func TestServeMemoryLimitColdStart(t *testing.T) {
	keepMemorySettings(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	started, settled, parsingAll := limitServeMemory(ctx)
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(-1))
	parsingAll()
	assert.Equal(t, int64(coldStartMemoryLimit), debug.SetMemoryLimit(-1), "the cold start's limit, at once")
	time.Sleep(3 * memoryLimitEvery)
	assert.Equal(t, int64(coldStartMemoryLimit), debug.SetMemoryLimit(-1), "fitted to a small heap, it stays")
	started()
	settled()
	require.Eventually(t, func() bool {
		runtime.GC()
		return debug.SetMemoryLimit(-1) == settledMemoryFloor
	}, 20*memoryLimitEvery, memoryLimitEvery/5, "settled as any other start")
	parsingAll()
	time.Sleep(2 * memoryLimitEvery)
	assert.Equal(t, int64(settledMemoryFloor), debug.SetMemoryLimit(-1), "a second call changes nothing")
}

// TestServeMemoryLimitSettlesAfterTheStart runs limitServeMemory in this
// process: the start's limit and no collector but at it, then, once the
// start is said to be over, the collector's own pace, and once its
// background work is said done and a collection has measured the heap,
// a limit fitted down to it.
func TestServeMemoryLimitSettlesAfterTheStart(t *testing.T) {
	percent := keepMemorySettings(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	started, settled, _ := limitServeMemory(ctx)
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(-1), "the start's limit")
	assert.Equal(t, -1, gcPercent(), "through the start the collector runs only at the limit")

	time.Sleep(3 * memoryLimitEvery)
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(-1), "the start's limit, fitted to a small heap")

	started()
	assert.Equal(t, percent, gcPercent(), "the collector's pace after the start")
	time.Sleep(3 * memoryLimitEvery)
	runtime.GC()
	time.Sleep(2 * memoryLimitEvery)
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(-1), "the start's limit while its background work goes on")

	settled()
	require.Eventually(t, func() bool {
		runtime.GC()
		return debug.SetMemoryLimit(-1) == settledMemoryFloor
	}, 20*memoryLimitEvery, memoryLimitEvery/5, "the limit after the start follows the live heap down")
	started()
	settled()
	assert.Equal(t, percent, gcPercent(), "a second call changes nothing")
	assert.Equal(t, int64(settledMemoryFloor), debug.SetMemoryLimit(-1), "a second call changes nothing")
}

// gcPercent reads the collector's percentage without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// keepMemorySettings runs limitServeMemory's test in this process as a
// start with no GOMEMLIMIT or GOGC set, and puts the process's limit and
// collector pace back when the test ends. It returns that pace.
func keepMemorySettings(t *testing.T) int {
	t.Helper()
	for _, name := range []string{"GOMEMLIMIT", "GOGC"} {
		if v, ok := os.LookupEnv(name); ok {
			require.NoError(t, os.Unsetenv(name))
			t.Cleanup(func() { _ = os.Setenv(name, v) })
		}
	}
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
	return percent
}
