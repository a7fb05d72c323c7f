package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
)

// startBenchBook is the corpus the start benchmarks open (10,000
// entries and 200 chapters of 5,000 words; QUIRE_HOVER_CHAPTERS=800
// measures the 4M-word series instead, QUIRE_HOVER_ENTRIES=1000 a codex
// of 1,000 entries), a chapter and a name it mentions, and a cache
// folder, which for a warm start a first start has filled.
func startBenchBook(b *testing.B, kind startKind) (root, chapter, name, cache string) {
	opt := corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1}
	if n, err := strconv.Atoi(os.Getenv("QUIRE_HOVER_CHAPTERS")); err == nil && n > 0 {
		opt.Chapters = n
	}
	if n, err := strconv.Atoi(os.Getenv("QUIRE_HOVER_ENTRIES")); err == nil && n > 0 {
		opt.Entries = n
	}
	root, err := corpus.Cached(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	chapter, name, err = corpusMention(opt, root)
	if err != nil {
		b.Fatal(err)
	}
	cache = b.TempDir()
	if kind == startWarm {
		if _, err := measureFirstHover(context.Background(), firstHoverRun{Command: serveCommand(cache), Root: root, Chapter: chapter, Name: name}); err != nil {
			b.Fatal(err)
		}
	}
	return root, chapter, name, cache
}

// startHome is the cache folder of a benchmark's run i: the warm
// start's, filled once, or a folder of its own for a cold one.
func startHome(cache string, kind startKind, i int) string {
	if kind == startWarm {
		return cache
	}
	return filepath.Join(cache, strconv.Itoa(i))
}

// medianOf is the median of v (the upper one of an even count); v is
// sorted in place.
func medianOf(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}
