package codex_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/codex/corpus"
)

// Benchmarks run against synthetic projects written by the corpus
// package: 1,000 and 10,000 entries with 100 and 300 chapters. Corpora are
// kept in the user cache folder between runs (they take seconds to
// write), never inside a project.

var benchSizes = []struct{ entries, chapters int }{{1000, 100}, {10000, 300}}

// benchCorpus returns the folder of a generated corpus, writing it once.
func benchCorpus(b *testing.B, entries, chapters int) (string, *corpus.Corpus) {
	b.Helper()
	opt := corpus.Options{Entries: entries, Chapters: chapters, Seed: 1}
	dir, err := corpus.Cached(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	return dir, corpus.Plan(opt)
}

func openBench(b *testing.B, dir, cache string) *codex.Store {
	b.Helper()
	s, err := codex.Open(context.Background(), dir, codex.Options{CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkIndexCold builds the index of a project from nothing, as the
// first `quire index` does, and reports the memory held afterwards.
func BenchmarkIndexCold(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", size.entries), func(b *testing.B) {
			dir, _ := benchCorpus(b, size.entries, size.chapters)
			caches := b.TempDir()
			var rss float64
			b.ResetTimer()
			for i := range b.N {
				s := openBench(b, dir, filepath.Join(caches, strconv.Itoa(i)))
				if i == b.N-1 {
					b.StopTimer()
					rss = residentMB()
					b.StartTimer()
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			if rss > 0 {
				b.ReportMetric(rss, "rss-MB")
			}
		})
	}
}

// BenchmarkOpenWarm opens a project whose index is already current, as
// every later start of the server or CLI does.
func BenchmarkOpenWarm(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", size.entries), func(b *testing.B) {
			dir, _ := benchCorpus(b, size.entries, size.chapters)
			cache := b.TempDir()
			if err := openBench(b, dir, cache).Close(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				s := openBench(b, dir, cache)
				if s.Report().Rebuilt {
					b.Fatal("warm open rebuilt the index")
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// lookupQueries mixes what a writer and the advisor ask: exact names,
// aliases, lower case, possessives, partial names, typos and misses.
func lookupQueries(c *corpus.Corpus) []string {
	rng := rand.New(rand.NewPCG(3, 5))
	var qs []string
	for range 400 {
		e := c.Entries[rng.IntN(len(c.Entries))]
		first := strings.Fields(e.Name)[0]
		switch rng.IntN(7) {
		case 0:
			qs = append(qs, e.Name)
		case 1:
			if len(e.Aliases) > 0 {
				qs = append(qs, e.Aliases[0])
			} else {
				qs = append(qs, e.Name)
			}
		case 2:
			qs = append(qs, strings.ToLower(e.Name))
		case 3:
			qs = append(qs, e.Name+"'s")
		case 4:
			qs = append(qs, first)
		case 5:
			r := []rune(e.Name)
			if len(r) > 4 {
				r[2], r[3] = r[3], r[2]
			}
			qs = append(qs, string(r))
		default:
			qs = append(qs, "Nobody Atall"+strconv.Itoa(rng.IntN(100)))
		}
	}
	return qs
}

func BenchmarkLookup(b *testing.B) {
	benchQueries(b, lookupQueries, func(s *codex.Store, q string) error {
		s.Lookup(q, "")
		return nil
	})
}

func BenchmarkSearch(b *testing.B) {
	queries := func(c *corpus.Corpus) []string {
		return append(lookupQueries(c)[:200], "harbor ledger", "silver bell", "quiet river", "tide", "lantern", "careful night watch")
	}
	benchQueries(b, queries, func(s *codex.Store, q string) error {
		_, err := s.Search(context.Background(), q, codex.SearchOptions{})
		return err
	})
}

// benchQueries times run over a mix of queries at every corpus size and
// reports latency percentiles.
func benchQueries(b *testing.B, queries func(*corpus.Corpus) []string, run func(*codex.Store, string) error) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", size.entries), func(b *testing.B) {
			dir, c := benchCorpus(b, size.entries, size.chapters)
			s := openBench(b, dir, b.TempDir())
			defer s.Close()
			qs := queries(c)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if err := run(s, qs[i%len(qs)]); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			benchtest.ReportLatencies(b, lat)
		})
	}
}

// BenchmarkSaveToVisible measures how long after a file is written its
// entry can be looked up and searched, with the watcher running and its
// debounce included.
func BenchmarkSaveToVisible(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", size.entries), func(b *testing.B) {
			src, _ := benchCorpus(b, size.entries, size.chapters)
			// The watcher sees writes, so it needs a project of its own.
			dir := filepath.Join(b.TempDir(), "book")
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				b.Fatal(err)
			}
			s := openBench(b, dir, b.TempDir())
			defer s.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Watch(ctx, nil) }()
			defer func() { cancel(); <-done }()
			folder := filepath.Join(dir, "codex", "items")
			waitFor(b, s, folder, "Warmup Probe")

			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				name := fmt.Sprintf("Probe Zed%d", i)
				start := time.Now()
				waitFor(b, s, folder, name)
				lat = append(lat, time.Since(start))
				if res, err := s.Search(ctx, name, codex.SearchOptions{}); err != nil || len(res) == 0 || res[0].Name != name {
					b.Fatalf("%s visible to Lookup but not to Search: %v %v", name, res, err)
				}
			}
			b.StopTimer()
			benchtest.ReportLatencies(b, lat)
		})
	}
}

// waitFor writes an entry as editors do (temporary file, then rename)
// and polls until Lookup finds it.
func waitFor(b *testing.B, s *codex.Store, folder, name string) {
	b.Helper()
	path := filepath.Join(folder, strings.ReplaceAll(strings.ToLower(name), " ", "-")+".md")
	tmp := filepath.Join(folder, ".tmp-save")
	if err := os.WriteFile(tmp, []byte("---\nname: "+name+"\n---\n# "+name+"\n\nA probe.\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ms := s.Catalog().Lookup(name, ""); len(ms) > 0 && ms[0].Entry.Name == name {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s never became visible", name)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// BenchmarkNaiveLookup is the reference design's approach, for
// comparison: every lookup walks the project and parses every Markdown
// file, then scores the candidates.
func BenchmarkNaiveLookup(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", size.entries), func(b *testing.B) {
			dir, c := benchCorpus(b, size.entries, size.chapters)
			qs := lookupQueries(c)
			b.ResetTimer()
			for i := range b.N {
				naiveLookup(b, dir, qs[i%len(qs)])
			}
		})
	}
}

func naiveLookup(b *testing.B, root, query string) *codex.Entry {
	q := codex.Normalize(query)
	var best *codex.Entry
	bestScore := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !codex.IsMarkdown(path) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		folderType, _ := codex.TypeFromFolder(filepath.Base(filepath.Dir(path)))
		e, _ := codex.Parse(filepath.ToSlash(rel), data, folderType)
		if e == nil {
			return nil
		}
		score := 0
		switch {
		case codex.Normalize(e.Name) == q:
			score = 100
		case codex.Normalize(e.Title) == q:
			score = 90
		case codex.Normalize(e.Stem) == q:
			score = 80
		case slices.ContainsFunc(e.Aliases, func(a string) bool { return codex.Normalize(a) == q }):
			score = 70
		case strings.Contains(codex.Normalize(e.Name), q):
			score = 40
		}
		if score > bestScore {
			best, bestScore = e, score
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return best
}

// residentMB is the process's resident memory after a full collection.
func residentMB() float64 {
	runtime.GC()
	debug.FreeOSMemory()
	return float64(benchtest.ProcStatus(os.Getpid())["VmRSS"]) / (1 << 20)
}

// BenchmarkNewCatalog builds the catalog of 10,000 parsed entries, as a
// warm start does from its saved state before the first answer.
func BenchmarkNewCatalog(b *testing.B) {
	entries := benchEntries(b)
	b.ReportAllocs()
	for b.Loop() {
		codex.NewCatalog(entries, nil)
	}
}

// BenchmarkCatalogFromState decodes the saved state of the 10,000-entry
// codex and builds its catalog with the keys the state saved, as a warm
// start does (BenchmarkNewCatalog makes the keys instead).
func BenchmarkCatalogFromState(b *testing.B) {
	build, err := codex.CatalogOfStateFile(savedBenchState(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := build()
		if err != nil {
			b.Fatal(err)
		}
		if c.Len() != 10000 {
			b.Fatalf("a catalog of %d entries", c.Len())
		}
	}
}

// savedBenchState is a cache folder holding the saved state of the
// 10,000-entry codex.
func savedBenchState(b *testing.B) string {
	b.Helper()
	dir, _ := benchCorpus(b, 10000, 300)
	cache := b.TempDir()
	if err := openBench(b, dir, cache).Close(); err != nil {
		b.Fatal(err)
	}
	return cache
}

// BenchmarkDecodeState decodes the saved state of the 10,000-entry
// codex, as a warm start does before it can answer (the file read
// apart): the entries, their sections, links and names.
func BenchmarkDecodeState(b *testing.B) {
	decode, err := codex.DecodeStateFile(savedBenchState(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if n, err := decode(); err != nil || n != 10000 {
			b.Fatalf("decoded %d entries: %v", n, err)
		}
	}
}

// BenchmarkCatalogProblems finds the problems of the 10,000-entry
// catalog (names two entries claim, links to nothing), as the first
// status and diagnostics of a start do.
func BenchmarkCatalogProblems(b *testing.B) {
	entries := benchEntries(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(codex.NewCatalog(entries, nil).Problems())
	}
	b.ReportMetric(float64(n), "problems")
}

// benchEntries are the parsed entries of the 10,000-entry corpus, in
// catalog order.
func benchEntries(b *testing.B) []*codex.Entry {
	b.Helper()
	dir, _ := benchCorpus(b, 10000, 300)
	s := openBench(b, dir, b.TempDir())
	entries := slices.Clone(s.Catalog().All())
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return entries
}

// BenchmarkParseEntries parses every entry of the 10,000-entry corpus
// from memory, as a cold start reads them: the front matter and the
// Markdown outline of each.
func BenchmarkParseEntries(b *testing.B) {
	dir, plan := benchCorpus(b, 10000, 300)
	srcs := make([][]byte, len(plan.Entries))
	for i, e := range plan.Entries {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.ID)))
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, e := range plan.Entries {
			codex.Parse(e.ID, srcs[i], e.Type)
		}
	}
}
