package codex

import (
	"cmp"
	"context"
	"slices"
	"sync"
)

// View is a book's codex store read with the store of its series: what
// the command line's queries read. The series store is the series
// folder opened as a codex of its own (codex.Open on the series root),
// so every confinement rule of a codex applies to it exactly, and
// several books may share one. A View without a series reads the book
// alone. The merged catalog is made once per pair of catalogs.
type View struct {
	book, series *Store
	catalogs     *SeriesCatalogs

	mu                 sync.Mutex
	bookCat, seriesCat *Catalog
	merged             *Merged
}

// NewView reads book with series; series may be nil.
func NewView(book, series *Store) *View { return NewSharedView(book, series, nil) }

// NewSharedView is NewView with the series' catalogs that the books of a
// workspace share (nil makes the view's own).
func NewSharedView(book, series *Store, catalogs *SeriesCatalogs) *View {
	if catalogs == nil && series != nil {
		catalogs = NewSeriesCatalogs(series.Root())
	}
	return &View{book: book, series: series, catalogs: catalogs}
}

// Book is the book's own store.
func (v *View) Book() *Store { return v.book }

// Series is the series' store; nil when the book is in no series.
func (v *View) Series() *Store { return v.series }

// Root is the book's folder.
func (v *View) Root() string { return v.book.Root() }

// Merged is the book's catalog merged with the series' as they are now.
func (v *View) Merged() *Merged {
	b := v.book.Catalog()
	var s *Catalog
	if v.series != nil {
		s = v.series.Catalog()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.merged == nil || v.bookCat != b || v.seriesCat != s {
		if v.catalogs == nil {
			v.merged = MergeSeries(v.book.Root(), b, "", nil)
		} else {
			v.merged = v.catalogs.Merge(v.book.Root(), b, s)
		}
		v.bookCat, v.seriesCat = b, s
	}
	return v.merged
}

// Catalog is the merged catalog.
func (v *View) Catalog() *Catalog { return v.Merged().Catalog }

// Lookup finds entries of both roots by name, best first.
func (v *View) Lookup(name string, t Type) []Result { return v.Merged().Lookup(name, t) }

// List describes every entry of both roots of a type.
func (v *View) List(t Type) []Result { return v.Merged().List(t) }

// Search runs q over both indexes; a series entry the book overrides is
// found as the book's entry, once, with its better score.
func (v *View) Search(ctx context.Context, q string, opt SearchOptions) ([]Result, error) {
	if v.series == nil {
		return v.book.Search(ctx, q, opt)
	}
	hits, err := v.book.Search(ctx, q, opt)
	if err != nil {
		return nil, err
	}
	seriesHits, err := v.series.Search(ctx, q, opt)
	if err != nil {
		return nil, err
	}
	return v.combine(hits, seriesHits, opt), nil
}

// SearchNow is Store.SearchNow over both roots: names matched in the
// catalogs while either search index is still being built, and
// fromCatalog says so.
func (v *View) SearchNow(ctx context.Context, q string, opt SearchOptions) (results []Result, fromCatalog bool, err error) {
	if v.series == nil {
		return v.book.SearchNow(ctx, q, opt)
	}
	hits, bookNames, err := v.book.SearchNow(ctx, q, opt)
	if err != nil {
		return nil, bookNames, err
	}
	seriesHits, seriesNames, err := v.series.SearchNow(ctx, q, opt)
	if err != nil {
		return nil, seriesNames, err
	}
	return v.combine(hits, seriesHits, opt), bookNames || seriesNames, nil
}

// combine merges the hits of the book's index and the series', best
// first.
func (v *View) combine(hits, seriesHits []Result, opt SearchOptions) []Result {
	m := v.Merged()
	best := map[string]Result{}
	add := func(e *Entry, hit Result) {
		r := m.Result(e)
		r.Score, r.Excerpt = hit.Score, hit.Excerpt
		if old, ok := best[e.ID]; !ok || old.Score < r.Score {
			best[e.ID] = r
		}
	}
	for _, h := range hits {
		if e, ok := m.Catalog.Get(h.RelativePath); ok {
			add(e, h)
		}
	}
	for _, h := range seriesHits {
		if e, ok := m.FromSeries(h.RelativePath); ok {
			add(e, h)
		}
	}
	out := make([]Result, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Result) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Name, b.Name))
	})
	limit := opt.resultLimit()
	return out[:min(len(out), limit)]
}
