package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
