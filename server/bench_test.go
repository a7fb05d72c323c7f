package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// The server benchmarks drive a real session over a pipe against a
// synthetic book of 10,000 codex entries and 200 chapters of 5,000
// words, written once to the user cache folder.
var benchBook = corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1}

// benchSpot is a place in a chapter where a name is mentioned.
type benchSpot struct {
	rel string
	pos protocol.Position
}

// benchSetup returns the corpus folder, places to hover and the entry
// mentioned most, found with the domain packages directly.
func benchSetup(b *testing.B) (root string, spots []benchSpot, main benchSpot) {
	b.Helper()
	root, err := corpus.Cached(context.Background(), benchBook)
	if err != nil {
		b.Fatal(err)
	}
	store, err := codex.Open(context.Background(), root, codex.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ms, err := manuscript.Open(context.Background(), root, manuscript.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ms.SetCatalog(store.Catalog())
	snap := ms.Snapshot()
	ix := snap.Mentions()
	top := ix.Table().Rows[0].Entry
	for _, u := range snap.Units() {
		lines := textdoc.NewLines(u.Text)
		for i, m := range ix.Mentions(u.Path) {
			s := benchSpot{u.Path, lines.Position(m.Range.Start + 1)}
			if i%25 == 0 {
				spots = append(spots, s)
			}
			if m.Entry == top && main.rel == "" {
				main = s
			}
		}
	}
	return root, spots, main
}

// benchClient opens the book and waits until its chapters are scanned,
// so that measurements see the steady state.
func benchClient(b *testing.B, root, cache string, spot benchSpot) *testClient {
	return benchClientWith(b, root, Options{CacheDir: cache}, spot)
}

// benchClientWith is benchClient with the server's options given.
func benchClientWith(b *testing.B, root string, opts Options, spot benchSpot) *testClient {
	c := startServer(b, opts)
	c.initialize(root)
	deadline := time.Now().Add(time.Minute)
	for {
		h := c.hoverAt(spot.rel, spot.pos.Line, spot.pos.Character)
		if h == nil {
			b.Fatalf("no hover at %s %v", spot.rel, spot.pos)
		}
		if !strings.Contains(h.Contents.Value, "Counting") {
			// A search waits for the search index, which a cold cache
			// builds in the background: the benchmarks measure the
			// server at rest, not beside that build.
			var found json.RawMessage
			c.call(wire.MethodSearch, map[string]any{"query": "harbor"}, &found)
			return c
		}
		if time.Now().After(deadline) {
			b.Fatal("the book was never scanned")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// BenchmarkFirstHover is the time from initialize to the first whole
// hover card with the index already in the cache: what a writer waits
// for after opening the editor. A card that still says "Counting the
// chapters…" is not it: the hover is asked again, every 2 ms, as the
// process-level benchmark (cmd/quire, firstHover) asks.
func BenchmarkFirstHover(b *testing.B) {
	root, spots, _ := benchSetup(b)
	cache := b.TempDir()
	warm := benchClient(b, root, cache, spots[0])
	warm.shutdown()
	b.ResetTimer()
	for b.Loop() {
		c := startServer(b, Options{CacheDir: cache})
		c.initialize(root)
		for {
			h := c.hoverAt(spots[0].rel, spots[0].pos.Line, spots[0].pos.Character)
			if h == nil {
				b.Fatal("no hover")
			}
			if !strings.Contains(h.Contents.Value, "Counting") {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		b.StopTimer()
		c.shutdown()
		b.StartTimer()
	}
}

// BenchmarkHover measures hover latency over the protocol, p50 and p99.
func BenchmarkHover(b *testing.B) {
	root, spots, _ := benchSetup(b)
	c := benchClient(b, root, b.TempDir(), spots[0])
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		s := spots[i%len(spots)]
		start := time.Now()
		if c.hoverAt(s.rel, s.pos.Line, s.pos.Character) == nil {
			b.Fatalf("no hover at %s %v", s.rel, s.pos)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	benchtest.ReportLatencies(b, lat)
	reportRSS(b)
}

// BenchmarkCodeActions lists the code actions on a selected mention, as
// an editor asks on every cursor move: the board, the advisor actions
// (quire.yaml and .quire/actions read each time) and the lookup.
func BenchmarkCodeActions(b *testing.B) {
	root, spots, _ := benchSetup(b)
	c := benchClient(b, root, b.TempDir(), spots[0])
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		s := spots[i%len(spots)]
		end := s.pos
		end.Character += 3
		start := time.Now()
		if len(codeActionsAt(b, c, s.rel, protocol.Range{Start: s.pos, End: end})) == 0 {
			b.Fatalf("no code actions at %s %v", s.rel, s.pos)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	benchtest.ReportLatencies(b, lat)
}

// BenchmarkReferences lists every mention of the most mentioned entry.
func BenchmarkReferences(b *testing.B) {
	root, _, main := benchSetup(b)
	c := benchClient(b, root, b.TempDir(), main)
	params := protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(main.rel)}, Position: main.pos,
	}}
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, params, &locs) // the first call scans the codex once
	b.ResetTimer()
	for b.Loop() {
		c.call(protocol.MethodTextDocumentReferences, params, &locs)
	}
	b.ReportMetric(float64(len(locs)), "locations")
}

// BenchmarkChangeToDiagnostics edits a 5,000-word chapter and waits for
// its fresh diagnostics; the debounce is subtracted, so what remains is
// the work.
func BenchmarkChangeToDiagnostics(b *testing.B) {
	benchChangeToDiagnostics(b, "", nil)
}

// benchChangeToDiagnostics opens a 5,000-word chapter of the 10k-entry
// book with front put before its text, then, b.N times, inserts a line
// and waits for the diagnostics of that version; want checks each
// publication. It reports the latency percentiles, debounce excluded.
func benchChangeToDiagnostics(b *testing.B, front string, want func([]protocol.Diagnostic) bool) {
	root, spots, _ := benchSetup(b)
	// The work of each publication, which the debounce hides from lat.
	var workMu sync.Mutex
	var work []time.Duration
	diagnosed := func(took time.Duration) {
		workMu.Lock()
		work = append(work, took)
		workMu.Unlock()
	}
	c := benchClientWith(b, root, Options{CacheDir: b.TempDir(), diagnosed: diagnosed}, spots[0])
	rel := spots[len(spots)/2].rel
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		b.Fatal(err)
	}
	c.open(rel, front+string(text))
	uri := c.uri(rel)
	settle(b)
	line := uint32(strings.Count(front, "\n") + 2)
	lat := make([]time.Duration, 0, b.N)
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	workMu.Lock()
	work = work[:0]
	workMu.Unlock()
	b.ResetTimer()
	for i := range b.N {
		version := int32(i + 2)
		start := time.Now()
		c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{
				"range": protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}},
				"text":  "Another line " + strconv.Itoa(i) + ".\n",
			}},
		})
		for {
			if p, ok := c.latestDiagnostics(uri); ok && p.Version == uint32(version) {
				if want != nil && !want(p.Diagnostics) {
					b.Fatal("the diagnostics published lack what the benchmark measures")
				}
				break
			}
			// Woken by the next message the server sends: polling
			// decoded the last publication hundreds of times per edit,
			// and that garbage, in this process, brought the collector
			// into the server's edits more often than the server's own.
			select {
			case <-c.notify:
			case <-time.After(10 * time.Second):
				b.Fatalf("no diagnostics for version %d", version)
			}
		}
		lat = append(lat, time.Since(start)-diagnosticDelay)
	}
	b.StopTimer()
	benchtest.ReportLatencies(b, lat)
	workMu.Lock()
	benchtest.ReportLatenciesAs(b, "work-", work)
	workMu.Unlock()
	// How often the collector ran during the edits: what decides how
	// many of them it slows, whatever the load of the machine.
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.NumGC-before.NumGC), "GCs")
}

// settle waits, for up to a minute, until the process allocates less
// than 2 MB in a second: the book's work in the background (the search
// index merging its segments, the watcher's first walk of the codex) is
// over, so that the collections the edits meet are the edits' own.
// Without it one run in two measured several hundred kB per edit of
// that work.
func settle(b *testing.B) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	last := m.TotalAlloc
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		runtime.ReadMemStats(&m)
		if m.TotalAlloc-last < 2<<20 {
			return
		}
		last = m.TotalAlloc
	}
	b.Log("the server was still busy after a minute")
}

// reportRSS reports the resident memory of the whole test process
// (server and client) after a collection.
func reportRSS(b *testing.B) {
	runtime.GC()
	debug.FreeOSMemory()
	if rss, ok := benchtest.ProcStatus(os.Getpid())["VmRSS"]; ok {
		b.ReportMetric(float64(rss)/(1<<20), "RSS-MB")
	}
}

// BenchmarkChangeToContinuityDiagnostics is BenchmarkChangeToDiagnostics
// with story time: the chapter's front matter names a point of view the
// codex lacks, so every publication carries a continuity diagnostic, and
// each one runs the continuity checks over the edited 5,000-word chapter
// against 10,000 entries. The debounce is subtracted.
func BenchmarkChangeToContinuityDiagnostics(b *testing.B) {
	benchChangeToDiagnostics(b, "---\ntitle: Edited\nday: 3\npov: Nobody The Codex Knows\n---\n", hasCode("unknown-reference"))
}
