package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quire-ink/quire/codex/corpus"
)

// seriesOverrides is how many series entries each book of a generated
// series overrides, as a writer's later book revises a few characters:
// enough that every book merges, few enough that the series' canon is
// what each book reads.
const seriesOverrides = 5

// seriesCorpus is what writeSeriesCorpus wrote: the series folder, the
// books naming it, and the corpus whose entries the series holds.
type seriesCorpus struct {
	Series string
	Books  []string
	*corpus.Corpus
}

// writeSeriesCorpus writes a series of books into dir, which must be
// empty or missing: the corpus' codex in dir/series, and books
// dir/book-1… whose quire.yaml names it (`series: ../series`), each with
// the corpus' chapters and its own overrides of a few series entries
// (each book overrides different ones). The books read the series only
// once the writer trusts them. The chapters are the same in every book:
// what each book pays for its chapters is the same as for different
// ones of that size.
func writeSeriesCorpus(ctx context.Context, dir string, opt corpus.Options, books int) (*seriesCorpus, error) {
	if books < 1 {
		return nil, fmt.Errorf("a series needs at least one book, not %d", books)
	}
	if list, err := os.ReadDir(dir); err == nil && len(list) > 0 {
		return nil, fmt.Errorf("corpus folder %s is not empty", dir)
	}
	series := filepath.Join(dir, "series")
	c, err := corpus.Generate(ctx, series, opt)
	if err != nil {
		return nil, err
	}
	out := &seriesCorpus{Series: series, Corpus: c}
	chapters := filepath.Join(series, "manuscript")
	for i := range books {
		book := filepath.Join(dir, fmt.Sprintf("book-%d", i+1))
		if err := os.MkdirAll(book, 0o755); err != nil {
			return nil, err
		}
		yaml := fmt.Sprintf("title: Book %d\nseries: ../series\n", i+1)
		if err := os.WriteFile(filepath.Join(book, "quire.yaml"), []byte(yaml), 0o644); err != nil {
			return nil, err
		}
		if err := copyTree(chapters, filepath.Join(book, "manuscript")); err != nil {
			return nil, err
		}
		if err := writeOverrides(book, c, i); err != nil {
			return nil, err
		}
		out.Books = append(out.Books, book)
	}
	// The series holds canon only; its chapters went to the books.
	if err := os.RemoveAll(chapters); err != nil {
		return nil, err
	}
	return out, nil
}

// writeOverrides writes book n's overrides: characters of the series
// from the end of the corpus' list (chapter 1 mentions its first names
// more often), a different few for each book, each changing its summary
// and leaving the rest to the series.
func writeOverrides(book string, c *corpus.Corpus, n int) error {
	var chars []corpus.Entry
	for _, e := range c.Entries {
		if e.Type == "character" {
			chars = append(chars, e)
		}
	}
	for k := range seriesOverrides {
		i := len(chars) - 1 - n*seriesOverrides - k
		if i < 0 {
			return nil
		}
		e := chars[i]
		rel := filepath.Join("codex", "characters", "book-"+corpus.Slug(e.Name)+".md")
		text := fmt.Sprintf("---\ntype: character\nname: %q\noverrides: %q\nsummary: \"In this book, older and warier.\"\n---\n", e.Name, e.Name)
		p := filepath.Join(book, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the regular files and folders under from to to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}
