package export

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/quire-ink/quire/manuscript"
)

// novel is a 120,000-word book: 40 chapters of 3,000 words, with
// dialogue, emphasis, links, comments and scene breaks.
func novel() []*manuscript.Unit {
	para := `"Hold the line," said [[Mara Vell|Mara]], and the *Hesper* came about --- slow, then all at once. The harbor lights went out one by one; nobody on the quay said a **word** about it. <!-- check the tide table -->`
	words := manuscript.CountWords(Prose(para))
	units := make([]*manuscript.Unit, 40)
	for i := range units {
		var sb strings.Builder
		fmt.Fprintf(&sb, "---\ntitle: Chapter %d\npov: Mara\n---\n# Chapter %d\n\n", i+1, i+1)
		for n := 0; n < 3000; n += words {
			sb.WriteString(para + "\n\n")
			if n%600 < words {
				sb.WriteString("* * *\n\n")
			}
		}
		units[i] = manuscript.NewUnit(fmt.Sprintf("manuscript/%02d-chapter.md", i+1), sb.String(), 0)
	}
	return units
}

// BenchmarkBuild120k reads a 120,000-word novel and writes it in each
// format (docs/performance.md has the figures).
func BenchmarkBuild120k(b *testing.B) {
	units := novel()
	for _, f := range Formats() {
		b.Run(string(f), func(b *testing.B) {
			var words, size int
			for b.Loop() {
				book, err := Read(b.Context(), units, ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				if err := Write(&buf, book, Options{Format: f, Preset: DefaultPreset(f), Settings: testSettings()}); err != nil {
					b.Fatal(err)
				}
				words, size = book.Words, buf.Len()
			}
			b.ReportMetric(float64(words), "words")
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
