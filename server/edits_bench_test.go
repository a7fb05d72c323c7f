package server

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// largeChapter is a generated chapter of about size bytes: paragraphs of
// prose that mention the book's names (bookFiles), so its scan finds
// mentions as a real chapter's does.
func largeChapter(size int) string {
	var b strings.Builder
	b.Grow(size + 200)
	b.WriteString("# The Long Tide\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Mara counted the lanterns on pier %d while Ilse Dorn watched the water. "+
			"The Harbor Witch said nothing, and the gulls went on wheeling over the nets.\n\n", i)
	}
	return b.String()
}

// typeAt is the didChange of one keystroke: ch inserted at line, col.
func typeAt(uri protocol.DocumentURI, version int32, line, col uint32, ch string) map[string]any {
	at := protocol.Position{Line: line, Character: col}
	return map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"range": protocol.Range{Start: at, End: at}, "text": ch}},
	}
}

// BenchmarkDidChangeLargeChapter is the cost of one keystroke in a large
// open chapter, as the editor sends them while the writer types: b.N
// didChange notifications, then one hover, which answers only after
// every change was handled and brings the book up to date with them.
func BenchmarkDidChangeLargeChapter(b *testing.B) {
	for _, size := range []int{1 << 20, 11 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			files := map[string]string{}
			for k, v := range bookFiles {
				files[k] = v
			}
			const rel = "manuscript/03-long.md"
			text := largeChapter(size)
			files[rel] = text
			c := startServer(b, Options{})
			c.initialize(writeProject(b, files))
			c.open(rel, text)
			if c.hoverAt(rel, 2, 1) == nil {
				b.Fatal("no hover on Mara")
			}
			uri := c.uri(rel)
			line := uint32(strings.Count(text, "\n") / 2)
			b.ResetTimer()
			for i := range b.N {
				c.notifyServer(protocol.MethodTextDocumentDidChange, typeAt(uri, int32(i+2), line, uint32(i%40), "x"))
			}
			if c.hoverAt(rel, 2, 1) == nil {
				b.Fatal("no hover on Mara after typing")
			}
			b.StopTimer()
			c.shutdown()
		})
	}
}
