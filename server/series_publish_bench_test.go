package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/server/textdoc"
)

// brokenSeriesFiles is how many series files the publishing benchmark
// gives a link to no entry.
const brokenSeriesFiles = 100

// BenchmarkSeriesSaveToDiagnostics measures what one saved series file
// costs the server, at scale: the 10,000-entry series and its two books
// of 200 chapters (the corpus BenchmarkSeries writes, copied, since 100
// of its series files are given a link to no entry), both books open
// and trusted in one session over a JSON-RPC pipe. b.N times, one of
// the broken series files is written on disk with another broken link,
// and it reports the time from the write to the publishDiagnostics that
// shows the new link (the watcher's debounce included), the time and
// CPU (user + system, of this process: server and client) until the
// server falls quiet again, and how many publishDiagnostics that wave
// sends. Then, b.N times, an edit of that series file open in the
// editor, to the publication of its version (the diagnostics' debounce
// subtracted):
//
//	go test -run '^$' -bench BenchmarkSeriesSaveToDiagnostics -benchtime 5x -timeout 30m ./server/
//
// The corpus must exist: run BenchmarkSeries (cmd/quire) once, or
// `quire gen-corpus --books 2` into the cache folder it names.
func BenchmarkSeriesSaveToDiagnostics(b *testing.B) {
	c, broken := seriesPublishSession(b)
	settle(b)
	quiet(c, time.Second)

	var saves, waves, cpus []time.Duration
	var notes []int
	b.ResetTimer()
	for i := range b.N {
		path := broken[i%len(broken)]
		uri := textdoc.PathURI(path)
		link := fmt.Sprintf("Nobody Saved %d", i)
		before, cpu := c.sentCount(protocol.MethodTextDocumentPublishDiagnostics), cpuTime()
		start := time.Now()
		writeBrokenLink(b, path, link)
		c.waitDiagnostics(uri, "the saved series file's new link", func(ds []protocol.Diagnostic) bool {
			return slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return strings.Contains(d.Message, link) })
		})
		saves = append(saves, time.Since(start))
		last := quiet(c, time.Second)
		waves = append(waves, last.Sub(start))
		cpus = append(cpus, cpuTime()-cpu)
		notes = append(notes, c.sentCount(protocol.MethodTextDocumentPublishDiagnostics)-before)
	}
	b.StopTimer()

	// The same file open in the editor, edited and not saved.
	path := broken[0]
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	uri := textdoc.PathURI(path)
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: string(data)},
	})
	quiet(c, time.Second)
	var edits []time.Duration
	line := uint32(strings.Count(string(data), "\n"))
	for i := range max(b.N, 5) {
		version := int32(i + 2)
		start := time.Now()
		c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{
				"range": protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}},
				"text":  fmt.Sprintf("See [[Nobody Typed %d]].\n", i),
			}},
		})
		for {
			if p, ok := c.latestDiagnostics(uri); ok && p.Version == uint32(version) {
				break
			}
			select {
			case <-c.notify:
			case <-time.After(10 * time.Second):
				b.Fatalf("no diagnostics for version %d", version)
			}
		}
		edits = append(edits, time.Since(start)-diagnosticDelay)
		line++
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2]) / float64(time.Millisecond)
	}
	slices.Sort(notes)
	b.ReportMetric(median(saves), "save-to-diag-ms")
	b.ReportMetric(median(waves), "wave-ms")
	b.ReportMetric(median(cpus), "wave-CPU-ms")
	b.ReportMetric(float64(notes[len(notes)/2]), "diags-per-save")
	b.ReportMetric(median(edits), "edit-to-diag-ms")
}

// seriesPublishSession copies the two-book series corpus, gives
// brokenSeriesFiles of its series files a link to no entry, trusts both
// books and opens them in one session; it returns once every broken
// file's problem is published.
func seriesPublishSession(b *testing.B) (*testClient, []string) {
	b.Helper()
	cache, err := corpus.BenchRoot()
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(cache, "series-10000-200x5000-s1-b2-v1")
	if _, err := os.Stat(src); err != nil {
		b.Fatalf("no series corpus at %s: run BenchmarkSeries in cmd/quire once to write it", src)
	}
	dir := filepath.Join(b.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "series", "codex", "characters", "*.md"))
	if err != nil || len(files) < brokenSeriesFiles {
		b.Fatalf("too few series characters (%d): %v", len(files), err)
	}
	slices.Sort(files)
	broken := files[:brokenSeriesFiles]
	for i, f := range broken {
		writeBrokenLink(b, f, fmt.Sprintf("Nobody %d", i))
	}
	books := []string{filepath.Join(dir, "book-1"), filepath.Join(dir, "book-2")}
	trustFile := filepath.Join(b.TempDir(), "trust.json")
	for _, book := range books {
		reach, err := endpoint.ReadBookReach(book)
		if err != nil {
			b.Fatal(err)
		}
		if err := trust.Open(trustFile).Grant(book, reach.Wants().Hash(), reach.Wants().Lines()); err != nil {
			b.Fatal(err)
		}
	}
	c := startServer(b, Options{TrustFile: trustFile, CacheDir: b.TempDir()})
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{
			{URI: string(textdoc.PathURI(books[0])), Name: "book-1"},
			{URI: string(textdoc.PathURI(books[1])), Name: "book-2"},
		},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	deadline := time.Now().Add(5 * time.Minute)
	for _, f := range broken {
		for {
			if p, ok := c.latestDiagnostics(textdoc.PathURI(f)); ok && slices.ContainsFunc(p.Diagnostics, func(d protocol.Diagnostic) bool { return d.Code == codex.CodeBrokenLink }) {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("the broken link of %s was never published", f)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return c, broken
}

// writeBrokenLink writes the series file at path with one link to no
// entry, named link, at its end, in place of the one it had.
func writeBrokenLink(b *testing.B, path, link string) {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	text, _, _ := strings.Cut(string(data), "\nSee [[Nobody")
	if err := os.WriteFile(path, []byte(strings.TrimRight(text, "\n")+"\nSee [[Nobody"+strings.TrimPrefix(link, "Nobody")+"]].\n"), 0o644); err != nil {
		b.Fatal(err)
	}
}
