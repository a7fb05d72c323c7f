package manuscript

import (
	"fmt"
	"strings"
	"testing"
)

// benchChapter is a chapter of about words words, with the markup the
// counting rule skips: front matter, headings, a comment, wiki links
// with and without labels, a link and emphasis.
func benchChapter(words int) string {
	var b strings.Builder
	b.WriteString("---\ntitle: The Long Tide\npov: Mara Vell\ntarget: 5000\n---\n# The Long Tide\n\n<!-- second draft: tighten the opening -->\n\n")
	for i := 0; CountWords(b.String()) < words-40; i++ {
		fmt.Fprintf(&b, "Mara counted the lanterns on pier %d while [[Ilse Dorn|Ilse]] watched the water—nobody spoke. "+
			"The *Harbor Witch* said nothing of [[Port Caddow]], and the gulls went on wheeling over the well-mended nets "+
			"([the tide table](tides.md) said 1,200 fathoms).\n\n", i)
	}
	return b.String()
}

// BenchmarkCountWords is the cost of counting a 5,000-word chapter, as
// quire does each time the manuscript takes a new text of it.
func BenchmarkCountWords(b *testing.B) {
	text := benchChapter(5000)
	body := NewUnit("c.md", text, 0).BodyText()
	b.Run("CountWords", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			CountWords(body)
		}
		b.ReportMetric(float64(CountWords(body)), "words")
	})
	b.Run("ChapterWords", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			ChapterWords(text)
		}
	})
}
