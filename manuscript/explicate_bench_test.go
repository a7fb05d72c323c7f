package manuscript_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
)

// The passage benchmarks run on a synthetic book of 1,000 codex entries
// and 200 chapters of 5,000 words, written once by the corpus package and
// kept in the user cache folder between runs, never inside a project.
var passageBenchOptions = corpus.Options{Entries: 1000, Chapters: 200, ChapterWords: 5000, Seed: 1}

// passageBenchCorpus returns the folder of the corpus, writing it once.
func passageBenchCorpus(b *testing.B) string {
	b.Helper()
	dir, err := corpus.Cached(context.Background(), passageBenchOptions)
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// passageBenchUnits reads the corpus's chapters as units, in order.
func passageBenchUnits(b *testing.B, dir string) []*manuscript.Unit {
	b.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "manuscript", "*.md"))
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(names)
	units := make([]*manuscript.Unit, 0, len(names))
	for i, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		u := manuscript.NewUnit("manuscript/"+filepath.Base(name), string(data), 0)
		u.Position = i + 1
		units = append(units, u)
	}
	if len(units) != passageBenchOptions.Chapters {
		b.Fatalf("corpus has %d chapters, want %d", len(units), passageBenchOptions.Chapters)
	}
	return units
}

func openBenchPassages(b *testing.B, dir string) *manuscript.Passages {
	b.Helper()
	p, err := manuscript.OpenPassages(context.Background(), dir, manuscript.PassageOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPassagesColdIndex builds the passage index of the whole
// manuscript from nothing, as the first start on a project does.
func BenchmarkPassagesColdIndex(b *testing.B) {
	units := passageBenchUnits(b, passageBenchCorpus(b))
	caches := b.TempDir()
	paragraphs := 0
	b.ResetTimer()
	for i := range b.N {
		p := openBenchPassages(b, filepath.Join(caches, strconv.Itoa(i)))
		stats, err := p.Sync(context.Background(), units)
		if err != nil {
			b.Fatal(err)
		}
		paragraphs = stats.Paragraphs
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(paragraphs), "paragraphs")
}

// BenchmarkPassagesWarmSync opens an index that is already current and
// syncs it, as every later start does: it must re-index nothing.
func BenchmarkPassagesWarmSync(b *testing.B) {
	units := passageBenchUnits(b, passageBenchCorpus(b))
	cache := b.TempDir()
	p := openBenchPassages(b, cache)
	if _, err := p.Sync(context.Background(), units); err != nil {
		b.Fatal(err)
	}
	if err := p.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		p := openBenchPassages(b, cache)
		stats, err := p.Sync(context.Background(), units)
		if err != nil {
			b.Fatal(err)
		}
		if stats.Indexed != 0 || p.Report().Rebuilt {
			b.Fatalf("warm start re-indexed %d units (rebuilt %v)", stats.Indexed, p.Report().Rebuilt)
		}
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// explicateQuotes mixes what a writer asks about: sentences copied from
// codex entries, the same sentences reworded, and sentences of the
// manuscript itself.
func explicateQuotes(b *testing.B, cat *codex.Catalog, units []*manuscript.Unit) []string {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	var codexSentences, proseSentences []string
	for _, e := range cat.All() {
		for _, line := range strings.Split(e.BodyText(), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				first, _, _ := strings.Cut(line, ". ")
				codexSentences = append(codexSentences, first+".")
				break
			}
		}
	}
	for _, u := range units {
		ps := manuscript.Paragraphs(u)
		first, _, _ := strings.Cut(ps[len(ps)/2].Text, ". ")
		proseSentences = append(proseSentences, first+".")
	}
	if len(codexSentences) == 0 || len(proseSentences) == 0 {
		b.Fatal("corpus has no sentences to quote")
	}
	reword := func(s string) string {
		words := strings.Fields(s)
		kept := words[:0:0]
		for i, w := range words {
			if i%4 != 3 {
				kept = append(kept, w)
			}
		}
		return strings.Join(kept, " ")
	}
	var quotes []string
	for range 300 {
		switch rng.IntN(4) {
		case 0:
			quotes = append(quotes, codexSentences[rng.IntN(len(codexSentences))])
		case 1:
			quotes = append(quotes, reword(codexSentences[rng.IntN(len(codexSentences))]))
		case 2:
			quotes = append(quotes, proseSentences[rng.IntN(len(proseSentences))])
		default:
			quotes = append(quotes, reword(proseSentences[rng.IntN(len(proseSentences))]))
		}
	}
	return quotes
}

// BenchmarkExplicate measures the latency of one explication over the
// indexed manuscript, with and without finding the quote's entry in the
// codex.
func BenchmarkExplicate(b *testing.B) {
	dir := passageBenchCorpus(b)
	units := passageBenchUnits(b, dir)
	store, err := codex.Open(context.Background(), dir, codex.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	cat := store.Catalog()
	p := openBenchPassages(b, b.TempDir())
	defer p.Close()
	if _, err := p.Sync(context.Background(), units); err != nil {
		b.Fatal(err)
	}
	quotes := explicateQuotes(b, cat, units)

	for _, bc := range []struct {
		name string
		opt  manuscript.ExplicateOptions
	}{
		{"passages", manuscript.ExplicateOptions{}},
		{"with-source", manuscript.ExplicateOptions{Catalog: cat}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			found, sourced := 0, 0
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				ex, err := p.Explicate(context.Background(), quotes[i%len(quotes)], bc.opt)
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				if len(ex.Passages) > 0 {
					found++
				}
				if ex.Source != nil {
					sourced++
				}
			}
			b.StopTimer()
			benchtest.ReportLatencies(b, lat)
			b.ReportMetric(float64(found)/float64(b.N), "found/op")
			if bc.opt.Catalog != nil {
				b.ReportMetric(float64(sourced)/float64(b.N), "sourced/op")
			}
		})
	}
}
