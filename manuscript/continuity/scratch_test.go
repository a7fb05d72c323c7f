package continuity

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// The checks lend their word and mention buffers from a pool: a check
// must find what it finds whatever the check before it read (longer,
// shorter, with code spans), and checks running side by side must not
// share a buffer.
func TestCheckScratchIsNotShared(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	long := strings.Repeat("Séverine's dark brown eyes were wet. \"Go,\" said Jory. It was okay, all of a sudden. ", 300)
	texts := []string{
		"Séverine's dark brown eyes were wet. \"Go,\" said Jory.",
		long,
		"It was okay. The saltdebt came due on the 13th.",
		"Séverine wrote `said Jory` twice, then Jory climbed the stair.",
		"",
		"# A heading\n\nMarek looked into Séverine's brown eyes.\n",
		"---\ntitle: Day\nday: 9\n---\nJory stood at the rail, brown-eyed Séverine beside him.\n",
	}
	pooled := func(text string) []Diagnostic {
		return Check(tl, manuscript.NewUnit("manuscript/03-test.md", text, 1))
	}
	// What each text gives with buffers of its own.
	want := make([][]Diagnostic, len(texts))
	for i, text := range texts {
		want[i] = check(tl, manuscript.NewUnit("manuscript/03-test.md", text, 1), new(scratch))
	}
	require.NotEmpty(t, want[0])
	require.Greater(t, len(want[1]), MaxDiagnostics, "the long text reaches the caps")

	t.Run("in turn", func(t *testing.T) {
		for round := range 3 {
			for i := range texts {
				// Forwards, then backwards: each text after a longer and
				// after a shorter one.
				if round == 1 {
					i = len(texts) - 1 - i
				}
				assert.Equal(t, want[i], pooled(texts[i]), "text %d, round %d", i, round)
			}
		}
	})
	t.Run("kept by the caller", func(t *testing.T) {
		var kept Scratch
		for round := range 2 {
			for i := range texts {
				if round == 1 {
					i = len(texts) - 1 - i
				}
				got := kept.Check(tl, manuscript.NewUnit("manuscript/03-test.md", texts[i], 1))
				assert.Equal(t, want[i], got, "text %d, round %d", i, round)
				assert.Empty(t, kept.s.prose.text, "a kept scratch holds no text")
			}
		}
	})
	t.Run("side by side", func(t *testing.T) {
		var wg sync.WaitGroup
		got := make([][][]Diagnostic, 8)
		for g := range got {
			wg.Go(func() {
				for k := range 20 {
					got[g] = append(got[g], pooled(texts[(g+k)%len(texts)]))
				}
			})
		}
		wg.Wait()
		for g := range got {
			for k, d := range got[g] {
				assert.Equal(t, want[(g+k)%len(texts)], d, "goroutine %d, check %d", g, k)
			}
		}
	})
}
