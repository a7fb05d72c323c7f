package bookmap

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/corpus"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// sampleRoot is the sample book "The Thirteenth Bell", as `quire init
// --sample` writes it.
const sampleRoot = "../../cmd/quire/sample"

// openBook opens the book at dir as the command line does, its index in
// a cache folder of the test's own.
func openBook(t testing.TB, dir string) *mbook.Book {
	t.Helper()
	b, err := mbook.Open(context.Background(), dir, mbook.Options{Cache: mbook.CacheOptions{Dir: t.TempDir()}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// buildMap builds the map of the book at dir.
func buildMap(t testing.TB, dir string, opts Options) (*Map, *mbook.Book) {
	t.Helper()
	b := openBook(t, dir)
	opts.Root = b.Root
	if opts.Title == "" {
		opts.Title = TitleOf(b.Settings)
	}
	return Build(b.Store.Catalog(), b.Manuscript.Snapshot(), opts), b
}

// render writes m's page.
func render(t testing.TB, m *Map) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	return buf.Bytes()
}

// genCorpus writes a synthetic book of entries and chapters.
func genCorpus(t testing.TB, entries, chapters int) string {
	t.Helper()
	dir := t.TempDir()
	_, err := corpus.Generate(context.Background(), dir, corpus.Options{Entries: entries, Chapters: chapters, ChapterWords: 1500, Seed: 1})
	require.NoError(t, err)
	return dir
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
