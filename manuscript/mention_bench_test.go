package manuscript_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
)

// The mention benchmarks run against one synthetic book: 10,000 codex
// entries and 200 chapters of 5,000 words that mention them. The corpus
// is written once to the user cache folder and reused by later runs.

var mentionCorpusOptions = corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1}

// mentionBook is the corpus read once per test binary: its catalog and
// its chapters as units.
type mentionBook struct {
	catalog *codex.Catalog
	units   []*manuscript.Unit
	words   int
}

var loadMentionBook = sync.OnceValues(func() (*mentionBook, error) {
	dir, err := mentionCorpusDir()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	store, err := codex.Open(ctx, dir, codex.Options{InMemory: true})
	if err != nil {
		return nil, fmt.Errorf("open corpus codex: %w", err)
	}
	defer store.Close()
	book := &mentionBook{catalog: store.Catalog()}
	files, err := filepath.Glob(filepath.Join(dir, "manuscript", "*.md"))
	if err != nil {
		return nil, fmt.Errorf("list corpus chapters: %w", err)
	}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read corpus chapter: %w", err)
		}
		u := manuscript.NewUnit("manuscript/"+filepath.Base(f), string(data), 0)
		u.Position = i + 1
		book.units = append(book.units, u)
		book.words += u.Words
	}
	if len(book.units) != mentionCorpusOptions.Chapters {
		return nil, fmt.Errorf("corpus has %d chapters, want %d", len(book.units), mentionCorpusOptions.Chapters)
	}
	return book, nil
})

// mentionCorpusDir returns the folder of the corpus, writing it first if
// no earlier run did.
func mentionCorpusDir() (string, error) {
	return corpus.Cached(context.Background(), mentionCorpusOptions)
}

func benchBook(b *testing.B) *mentionBook {
	b.Helper()
	book, err := loadMentionBook()
	if err != nil {
		b.Fatal(err)
	}
	return book
}

// namesOf counts the names and aliases the matcher is built from.
func namesOf(cat *codex.Catalog) int {
	n := 0
	for _, e := range cat.All() {
		if e.Mentions {
			n += 1 + len(e.Aliases)
		}
	}
	return n
}

// BenchmarkMatcherBuild builds the automaton over every name and alias,
// as the server does whenever the codex changes. Target: ≤ 100 ms for
// 10,000 entries.
func BenchmarkMatcherBuild(b *testing.B) {
	book := benchBook(b)
	// The common-word table is built once per process; leave it out.
	manuscript.NewMatcher(nil).Scan("warm")
	_ = manuscript.NewMatcher(book.catalog)
	for b.Loop() {
		manuscript.NewMatcher(book.catalog)
	}
	b.ReportMetric(float64(namesOf(book.catalog)), "names/op")
}

// BenchmarkScanChapter finds the mentions in one chapter, as hover and
// a chapter's diagnostics need. Target: ≤ 2 ms for 5,000 words.
func BenchmarkScanChapter(b *testing.B) {
	book := benchBook(b)
	m := manuscript.NewMatcher(book.catalog)
	total := 0
	for _, u := range book.units {
		total += len(m.Scan(u.Text))
	}
	if total == 0 {
		b.Fatal("the corpus chapters mention nothing")
	}
	i := 0
	for b.Loop() {
		m.Scan(book.units[i%len(book.units)].Text)
		i++
	}
	b.ReportMetric(float64(total)/float64(len(book.units)), "mentions/op")
	b.ReportMetric(float64(book.words)/float64(len(book.units)), "words/op")
}

// BenchmarkScanManuscript covers the whole book: "index" builds the
// mention index (mentions and untracked names, on every core), "scan"
// runs the matcher alone on one core. Target: ≤ 300 ms.
func BenchmarkScanManuscript(b *testing.B) {
	book := benchBook(b)
	m := manuscript.NewMatcher(book.catalog)
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			manuscript.BuildMentionIndex(m, book.units)
		}
		b.ReportMetric(float64(book.words), "words/op")
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for _, u := range book.units {
				m.Scan(u.Text)
			}
		}
		b.ReportMetric(float64(book.words), "words/op")
	})
}

// BenchmarkRescanChapter replaces one edited chapter in the index of the
// whole book, as every keystroke in an open chapter does. Target: ≤ 5 ms.
func BenchmarkRescanChapter(b *testing.B) {
	book := benchBook(b)
	m := manuscript.NewMatcher(book.catalog)
	ix := manuscript.BuildMentionIndex(m, book.units)
	middle := book.units[len(book.units)/2]
	edited := manuscript.NewUnit(middle.Path, middle.Text+"\nOne more line.\n", 2)
	edited.Position = middle.Position
	var next *manuscript.MentionIndex
	for b.Loop() {
		next = ix.WithUnit(m, edited)
	}
	if len(next.Mentions(edited.Path)) == 0 {
		b.Fatal("the edited chapter mentions nothing")
	}
}

// BenchmarkMatcherRead reads the matcher of BenchmarkMatcherBuild's
// entries from its file, as a warm start does (ReadMatcher), against
// building it.
func BenchmarkMatcherRead(b *testing.B) {
	book := benchBook(b)
	entries := book.catalog.All()
	path := filepath.Join(b.TempDir(), "names.bin")
	if err := manuscript.SaveMatcher(path, manuscript.NewMatcherOf(entries)); err != nil {
		b.Fatal(err)
	}
	if info, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(info.Size())/1e6, "file-MB")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := manuscript.ReadMatcher(path, entries); err != nil {
			b.Fatal(err)
		}
	}
}
