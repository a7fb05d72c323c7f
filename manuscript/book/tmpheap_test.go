package book_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

func TestTmpColdHeap(t *testing.T) {
	if os.Getenv("TMPHEAP") == "" {
		t.Skip()
	}
	ctx := context.Background()
	root, err := corpus.Cached(ctx, corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	bk, err := mbook.Open(ctx, root, mbook.Options{Cache: mbook.CacheOptions{Base: t.TempDir()}, LaterMentions: true, BackgroundIndex: true, CheckAfter: true})
	if err != nil {
		t.Fatal(err)
	}
	bk.Manuscript.SetMatcher(bk.Matcher)
	runtime.GC()
	f, _ := os.Create("/tmp/sb/heap-open.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	_ = bk.Store.WaitIndex(ctx)
	runtime.GC()
	f, _ = os.Create("/tmp/sb/heap-indexed.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap inuse %d MB", ms.HeapInuse>>20)
	bk.Close()
}
