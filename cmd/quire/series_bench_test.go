package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/server"
)

// BenchmarkSeries measures issue 19's target as a writer meets it: two
// books of 200 chapters (1M words each) that share a series of 10,000
// codex entries, open in one `quire serve` as two workspace folders,
// against one book holding the same 10,000 entries in its own codex
// (the 10k-1M corpus of BenchmarkScale). Both books are trusted, so
// they read the series. For each, from process start: initialize with
// every book as a workspace folder, open chapter 1 of each and hover a
// name in it until the card shows the canon (for a series book, "Series
// canon"), each book on its own (a book's first hover does not wait for
// the other's: a writer hovers in one book at a time), then wait until every book's search is ready and read the
// process's peak resident memory (VmHWM) and its peak live heap (the
// largest live heap a collection found, from GODEBUG=gctrace=1). Cold
// runs start on an empty cache, warm runs on the cache the cold run
// left. Reported: each figure (median of b.N runs) and the ratios of
// two books to one, the target being ≤ 1.3; and the first hover of a
// series book cold and warm, against issue 17's targets (≤ 1 s cold,
// ≤ 250 ms warm at 10k entries and 1M words):
//
//	go test -run '^$' -bench BenchmarkSeries -benchtime 3x -timeout 60m ./cmd/quire/
//
// The series corpus is written once to the user cache folder
// (quire-bench/series-…), like the others.
func BenchmarkSeries(b *testing.B) {
	opt := corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1}
	one, err := corpus.Cached(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	series, err := cachedSeries(context.Background(), opt, 2)
	if err != nil {
		b.Fatal(err)
	}
	oneSpot := bookSpot(b, one, opt, nil, "**")
	// A series name no book overrides: its card says "Series canon".
	overridden := overriddenNames(b, series.Books)
	var seriesSpots []booksSpot
	for _, book := range series.Books {
		seriesSpots = append(seriesSpots, bookSpot(b, book, opt, overridden, "Series canon"))
	}
	// The books' trust lives in a config folder of the benchmark's own.
	config := b.TempDir()
	for _, book := range series.Books {
		trustBook(b, config, book)
	}
	var oneRuns, twoRuns []seriesRow
	for b.Loop() {
		oneRuns = append(oneRuns, seriesRun(b, config, []booksSpot{oneSpot}))
		twoRuns = append(twoRuns, seriesRun(b, config, seriesSpots))
	}
	o, t := medianSeriesRow(oneRuns), medianSeriesRow(twoRuns)
	ratio := func(two, one int64) float64 {
		if one == 0 {
			return 0
		}
		return float64(two) / float64(one)
	}
	b.ReportMetric(float64(o.warmRSS)/(1<<20), "one-warm-RSS-MB")
	b.ReportMetric(float64(t.warmRSS)/(1<<20), "two-warm-RSS-MB")
	b.ReportMetric(ratio(t.warmRSS, o.warmRSS), "warm-RSS-ratio")
	b.ReportMetric(float64(o.coldRSS)/(1<<20), "one-cold-RSS-MB")
	b.ReportMetric(float64(t.coldRSS)/(1<<20), "two-cold-RSS-MB")
	b.ReportMetric(ratio(t.coldRSS, o.coldRSS), "cold-RSS-ratio")
	b.ReportMetric(float64(o.warmLive)/(1<<20), "one-warm-live-MB")
	b.ReportMetric(float64(t.warmLive)/(1<<20), "two-warm-live-MB")
	b.ReportMetric(ratio(t.warmLive, o.warmLive), "warm-live-ratio")
	b.ReportMetric(float64(o.heap)/(1<<20), "one-heap-MB")
	b.ReportMetric(float64(t.heap)/(1<<20), "two-heap-MB")
	b.ReportMetric(ratio(t.heap, o.heap), "heap-ratio")
	b.ReportMetric(ms(t.cold), "series-cold-hover-ms")
	b.ReportMetric(ms(t.warm), "series-warm-hover-ms")
	b.ReportMetric(ms(t.coldLast), "series-cold-hover-2-ms")
	b.ReportMetric(ms(t.warmLast), "series-warm-hover-2-ms")
	fmt.Fprintf(os.Stdout, "\n| workload | first hover cold / warm | second book's first hover cold / warm | search ready cold / warm | peak RSS cold / warm | peak live heap cold / warm | live heap, ready, in process |\n|---|---|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		row  seriesRow
	}{{"one book, 10k entries", o}, {"two books, 10k-entry series", t}} {
		fmt.Fprintf(os.Stdout, "| %s | %.0f / %.0f ms | %.0f / %.0f ms | %.0f / %.0f ms | %d / %d MB | %d / %d MB | %.1f MB |\n", r.name,
			ms(r.row.cold), ms(r.row.warm), ms(r.row.coldLast), ms(r.row.warmLast), ms(r.row.coldReady), ms(r.row.warmReady),
			r.row.coldRSS>>20, r.row.warmRSS>>20, r.row.coldLive>>20, r.row.warmLive>>20, float64(r.row.heap)/(1<<20))
	}
	fmt.Fprintf(os.Stdout, "two books / one: peak RSS %.2f× cold, %.2f× warm; peak live heap %.2f× cold, %.2f× warm; live heap when ready %.2f× (target ≤ 1.3×)\n",
		ratio(t.coldRSS, o.coldRSS), ratio(t.warmRSS, o.warmRSS), ratio(t.coldLive, o.coldLive), ratio(t.warmLive, o.warmLive), ratio(t.heap, o.heap))
}

// seriesRow is one cold and one warm start (or their medians); memory in
// bytes. cold and warm are the first book's first hover, coldLast and
// warmLast the last book's.
type seriesRow struct {
	cold, warm, coldLast, warmLast, coldReady, warmReady time.Duration
	coldRSS, warmRSS, coldLive, warmLive                 int64
	// heap is the live heap of a warm session run in this process, once
	// every book is ready (measureHeap).
	heap int64
}

func medianSeriesRow(runs []seriesRow) seriesRow {
	med := func(get func(seriesRow) int64) int64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	d := func(get func(seriesRow) time.Duration) time.Duration {
		return time.Duration(med(func(r seriesRow) int64 { return int64(get(r)) }))
	}
	return seriesRow{
		cold:      d(func(r seriesRow) time.Duration { return r.cold }),
		warm:      d(func(r seriesRow) time.Duration { return r.warm }),
		coldLast:  d(func(r seriesRow) time.Duration { return r.coldLast }),
		warmLast:  d(func(r seriesRow) time.Duration { return r.warmLast }),
		coldReady: d(func(r seriesRow) time.Duration { return r.coldReady }),
		warmReady: d(func(r seriesRow) time.Duration { return r.warmReady }),
		coldRSS:   med(func(r seriesRow) int64 { return r.coldRSS }),
		warmRSS:   med(func(r seriesRow) int64 { return r.warmRSS }),
		coldLive:  med(func(r seriesRow) int64 { return r.coldLive }),
		warmLive:  med(func(r seriesRow) int64 { return r.warmLive }),
		heap:      med(func(r seriesRow) int64 { return r.heap }),
	}
}

// seriesRun is a cold start on a fresh cache, then a warm one on it.
func seriesRun(b *testing.B, config string, books []booksSpot) seriesRow {
	b.Helper()
	cache := b.TempDir()
	measure := func() booksTimes {
		cmd := serveCommand(cache)
		cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+config, "APPDATA="+config)
		if os.Getenv("QUIRE_BENCH_STDERR") != "" {
			// The server's debug log, with its timings, to see where a
			// first hover's time goes.
			cmd.Args = append(cmd.Args, "-v")
		}
		t, err := measureBooks(context.Background(), cmd, books)
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	cold := measure()
	warm := measure()
	heap, err := measureHeap(context.Background(), filepath.Join(cache, "quire"), filepath.Join(config, "quire", "trust.json"), books)
	if err != nil {
		b.Fatal(err)
	}
	return seriesRow{
		heap: heap,
		cold: cold.Canon[0], warm: warm.Canon[0], coldLast: cold.Canon[len(books)-1], warmLast: warm.Canon[len(books)-1],
		coldReady: cold.SearchReady, warmReady: warm.SearchReady,
		coldRSS: cold.PeakRSS, warmRSS: warm.PeakRSS, coldLive: cold.PeakLive, warmLive: warm.PeakLive,
	}
}

// seriesFolders are a series corpus' folders.
type seriesFolders struct {
	Series string
	Books  []string
}

// cachedSeries is writeSeriesCorpus kept in the user cache folder,
// written on first use.
func cachedSeries(ctx context.Context, opt corpus.Options, books int) (seriesFolders, error) {
	base, err := corpus.BenchRoot()
	if err != nil {
		return seriesFolders{}, err
	}
	// v1: the format of writeSeriesCorpus; the corpus' own is in
	// corpus.Cached's names.
	name := fmt.Sprintf("series-%d-%dx%d-s%d-b%d-v1", opt.Entries, opt.Chapters, opt.ChapterWords, opt.Seed, books)
	dir := filepath.Join(base, name)
	out := seriesFolders{Series: filepath.Join(dir, "series")}
	for i := range books {
		out.Books = append(out.Books, filepath.Join(dir, fmt.Sprintf("book-%d", i+1)))
	}
	if _, err := os.Stat(dir); err == nil {
		return out, nil
	}
	tmp := dir + ".tmp" + strconv.Itoa(os.Getpid())
	_ = os.RemoveAll(tmp)
	if _, err := writeSeriesCorpus(ctx, tmp, opt, books); err != nil {
		return out, fmt.Errorf("write corpus %s: %w", name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return out, fmt.Errorf("keep corpus %s: %w", name, err)
	}
	return out, nil
}

// trustBook runs `quire trust book` with config as the user config
// folder.
func trustBook(b testing.TB, config, book string) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "trust", book)
	cmd.Env = append(os.Environ(), asQuire+"=1", "XDG_CONFIG_HOME="+config, "APPDATA="+config)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("quire trust %s: %v\n%s", book, err, out)
	}
}

// overriddenNames are the names the books' own entries give.
func overriddenNames(b testing.TB, books []string) map[string]bool {
	b.Helper()
	names := map[string]bool{}
	re := regexp.MustCompile(`(?m)^name: "(.*)"$`)
	for _, book := range books {
		files, err := filepath.Glob(filepath.Join(book, "codex", "*", "*.md"))
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if m := re.FindSubmatch(data); m != nil {
				names[string(m[1])] = true
			}
		}
	}
	return names
}

// booksSpot is a book, a chapter of it and a name it mentions, and what
// the card says once it shows the canon.
type booksSpot struct {
	Root, Chapter, Name, Want string
}

// bookSpot is the longest name of the corpus, not in skip, that chapter
// 1 of root mentions as a whole word.
func bookSpot(b testing.TB, root string, opt corpus.Options, skip map[string]bool, want string) booksSpot {
	b.Helper()
	rel := "manuscript/001-chapter-1.md"
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	entries := slices.Clone(corpus.Plan(opt).Entries)
	slices.SortStableFunc(entries, func(a, b corpus.Entry) int { return len(b.Name) - len(a.Name) })
	for _, e := range entries {
		if skip[e.Name] {
			continue
		}
		if _, ok := positionOf(string(data), e.Name); ok {
			return booksSpot{Root: root, Chapter: rel, Name: e.Name, Want: want}
		}
	}
	b.Fatalf("%s mentions no name", rel)
	return booksSpot{}
}

// booksTimes are one start's figures, times from process start.
type booksTimes struct {
	// Canon is when a hover in each book first showed the canon.
	Canon []time.Duration
	// SearchReady is when the last book's loading progress ended.
	SearchReady time.Duration
	// PeakRSS is VmHWM, PeakLive the largest live heap a collection
	// found, in bytes, both until search was ready.
	PeakRSS, PeakLive int64
}

// measureBooks starts cmd (`quire serve`) and measures a session in it
// (booksSession), with its peak resident memory and its peak live heap.
func measureBooks(ctx context.Context, cmd *exec.Cmd, books []booksSpot) (booksTimes, error) {
	var out booksTimes
	cmd.Env = append(cmd.Env, "GODEBUG=gctrace=1")
	gc := &gcTrace{}
	cmd.Stderr = io.MultiWriter(cmd.Stderr, gc)
	cmd, stream, start, stop, err := startServe(cmd)
	if err != nil {
		return out, err
	}
	defer stop()
	stdin := stream.WriteCloser
	var rss int64
	out, err = booksSession(ctx, stream, start, books, func() { rss = peakRSS(cmd.Process.Pid) }, func() error {
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("quire serve: %w", err)
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.PeakRSS = rss
	out.PeakLive = gc.peak()
	return out, nil
}

// booksSession speaks to a server on stream, started at start: it
// initializes with every book a workspace folder, opens each spot's
// chapter and hovers its name until the card shows spot.Want, each book
// on its own, then waits for every book's search, calls ready, and shuts
// the server down; ended waits for the server to end, before the stream
// closes.
func booksSession(ctx context.Context, stream io.ReadWriteCloser, start time.Time, books []booksSpot, ready func(), ended func() error) (booksTimes, error) {
	var out booksTimes
	type opened struct {
		doc  protocol.DocumentURI
		pos  protocol.Position
		spot booksSpot
		text string
	}
	var docs []opened
	for _, s := range books {
		text, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(s.Chapter)))
		if err != nil {
			return out, err
		}
		pos, ok := positionOf(string(text), s.Name)
		if !ok {
			return out, fmt.Errorf("%s does not mention %q", s.Chapter, s.Name)
		}
		doc := protocol.DocumentURI(fileURI(filepath.Join(s.Root, filepath.FromSlash(s.Chapter))))
		docs = append(docs, opened{doc, pos, s, string(text)})
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	conn, loaded := serveConn(ctx, stream, len(books))
	defer conn.Close()

	var folders []protocol.WorkspaceFolder
	for i, s := range books {
		folders = append(folders, protocol.WorkspaceFolder{URI: fileURI(s.Root), Name: fmt.Sprintf("book %d", i+1)})
	}
	if _, err := conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          protocol.DocumentURI(folders[0].URI),
		WorkspaceFolders: folders,
		Capabilities:     protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
	}, nil); err != nil {
		return out, fmt.Errorf("initialize: %w", err)
	}
	if err := conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}); err != nil {
		return out, err
	}
	for _, d := range docs {
		if err := conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
			TextDocument: protocol.TextDocumentItem{URI: d.doc, LanguageID: "markdown", Version: 1, Text: d.text},
		}); err != nil {
			return out, err
		}
	}
	// Each book is hovered on its own, side by side: a book's first
	// hover is when a hover in it first shows the canon, not when the
	// other book's did.
	out.Canon = make([]time.Duration, len(docs))
	hoverErrs := make([]error, len(docs))
	var hovering sync.WaitGroup
	for i, d := range docs {
		hovering.Go(func() {
			for {
				h, err := hoverAt(ctx, conn, d.doc, d.pos)
				if err != nil {
					hoverErrs[i] = fmt.Errorf("hover: %w", err)
					return
				}
				if h != nil && strings.Contains(h.Contents.Value, d.spot.Want) {
					out.Canon[i] = time.Since(start)
					return
				}
				if err := ctx.Err(); err != nil {
					hoverErrs[i] = fmt.Errorf("the card of %s in %s never showed %q: %w", d.spot.Name, d.spot.Root, d.spot.Want, err)
					return
				}
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	hovering.Wait()
	if err := errors.Join(hoverErrs...); err != nil {
		return out, err
	}
	select {
	case <-loaded:
		out.SearchReady = time.Since(start)
	case <-ctx.Done():
		return out, fmt.Errorf("the books never finished loading: %w", ctx.Err())
	}
	ready()
	_, _ = conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
	return out, ended()
}

// measureHeap runs a session (booksSession) with a server in this
// process, over a real JSON-RPC pipe, its caches in cacheBase and the
// books' trust in trustFile, and returns the live heap it added once
// every book was ready (runtime.GC, then HeapAlloc less what was live
// before it started). QUIRE_BENCH_HEAP=FILE writes a heap profile of
// that moment to FILE-<books>.pprof, to see what each book pays for.
func measureHeap(ctx context.Context, cacheBase, trustFile string, books []booksSpot) (int64, error) {
	live := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	if os.Getenv("QUIRE_BENCH_HEAP") != "" {
		// Finer samples than the default 512 KiB, for profiles that
		// tell a few megabytes apart.
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 16 << 10
	}
	before := live()
	srv := server.New(server.Options{CacheDir: cacheBase, TrustFile: trustFile})
	client, conn := net.Pipe()
	served := make(chan int, 1)
	go func() { served <- srv.Serve(ctx, conn) }()
	var heap int64
	var profileErr error
	_, err := booksSession(ctx, client, time.Now(), books, func() {
		// The watchers' first look at the folders follows loading: let
		// it end, so that the figure is the books' state, not that walk.
		time.Sleep(heapSettle)
		heap = live() - before
		if file := os.Getenv("QUIRE_BENCH_HEAP"); file != "" {
			profileErr = writeHeapProfile(fmt.Sprintf("%s-%d.pprof", file, len(books)))
		}
	}, func() error {
		if code := <-served; code != 0 {
			return fmt.Errorf("the server ended with %d", code)
		}
		return nil
	})
	return heap, errors.Join(err, profileErr)
}

// heapSettle is how long measureHeap waits after the books are ready.
const heapSettle = 3 * time.Second

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(pprof.WriteHeapProfile(f), f.Close())
}

// gcTrace reads the runtime's GODEBUG=gctrace=1 lines ("gc 3 @0.1s 2%:
// …, 40->42->21 MB, …") and keeps the largest live heap (the third
// figure) any collection found.
type gcTrace struct {
	mu      sync.Mutex
	partial []byte
	max     int64
}

var gcLine = regexp.MustCompile(`^gc \d+ @.*, (\d+)->(\d+)->(\d+) MB`)

func (g *gcTrace) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.partial = append(g.partial, p...)
	for {
		i := bytes.IndexByte(g.partial, '\n')
		if i < 0 {
			break
		}
		if m := gcLine.FindSubmatch(g.partial[:i]); m != nil {
			if live, err := strconv.ParseInt(string(m[3]), 10, 64); err == nil {
				g.max = max(g.max, live<<20)
			}
		}
		g.partial = g.partial[i+1:]
	}
	return len(p), nil
}

func (g *gcTrace) peak() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.max
}

// The measurement itself works, on a small series written by
// writeSeriesCorpus: each book, trusted, shows the series canon on
// hover, both finish loading, and memory is read.
func TestMeasureBooksOnASmallSeries(t *testing.T) {
	opt := corpus.Options{Entries: 60, Chapters: 3, ChapterWords: 300, Seed: 1}
	s, err := writeSeriesCorpus(context.Background(), filepath.Join(t.TempDir(), "series"), opt, 2)
	require.NoError(t, err)
	yaml, err := os.ReadFile(filepath.Join(s.Books[1], "quire.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(yaml), "series: ../series")
	overrides, err := filepath.Glob(filepath.Join(s.Books[0], "codex", "characters", "*.md"))
	require.NoError(t, err)
	assert.Len(t, overrides, seriesOverrides)
	_, err = os.Stat(filepath.Join(s.Series, "manuscript"))
	assert.True(t, os.IsNotExist(err), "the series holds canon only")

	config := t.TempDir()
	skip := overriddenNames(t, s.Books)
	var spots []booksSpot
	for _, book := range s.Books {
		trustBook(t, config, book)
		spots = append(spots, bookSpot(t, book, opt, skip, "Series canon"))
	}
	cmd := serveCommand(t.TempDir())
	cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+config, "APPDATA="+config)
	got, err := measureBooks(context.Background(), cmd, spots)
	require.NoError(t, err)
	require.Len(t, got.Canon, 2)
	assert.GreaterOrEqual(t, got.SearchReady, got.Canon[1])
	if runtime.GOOS == "linux" { // VmHWM; Wine shows Linux's /proc too
		assert.Positive(t, got.PeakRSS)
	}
	assert.Positive(t, got.PeakLive, "the collector's trace was read")
	heap, err := measureHeap(context.Background(), t.TempDir(), filepath.Join(config, "quire", "trust.json"), spots)
	require.NoError(t, err)
	assert.Positive(t, heap)
}
