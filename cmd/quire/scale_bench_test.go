package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex/corpus"
)

// BenchmarkScale measures quire as a writer meets it, from process start,
// on the synthetic corpora at 1k and 10k codex entries and 1M and 4M
// words (200 and 800 chapters of 5,000 words, `quire gen-corpus
// --preset novel|series`):
//
//   - cold first hover: a fresh cache; spawn `quire serve`, initialize,
//     open chapter 1 and hover a name until the card shows the canon and
//     the chapters that mention it;
//   - warm first hover: the same with the cache the cold run left;
//   - `quire index` on a fresh cache, and `quire mentions` after it,
//     twice: first reading every chapter, then with the chapter cache the
//     first run left;
//   - the peak resident memory of each child (rusage).
//
// Each figure is the median of b.N runs (-benchtime=3x for three); the
// table is printed at the end. The child is this test binary running
// quire's main, so no separate build is needed:
//
//	go test -run '^$' -bench BenchmarkScale -benchtime 3x -timeout 60m ./cmd/quire/
//
// QUIRE_SCALE=1k-1M,10k-4M picks workloads (default all four).
func BenchmarkScale(b *testing.B) {
	type workload struct {
		name     string
		entries  int
		chapters int
	}
	all := []workload{{"1k-1M", 1000, 200}, {"1k-4M", 1000, 800}, {"10k-1M", 10000, 200}, {"10k-4M", 10000, 800}}
	if pick := os.Getenv("QUIRE_SCALE"); pick != "" {
		all = slices.DeleteFunc(all, func(w workload) bool { return !slices.Contains(strings.Split(pick, ","), w.name) })
	}
	var rows []scaleRow
	for _, w := range all {
		b.Run(w.name, func(b *testing.B) {
			opt := corpus.Options{Entries: w.entries, Chapters: w.chapters, ChapterWords: 5000, Seed: 1}
			root, err := corpus.Cached(context.Background(), opt)
			if err != nil {
				b.Fatal(err)
			}
			spot := hoverSpot(b, root, opt)
			var runs []scaleRow
			for b.Loop() {
				runs = append(runs, scaleRun(b, root, spot))
			}
			row := medianRow(runs)
			row.name = w.name
			rows = append(rows, row)
			b.ReportMetric(ms(row.cold), "cold-hover-ms")
			b.ReportMetric(ms(row.warm), "warm-hover-ms")
			b.ReportMetric(ms(row.coldSearch), "cold-search-ms")
			b.ReportMetric(ms(row.index), "index-ms")
			b.ReportMetric(ms(row.mentions), "mentions-ms")
			b.ReportMetric(float64(row.coldRSS)/1024, "cold-RSS-MB")
			b.ReportMetric(float64(row.warmRSS)/1024, "warm-RSS-MB")
			b.ReportMetric(float64(row.mentionsRSS)/1024, "mentions-RSS-MB")
			b.ReportMetric(ms(row.mentionsWarm), "mentions-warm-ms")
			b.ReportMetric(float64(row.mentionsWarmRSS)/1024, "mentions-warm-RSS-MB")
		})
	}
	if len(rows) == 0 {
		return
	}
	var t strings.Builder
	fmt.Fprintf(&t, "\n| workload | first hover cold / warm | search ready, cold | quire index | quire mentions first / again | peak RSS: serve cold / warm, index, mentions first / again |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&t, "| %s | %.0f / %.0f ms | %.0f ms | %.0f ms | %.0f / %.0f ms | %d / %d, %d, %d / %d MB |\n", r.name,
			ms(r.cold), ms(r.warm), ms(r.coldSearch), ms(r.index), ms(r.mentions), ms(r.mentionsWarm),
			r.coldRSS/1024, r.warmRSS/1024, r.indexRSS/1024, r.mentionsRSS/1024, r.mentionsWarmRSS/1024)
	}
	fmt.Fprint(os.Stdout, t.String())
}

// scaleRow is one run's figures (or their medians); RSS in KiB.
type scaleRow struct {
	name                                                     string
	cold, coldSearch, warm, index, mentions, mentionsWarm    time.Duration
	coldRSS, warmRSS, indexRSS, mentionsRSS, mentionsWarmRSS int64
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func medianRow(runs []scaleRow) scaleRow {
	med := func(get func(scaleRow) int64) int64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return scaleRow{
		cold:            time.Duration(med(func(r scaleRow) int64 { return int64(r.cold) })),
		coldSearch:      time.Duration(med(func(r scaleRow) int64 { return int64(r.coldSearch) })),
		warm:            time.Duration(med(func(r scaleRow) int64 { return int64(r.warm) })),
		index:           time.Duration(med(func(r scaleRow) int64 { return int64(r.index) })),
		mentions:        time.Duration(med(func(r scaleRow) int64 { return int64(r.mentions) })),
		mentionsWarm:    time.Duration(med(func(r scaleRow) int64 { return int64(r.mentionsWarm) })),
		coldRSS:         med(func(r scaleRow) int64 { return r.coldRSS }),
		warmRSS:         med(func(r scaleRow) int64 { return r.warmRSS }),
		indexRSS:        med(func(r scaleRow) int64 { return r.indexRSS }),
		mentionsRSS:     med(func(r scaleRow) int64 { return r.mentionsRSS }),
		mentionsWarmRSS: med(func(r scaleRow) int64 { return r.mentionsWarmRSS }),
	}
}

// scaleRun takes every figure once, each on a cache of its own.
func scaleRun(b *testing.B, root string, spot scaleSpot) scaleRow {
	var r scaleRow
	cache := b.TempDir()
	cold := firstHover(b, root, cache, spot)
	r.cold, r.coldSearch, r.coldRSS = cold.Counts, cold.SearchReady, cold.PeakRSS/1024
	warm := firstHover(b, root, cache, spot)
	r.warm, r.warmRSS = warm.Counts, warm.PeakRSS/1024
	index := b.TempDir()
	r.index, r.indexRSS = runQuire(b, root, index, "index")
	r.mentions, r.mentionsRSS = runQuire(b, root, index, "mentions")
	// Again, with the chapter cache the first run left.
	r.mentionsWarm, r.mentionsWarmRSS = runQuire(b, root, index, "mentions")
	return r
}

// scaleSpot is a name in chapter 1, where the benchmark hovers.
type scaleSpot struct {
	rel, name string
}

// hoverSpot finds the first mention of any entry's name in chapter 1.
func hoverSpot(b *testing.B, root string, opt corpus.Options) scaleSpot {
	b.Helper()
	rel := "manuscript/001-chapter-1.md"
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	best, name := -1, ""
	for _, e := range corpus.Plan(opt).Entries {
		if i := strings.Index(text, e.Name); i >= 0 && (best < 0 || i < best) {
			best, name = i, e.Name
		}
	}
	if best < 0 {
		b.Fatal("chapter 1 mentions no entry")
	}
	return scaleSpot{rel: rel, name: name}
}

// runQuire runs one quire command to its end.
func runQuire(b *testing.B, root, cache string, args ...string) (time.Duration, int64) {
	b.Helper()
	cmd := exec.Command(os.Args[0], append(args, "--project", root, "--cache-dir", cache)...)
	cmd.Env = append(os.Environ(), asQuire+"=1")
	cmd.Stdout = io.Discard
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatalf("quire %s: %v", strings.Join(args, " "), err)
	}
	peak := followPeak(cmd)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("quire %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return time.Since(start), peak.bytes() >> 10
}

// firstHover is measureFirstHover from spawning `quire serve` with cache
// as its cache folder: the hover with canon and chapter counts, search
// ready (the server stays up until then, as an editor would, so a cold
// run leaves the complete cache a warm run reads), and peak memory.
func firstHover(b *testing.B, root, cache string, spot scaleSpot) firstHoverTimes {
	b.Helper()
	cmd := serveCommand(cache)
	// QUIRE_SCALE_LOG=FILE keeps the server's debug log of each start,
	// with its timings, to see where the time goes.
	if logFile := os.Getenv("QUIRE_SCALE_LOG"); logFile != "" {
		cmd.Args = append(cmd.Args, "-v")
		f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		fmt.Fprintf(f, "--- start %s\n", time.Now().Format(time.StampMicro))
		cmd.Stderr = f
	}
	t, err := measureFirstHover(context.Background(), firstHoverRun{Command: cmd, Root: root, Chapter: spot.rel, Name: spot.name})
	if err != nil {
		b.Fatal(err)
	}
	return t
}
