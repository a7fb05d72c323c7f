package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

func TestIsKnownName(t *testing.T) {
	tests := []struct {
		word string
		want bool
	}{
		{"Charles", true},
		{"Julia", true},
		{"Rome", true},
		{"Wales", true},
		{"Madison", true},
		{"Sevrine", false}, // no name, a slip of one
		{"Bingly", false},
		{"charles", true}, // normalized, the case folded
		{"walk", false},   // an everyday word
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsKnownName(codex.Normalize(tt.word)), tt.word)
	}
}
