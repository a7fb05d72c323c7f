package manuscript

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
)

// BenchmarkReadChapterCache reads and decodes the chapter cache of the
// 4M-word series (800 chapters, 10,000 codex entries), as a warm start
// does while it reads the chapters: their outlines, counts and
// mentions.
func BenchmarkReadChapterCache(b *testing.B) {
	ctx := context.Background()
	dir, err := corpus.Cached(ctx, corpus.Options{Entries: 10000, Chapters: 800, ChapterWords: 5000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	store, err := codex.Open(ctx, dir, codex.Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	cat := store.Catalog()
	if err := store.Close(); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "chapters.bin")
	m, err := Open(ctx, dir, Options{Catalog: cat, ChapterCache: path})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.SaveCache(); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(info.Size())/1e6, "file-MB")
	b.ReportAllocs()
	for b.Loop() {
		c, err := readChapterCache(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.records) != 800 {
			b.Fatalf("%d chapters in the cache", len(c.records))
		}
	}
}
