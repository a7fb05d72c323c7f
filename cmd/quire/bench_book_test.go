package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
		// The first session runs on until its search index's merges are
		// saved, as a writer's session of minutes does: one that ended
		// with its build left every warm start after it to begin the
		// same merges and drop them on closing (11.5 ms of CPU before
		// the first answer at 800 chapters, docs/performance.md).
		if _, err := measureFirstHover(context.Background(), firstHoverRun{Command: serveCommand(cache), Root: root, Chapter: chapter, Name: name,
			AfterLoad: func(ctx context.Context, _ session) error { return indexSettled(ctx, cache) }}); err != nil {
			b.Fatal(err)
		}
	}
	return root, chapter, name, cache
}

// indexSettled waits until the search index's segment files under
// cache have stayed the same for settleFor (bleve's merges write new
// ones and remove those merged), or maxSettle has passed.
func indexSettled(ctx context.Context, cache string) error {
	const settleFor, maxSettle = 3 * time.Second, 60 * time.Second
	segments := func() string {
		var names []string
		_ = filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".zap") {
				names = append(names, path)
			}
			return nil
		})
		slices.Sort(names)
		return strings.Join(names, "\n")
	}
	deadline := time.Now().Add(maxSettle)
	last, since := segments(), time.Now()
	for time.Since(since) < settleFor && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		if now := segments(); now != last {
			last, since = now, time.Now()
		}
	}
	return nil
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
