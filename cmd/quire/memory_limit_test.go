package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFittedMemoryLimit keeps the server's memory limit at its start for
// a book that fits under it, and at twice the live heap for one that
// does not, so the collector never runs back to back.
func TestFittedMemoryLimit(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, serveMemoryLimit},
		{60 << 20, serveMemoryLimit},
		{80 << 20, serveMemoryLimit},
		{150 << 20, 300 << 20},
		{1 << 62, 1 << 62},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, fittedMemoryLimit(tc.live), "live %d", tc.live)
	}
}
