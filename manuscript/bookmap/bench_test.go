package bookmap

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/corpus"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// BenchmarkMap times the book map of a 10,000-entry, 200-chapter corpus
// (kept in the user cache folder between runs): gathering its data from
// the opened book, and writing the page. The page's size is reported as
// bytes/page. Target: build and write within 500 ms, under 5 MB.
//
//	go test -run '^$' -bench BenchmarkMap -benchtime 10x ./manuscript/bookmap/
func BenchmarkMap(b *testing.B) {
	dir, err := corpus.Cached(context.Background(), corpus.Options{Entries: 10_000, Chapters: 200, Seed: 1})
	require.NoError(b, err)
	bk, err := mbook.Open(context.Background(), dir, mbook.Options{Cache: mbook.CacheOptions{Dir: b.TempDir()}})
	require.NoError(b, err)
	cat, snap := bk.Store.Catalog(), bk.Manuscript.Snapshot()
	opts := Options{Root: bk.Root}
	// Closing waits for the codex's search index to be written in the
	// background, which would otherwise share the cores with the timing;
	// the catalog and the snapshot stay readable.
	require.NoError(b, bk.Close())
	m := Build(cat, snap, opts)
	cw := &countingWriter{}
	require.NoError(b, m.Write(cw))
	b.Logf("%d chapters, %d entries mentioned, %d unmentioned, page %.2f MB", len(m.Chapters), len(m.Entries), len(m.Unmentioned), float64(cw.n)/1e6)

	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			Build(cat, snap, opts)
		}
	})
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, m.Write(io.Discard))
		}
		b.ReportMetric(float64(cw.n), "bytes/page")
	})
	b.Run("build+write", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, Build(cat, snap, opts).Write(io.Discard))
		}
		b.ReportMetric(float64(cw.n), "bytes/page")
	})
}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}
