package manuscript_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quire-ink/quire/manuscript"
)

// FuzzParagraphs checks what Paragraphs promises for any text at all:
// it returns, never panics, and its ranges lie in the body, in order,
// apart, trimmed, on character boundaries and within the size bound.
func FuzzParagraphs(f *testing.F) {
	for _, seed := range []string{
		"",
		"---\ntitle: T\n---\n# One\n\nWords here.\n\n## Two\nMore words.",
		"a\n```\nb\n<!--\n```\nc -->d\n~~~\n",
		"x <!-- y\n\n--> z\r\n\r\n* * *\r\nw",
		"Setext\n===\n\ntext\n---\n",
		"<!--",
		"-->\n<!-- a --><!-- b -->c",
		strings.Repeat("é", 1500) + ". " + strings.Repeat("word ", 500),
		"\u00a0\u2028x\u2029\u00a0",
		"> > > - [ ] nested\n>    ```\n>    code",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		u := manuscript.NewUnit("manuscript/01-fuzz.md", text, 0)
		prev := u.Body.Start
		for i, p := range manuscript.Paragraphs(u) {
			r := p.Range
			if r.Start < prev || r.End <= r.Start || r.End > u.Body.End {
				t.Fatalf("paragraph %d range %v out of order or bounds (previous end %d, body %v)", i, r, prev, u.Body)
			}
			if !utf8.RuneStart(u.Text[r.Start]) || r.End < len(u.Text) && !utf8.RuneStart(u.Text[r.End]) {
				t.Fatalf("paragraph %d range %v splits a character", i, r)
			}
			if r.Len() > manuscript.MaxParagraphBytes {
				t.Fatalf("paragraph %d is %d bytes", i, r.Len())
			}
			src := u.Text[r.Start:r.End]
			if strings.TrimSpace(src) != src {
				t.Fatalf("paragraph %d range %v not trimmed", i, r)
			}
			if manuscript.CountWords(p.Text) == 0 {
				t.Fatalf("paragraph %d has no words", i)
			}
			if len(p.Text) > r.Len() {
				t.Fatalf("paragraph %d text longer than its range", i)
			}
			prev = r.End
		}
	})
}
