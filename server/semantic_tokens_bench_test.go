package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/manuscript/dialogue/dialoguetest"
)

// dialogueChapter is a 5,000-word stretch of Pride and Prejudice from
// the middle of the novel, where its people talk most, as a chapter of a
// book with a codex of its sixteen principal people.
func dialogueChapter(b *testing.B) map[string]string {
	b.Helper()
	files := dialoguetest.CastFiles()
	files["manuscript/01-netherfield.md"] = "# Netherfield\n\n" + dialoguetest.Stretch(dialoguetest.PrideAndPrejudice(b), 5000) + "\n"
	return files
}

// BenchmarkSemanticTokensAfterEdit is the writer's case: after each edit
// of a 5,000-word chapter of dialogue, the editor asks for the tokens
// again, and quire attributes the chapter's speech again, scans its
// names and encodes the tokens. Full answers, then deltas from the
// previous answer; percentiles of the request's latency.
func BenchmarkSemanticTokensAfterEdit(b *testing.B) {
	for _, delta := range []bool{false, true} {
		name := "full"
		if delta {
			name = "delta"
		}
		b.Run(name, func(b *testing.B) {
			c := startServer(b, Options{CacheDir: b.TempDir()})
			files := dialogueChapter(b)
			c.initialize(writeProject(b, files))
			rel := "manuscript/01-netherfield.md"
			uri := c.uri(rel)
			c.open(rel, files[rel])
			doc := protocol.TextDocumentIdentifier{URI: uri}
			var full protocol.SemanticTokens
			for deadline := time.Now().Add(30 * time.Second); len(full.Data) == 0; {
				c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: doc}, &full)
				if time.Now().After(deadline) {
					b.Fatal("no tokens")
				}
			}
			b.ReportMetric(float64(len(full.Data)/5), "tokens")
			prev := full.ResultID
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
					"textDocument": map[string]any{"uri": uri, "version": i + 2},
					"contentChanges": []map[string]any{{
						"range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}},
						"text":  "x",
					}},
				})
				start := time.Now()
				if delta {
					var d protocol.SemanticTokensDelta
					c.call(protocol.MethodSemanticTokensFullDelta, protocol.SemanticTokensDeltaParams{TextDocument: doc, PreviousResultID: prev}, &d)
					prev = d.ResultID
				} else {
					var t protocol.SemanticTokens
					c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: doc}, &t)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			benchtest.ReportLatencies(b, lat)
		})
	}
}

// novelChapters is the whole of Pride and Prejudice cut at paragraphs
// into chapters of about 5,000 words, with its cast.
func novelChapters(b *testing.B) map[string]string {
	b.Helper()
	files := dialoguetest.CastFiles()
	var cur strings.Builder
	words, n := 0, 0
	flush := func() {
		if cur.Len() == 0 {
			return
		}
		n++
		files[fmt.Sprintf("manuscript/%02d-chapter.md", n)] = fmt.Sprintf("# Chapter %d\n\n%s", n, cur.String())
		cur.Reset()
		words = 0
	}
	for _, p := range strings.Split(dialoguetest.PrideAndPrejudice(b), "\n\n") {
		cur.WriteString(p + "\n\n")
		if words += len(strings.Fields(p)); words >= 5000 {
			flush()
		}
	}
	flush()
	return files
}

// BenchmarkSemanticTokensInANovel is BenchmarkSemanticTokensAfterEdit in
// a whole novel (Pride and Prejudice in 5,000-word chapters): every
// request counts the other chapters' votes for the book's narrator,
// which the first reads. first-ms is the first request for a chapter's
// tokens after the book opened.
func BenchmarkSemanticTokensInANovel(b *testing.B) {
	c := startServer(b, Options{CacheDir: b.TempDir()})
	files := novelChapters(b)
	c.initialize(writeProject(b, files))
	rel := "manuscript/01-chapter.md"
	uri := c.uri(rel)
	// The book has opened when a name in the chapter shows its card.
	off := strings.Index(files[rel], "Bennet")
	line := strings.Count(files[rel][:off], "\n")
	char := off - strings.LastIndex(files[rel][:off], "\n") - 1
	require.Eventually(b, func() bool { return c.hoverAt(rel, uint32(line), uint32(char)) != nil }, 30*time.Second, 20*time.Millisecond)
	doc := protocol.TextDocumentIdentifier{URI: uri}
	start := time.Now()
	var full protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: doc}, &full)
	first := time.Since(start)
	if len(full.Data) == 0 {
		b.Fatal("no tokens")
	}
	c.open(rel, files[rel])
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []map[string]any{{
				"range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}},
				"text":  "x",
			}},
		})
		start := time.Now()
		var t protocol.SemanticTokens
		c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: doc}, &t)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
	b.ReportMetric(float64(len(files)), "files")
	benchtest.ReportLatencies(b, lat)
}
