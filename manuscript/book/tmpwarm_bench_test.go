package book_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

func BenchmarkTmpWarmOpen(b *testing.B) {
	ctx := context.Background()
	root, err := corpus.Cached(ctx, corpus.Options{Entries: 10000, Chapters: 800, ChapterWords: 5000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	base := "/tmp/tmpwarm-cache"
	var log *slog.Logger
	if os.Getenv("TMPV") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	open := func(later bool) *mbook.Book {
		bk, err := mbook.Open(ctx, root, mbook.Options{Cache: mbook.CacheOptions{Base: base}, LaterMentions: later, BackgroundIndex: true, CheckAfter: true, Logger: log})
		if err != nil {
			b.Fatal(err)
		}
		return bk
	}
	if _, err := os.Stat(base); err != nil {
		bk := open(false)
		bk.SaveChapters()
		_ = bk.Store.WaitIndex(ctx)
		_ = bk.Store.Save()
		bk.Close()
	}
	for b.Loop() {
		bk := open(true)
		b.StopTimer()
		_ = bk.Store.WaitIndex(ctx)
		bk.Close()
		b.StartTimer()
	}
}
