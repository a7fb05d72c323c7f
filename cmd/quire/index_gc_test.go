package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIndexMemoryLimit(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, indexMemoryFloor},
		{100 << 20, indexMemoryFloor},
		{125 << 20, indexMemoryFloor},
		{400 << 20, 800 << 20},
		{1 << 63, 1 << 62},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, indexMemoryLimit(tt.live), "live %d", tt.live)
	}
}
