package main

import (
	"context"
	"fmt"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// wholeBook is a book opened whole for a command: the codex and the
// manuscript, whose mentions are found with the codex's names. The
// embedded Book's View is the codex read with the series' (the book's
// alone when it names none).
type wholeBook struct {
	*mbook.Book
	store *codex.Store
	ms    *manuscript.Manuscript
}

// open opens the book's parts that opts names through the one book
// opener (manuscript/book), with this command's cache folder and logger.
// When another quire process holds the index, the command works from a
// temporary in-memory index (unless opts.FailWhenLocked), and a cache
// that cannot be written does too; stderr says so, stdout stays the
// command's answer.
func (g *globalOptions) open(ctx context.Context, opts mbook.Options) (*mbook.Book, error) {
	dir, err := g.projectDir()
	if err != nil {
		return nil, err
	}
	opts.Cache = mbook.CacheOptions{Dir: g.CacheDir}
	opts.Logger = g.logger()
	opts.OnFallback = func(why string) {
		fmt.Fprintln(g.stderr, "quire: warning:", why)
	}
	opts.OnWatchFallback = func(why string) {
		fmt.Fprintln(g.stderr, "quire: warning:", why)
	}
	opts.OnLocked = func() {
		fmt.Fprintln(g.stderr, "quire: the index is in use by another quire process; using a temporary in-memory index")
	}
	if g.settingsSources != nil {
		opts.Settings = g.settingsSources(dir)
	}
	// The series folder lies outside the book: it is read only once the
	// writer trusted exactly what the book asks, and stderr says so when
	// not.
	// A book that names no series needs no record of trusted books, so
	// only one that does hears that there is none (trustStore's words).
	store, storeErr := trust.Default()
	opts.Trust = store
	opts.OnSeriesUntrusted = func(root, series string, err error) {
		if storeErr != nil {
			fmt.Fprintf(g.stderr, "quire: %v; no book is trusted\n", storeErr)
		}
		if err != nil {
			fmt.Fprintln(g.stderr, "quire: warning:", err)
		}
		fmt.Fprintf(g.stderr, "quire: this book's quire.yaml names a series folder (series: %s) outside the book; "+
			"quire reads it only once you trust the book, so this answer reads the book without its series canon. "+
			"If you trust this book, run: quire trust %s\n", series, root)
	}
	opts.OnSeriesFailed = func(err error) {
		fmt.Fprintf(g.stderr, "quire: warning: %v; this answer reads the book without its series\n", err)
	}
	return mbook.Open(ctx, dir, opts)
}

// settingsSourcesFunc says where a book's settings files are read from;
// tests count the reads through it.
type settingsSourcesFunc func(root string) settings.Sources

// openBook opens the book whole (wholeBook).
func (g *globalOptions) openBook(ctx context.Context) (*wholeBook, error) {
	b, err := g.open(ctx, mbook.Options{})
	if err != nil {
		return nil, err
	}
	return &wholeBook{Book: b, store: b.Store, ms: b.Manuscript}, nil
}

// entry describes a codex entry by ID for a table: its name and type, or
// the ID when the entry is gone.
func (b *wholeBook) entry(id string) (name string, typ codex.Type) {
	if e, ok := b.View.Catalog().Get(id); ok {
		return e.Name, e.Type
	}
	return id, ""
}

// openPassages opens the manuscript's paragraph index beside the codex
// index (mbook.Book.OpenPassages), warnings on stderr.
func (g *globalOptions) openPassages(ctx context.Context, b *wholeBook) (*manuscript.Passages, error) {
	return b.OpenPassages(ctx, func(why string) { fmt.Fprintln(g.stderr, "quire: warning:", why) })
}
