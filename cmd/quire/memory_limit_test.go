package main

import (
	"context"
	"os"
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

// gcPercent reads the collector's percent without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// The collector stays at the memory limit through the start and for a
// moment after it, so that its first cycles do not take a core from the
// writer's first hovers; then its usual pace resumes.
func TestCollectorResumesAfterTheStart(t *testing.T) {
	for _, v := range []string{"GOMEMLIMIT", "GOGC"} {
		if old, set := os.LookupEnv(v); set {
			require.NoError(t, os.Unsetenv(v))
			t.Cleanup(func() { os.Setenv(v, old) })
		}
	}
	before, limit := gcPercent(), debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(before)
		debug.SetMemoryLimit(limit)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	started := limitServeMemory(ctx)
	assert.Equal(t, -1, gcPercent(), "the collector runs only at the limit while the book opens")
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(-1))
	started()
	assert.Equal(t, -1, gcPercent(), "nor right after the start")
	require.Eventually(t, func() bool { return gcPercent() == before }, 10*time.Second, 20*time.Millisecond, "its usual pace resumes")
}
