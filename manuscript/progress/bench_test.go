package progress

import (
	"fmt"
	"testing"
)

// BenchmarkObserve is what the server adds to an edit for the history: a
// sight of a 200-chapter book, one chapter's count changed, in memory
// (the file is written later, in the background).
func BenchmarkObserve(b *testing.B) {
	s := New(Options{})
	counts := make(map[string]int, 200)
	for i := range 200 {
		counts[fmt.Sprintf("manuscript/%03d.md", i)] = 5500
	}
	i := 0
	for b.Loop() {
		i++
		counts["manuscript/100.md"] = 5500 + i%50
		s.Observe(counts)
	}
}
