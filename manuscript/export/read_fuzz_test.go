package export

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// FuzzBuild reads any chapter text and writes it in every format: no
// panic, well-formed XML in the containers, and text that holds no
// comment opener.
func FuzzBuild(f *testing.F) {
	for _, seed := range []string{
		"---\ntitle: T\n---\n# T\n\nA *b* **c** [[D|e]] <!-- f -->\n\n***\n\n> q\n\n1. x\n- y\n",
		"<!-- open", "[[", "***a**b*c_d_", "> > > > - - - 1. a", "```\ncode\n```\n", "a  \nb\\\nc", "&#0; &bogus; \x00\x01",
		strings.Repeat("*a ", 500), strings.Repeat("[", 300) + strings.Repeat("]", 300),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := Read(t.Context(), []*manuscript.Unit{manuscript.NewUnit("manuscript/01-a.md", text, 0)}, ReadOptions{})
		require.NoError(t, err)
		for _, bl := range b.Chapters[0].Blocks {
			assert.NotContains(t, bl.Text(), "<!--")
		}
		for _, format := range Formats() {
			var buf bytes.Buffer
			require.NoError(t, Write(&buf, b, Options{Format: format, Preset: Manuscript, Settings: testSettings()}))
			if format == DOCX || format == EPUB {
				parts(t, buf.Bytes())
			}
		}
	})
}

// TestReadIsLinear reads hostile paragraphs (open emphasis, brackets,
// nesting) eight times as long and expects well under the time a
// quadratic reader would take.
func TestReadIsLinear(t *testing.T) {
	for _, unit := range []string{"*a _b ", "[", "> - ", "**x* ", "<!-- -- "} {
		short := timeRead(t, strings.Repeat(unit, 5_000))
		long := timeRead(t, strings.Repeat(unit, 40_000))
		// 8× the text; a quadratic reader takes 64×. Allow noise on a
		// shared machine.
		assert.Less(t, long, 30*short+50*time.Millisecond, "%q: %v then %v", unit, short, long)
	}
}

// timeRead is how long one read of text takes: the fastest of three
// batches, each of as many reads as fill 20 ms, divided by their number.
// One read alone may meet a collection or the machine's other work (under
// Wine in CI, a read of "[" × 40,000 took 84 ms once where it takes 18),
// and Windows' clock, read under Wine, can read a short one as no time at
// all, which left the long read nothing to be measured against.
func timeRead(t *testing.T, text string) time.Duration {
	t.Helper()
	u := manuscript.NewUnit("manuscript/01-a.md", text, 0)
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		for n := 1; ; n++ {
			ReadChapter(u, ReadOptions{})
			if took := time.Since(start); took >= 20*time.Millisecond || n == 1000 {
				best = min(best, took/time.Duration(n))
				break
			}
		}
	}
	return best
}
