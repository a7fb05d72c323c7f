package manuscript_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/quire-ink/quire/manuscript"
)

// BenchmarkOpenManuscript finds and reads every chapter of the 200-chapter
// corpus and scans it against the 10,000-entry codex: what a server does
// once at start.
func BenchmarkOpenManuscript(b *testing.B) {
	book := benchBook(b)
	dir, err := mentionCorpusDir()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		m, err := manuscript.Open(ctx, dir, manuscript.Options{Catalog: book.catalog})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(m.Snapshot().Units()); n != len(book.units) {
			b.Fatalf("read %d chapters, want %d", n, len(book.units))
		}
	}
}

// BenchmarkEditChapter is one keystroke's worth of work as the server
// will do it: the editor's new text of a 5,000-word chapter goes into the
// overlay, the chapter is parsed again, and the mention index is updated
// for the new snapshot.
func BenchmarkEditChapter(b *testing.B) {
	book := benchBook(b)
	dir, err := mentionCorpusDir()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	m, err := manuscript.Open(ctx, dir, manuscript.Options{})
	if err != nil {
		b.Fatal(err)
	}
	m.SetCatalog(book.catalog)
	u := m.Snapshot().Units()[100]
	version := int32(0)
	for b.Loop() {
		version++
		text := u.Text + fmt.Sprintf("\nShe said it %d times.\n", version)
		if err := m.OpenDocument(ctx, u.Path, text, version); err != nil {
			b.Fatal(err)
		}
	}
	if got := m.Snapshot().Mentions().Mentions(u.Path); len(got) == 0 {
		b.Fatal("the edited chapter lost its mentions")
	}
}

// BenchmarkSaveChapterCache writes the chapter cache of the 200-chapter
// corpus just read and scanned (nothing in it came from a cache), as a
// cold start of the server does once its first scan is done: the save a
// server killed a second after its first hover must have finished.
func BenchmarkSaveChapterCache(b *testing.B) {
	book := benchBook(b)
	dir, err := mentionCorpusDir()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cache := b.TempDir()
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		m, err := manuscript.Open(ctx, dir, manuscript.Options{Catalog: book.catalog, ChapterCache: filepath.Join(cache, fmt.Sprintf("chapters-%d.bin", i))})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := m.SaveCache(); err != nil {
			b.Fatal(err)
		}
	}
}
