package main

import (
	"context"
	"fmt"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// book is a project opened whole: the codex and the manuscript, whose
// mentions are found with the codex's names. The embedded Book's View is
// the codex read with the series' (the book's alone when it names none).
type book struct {
	*mbook.Book
	store *codex.Store
	ms    *manuscript.Manuscript
}

// open opens the project's parts that opts names through the one book
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
	opts.TrustSeries = g.trustSeries
	opts.OnSeriesFailed = func(err error) {
		fmt.Fprintf(g.stderr, "quire: warning: %v; this answer reads the book without its series\n", err)
	}
	return mbook.Open(ctx, dir, opts)
}

// trustSeries says whether the series folder the book's quire.yaml names
// may be read: it reaches outside the book, so only once the writer has
// trusted exactly what the book asks (llm.BookReach). When not, stderr
// says what to do.
func (g *globalOptions) trustSeries(l *settings.Loaded, root string) bool {
	reach, err := llm.BookReachFrom(l.Book)
	if err != nil || reach.Series == "" {
		return false // the setting's own problem is reported where it is read
	}
	guarded, _, err := reach.Guard(root, g.trustStore())
	if err != nil {
		fmt.Fprintln(g.stderr, "quire: warning:", err)
	}
	if guarded.Series == "" {
		fmt.Fprintf(g.stderr, "quire: this book's quire.yaml names a series folder (series: %s) outside the book; "+
			"quire reads it only once you trust the book, so this answer reads the book without its series canon. "+
			"If you trust this book, run: quire trust %s\n", reach.Series, root)
		return false
	}
	return true
}

// settingsSourcesFunc says where a book's settings files are read from;
// tests count the reads through it.
type settingsSourcesFunc func(root string) settings.Sources

func (g *globalOptions) openBook(ctx context.Context) (*book, error) {
	b, err := g.open(ctx, mbook.Options{})
	if err != nil {
		return nil, err
	}
	return &book{Book: b, store: b.Store, ms: b.Manuscript}, nil
}

// entry describes a codex entry by ID for a table: its name and type, or
// the ID when the entry is gone.
func (b *book) entry(id string) (name string, typ codex.Type) {
	if e, ok := b.View.Catalog().Get(id); ok {
		return e.Name, e.Type
	}
	return id, ""
}

// openPassages opens the manuscript's paragraph index beside the codex
// index (mbook.Book.OpenPassages), warnings on stderr.
func (g *globalOptions) openPassages(ctx context.Context, b *book) (*manuscript.Passages, error) {
	return b.OpenPassages(ctx, func(why string) { fmt.Fprintln(g.stderr, "quire: warning:", why) })
}
