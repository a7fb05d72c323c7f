package server

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// dialogueChapter is a 5,000-word stretch of Pride and Prejudice (the
// name benchmark's copy), cut at paragraphs from the middle of the novel,
// where its people talk most, with a codex of its sixteen principal
// people.
func dialogueChapter(b *testing.B) map[string]string {
	b.Helper()
	f, err := os.Open("../manuscript/namebench/testdata/pride-and-prejudice.txt.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	text := string(raw)
	start := len(text)/3 + strings.Index(text[len(text)/3:], "\n\n") + 2
	end, words := start, 0
	for i := start; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			words++
		}
		if words >= 5000 && strings.HasPrefix(text[i:], "\n\n") {
			end = i
			break
		}
	}
	files := map[string]string{"manuscript/01-netherfield.md": "# Netherfield\n\n" + text[start:end] + "\n"}
	for i, fm := range []string{
		"name: Elizabeth Bennet\naliases: [Elizabeth, Lizzy, Eliza]\ngender: female",
		"name: Jane Bennet\naliases: [Jane, Miss Bennet]\ngender: female",
		"name: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\ngender: male",
		"name: Charles Bingley\naliases: [Bingley, Mr. Bingley]\ngender: male",
		"name: Mr. Bennet\ngender: male",
		"name: Mrs. Bennet\ngender: female",
		"name: Lydia Bennet\naliases: [Lydia]\ngender: female",
		"name: Kitty Bennet\naliases: [Kitty]\ngender: female",
		"name: Mary Bennet\naliases: [Mary]\ngender: female",
		"name: George Wickham\naliases: [Wickham, Mr. Wickham]\ngender: male",
		"name: William Collins\naliases: [Collins, Mr. Collins]\ngender: male",
		"name: Charlotte Lucas\naliases: [Charlotte]\ngender: female",
		"name: Lady Catherine de Bourgh\naliases: [Lady Catherine]\ngender: female",
		"name: Caroline Bingley\naliases: [Miss Bingley]\ngender: female",
		"name: Mrs. Gardiner\ngender: female",
		"name: Mr. Gardiner\ngender: male",
	} {
		files["codex/characters/c"+string(rune('a'+i))+".md"] = "---\n" + fm + "\n---\n"
	}
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
			reportPercentiles(b, lat)
		})
	}
}
