package codex

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Problem codes of a book read with its series.
const (
	// CodeSeriesShadow marks a book entry that has the name of a series
	// entry without saying `overrides:`.
	CodeSeriesShadow = "series-shadow"
	// CodeSeriesOverrides marks an `overrides:` that names no series entry.
	CodeSeriesOverrides = "series-overrides"
)

// Origin says which root a fact of a merged entry comes from.
type Origin string

const (
	OriginBook   Origin = "book"
	OriginSeries Origin = "series"
)

// Canon values of Result.Canon.
const (
	CanonSeries         = "series canon"
	CanonBookOverSeries = "book over series canon"
)

// SeriesSource is where the facts of a merged entry come from: a series
// entry, alone or overridden field by field by a book entry.
type SeriesSource struct {
	// Root is the series folder (real path); Path the series entry's file
	// relative to it.
	Root, Path string
	// Series is the series entry as the series store read it.
	Series *Entry
	// Book is the book entry that overrides it; nil when none does.
	Book *Entry
	// From names the origin of each front matter key the merged entry
	// has (lower case, synonyms folded: summary, aliases, tags) and of
	// its "body".
	From map[string]Origin
}

// File is the series entry's file, absolute.
func (s *SeriesSource) File() string { return filepath.Join(s.Root, filepath.FromSlash(s.Path)) }

// Of is where field comes from; a field no side sets is the book's when
// a book entry overrides, else the series'.
func (s *SeriesSource) Of(field string) Origin {
	if o, ok := s.From[strings.ToLower(field)]; ok {
		return o
	}
	if s.Book != nil {
		return OriginBook
	}
	return OriginSeries
}

// SeriesFields are the fields the series fills in, sorted.
func (s *SeriesSource) SeriesFields() []string {
	var out []string
	for k, o := range s.From {
		if o == OriginSeries {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Merged is a book's catalog read with its series: every series entry,
// and every book entry, where a book entry with a series entry's name
// (or `overrides: <series entry name>`) replaces that entry for this
// book field by field. A series entry that no book entry overrides has
// for its ID its file's absolute path, which no book entry can have (a
// book entry's ID is relative to the book): the two roots never collide.
// A merged entry of a book entry keeps the book entry's ID, so every
// range in it is still in the book's file.
type Merged struct {
	// Catalog holds the merged entries; its problems include the series'
	// (at their absolute paths) and the shadowing problems.
	Catalog *Catalog
	// Root is the book's folder, SeriesRoot the series'.
	Root, SeriesRoot string
	// series is the series store's catalog that was merged, book the
	// book's.
	series, book *Catalog
	// sources are the book's entries that override a series entry, by
	// ID; an entry of the series alone is known by its absolute ID.
	sources map[string]*SeriesSource
	// bySeries maps the ID of a series entry a book entry overrides to
	// that book entry's ID.
	bySeries map[string]string
}

// MergeSeries merges the series catalog (of the folder seriesRoot) under
// the book's catalog (of the folder root). Either catalog may be empty;
// a nil series gives the book's catalog as it is.
func MergeSeries(root string, book *Catalog, seriesRoot string, series *Catalog) *Merged {
	if series == nil {
		return &Merged{Root: root, SeriesRoot: seriesRoot, Catalog: book}
	}
	return NewSeriesCatalogs(seriesRoot).Merge(root, book, series)
}

// SeriesCatalogs makes, once per catalog of a series store, what every
// book of the series merges with: the series entries under their
// absolute paths, indexed as a catalog, and their names. A book's merged
// catalog is that catalog with the book's entries laid over it
// (Catalog.With), so the books of a workspace that share one
// SeriesCatalogs share the series' index too, each paying only for its
// own entries. Safe for concurrent use.
type SeriesCatalogs struct {
	root string

	mu   sync.Mutex
	from *Catalog
	abs  *Catalog
	// early is what Early began before the first catalog was made.
	early *earlySeries
	// merged are each book's last merges, by the book's folder, newest
	// first: a book's language server session and its saved view (View)
	// ask for the same pair of catalogs, and share one merged catalog
	// rather than a copy each.
	merged map[string][]*Merged
}

// keptMerges is how many merges of one book SeriesCatalogs keeps: the
// editor's (with unsaved codex texts) and the saved one.
const keptMerges = 2

// NewSeriesCatalogs serves the series folder at root.
func NewSeriesCatalogs(root string) *SeriesCatalogs { return &SeriesCatalogs{root: root} }

// of is the series as its books read it: copies of its entries at
// absolute paths, reading the series catalog's name maps through
// (Catalog.copied) rather than indexing the series a second time.
func (sc *SeriesCatalogs) of(series *Catalog) *Catalog {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.from == series && sc.abs != nil {
		return sc.abs
	}
	m := &Merged{SeriesRoot: sc.root}
	skipped := make([]Problem, 0, len(series.skipped))
	for _, p := range series.skipped {
		skipped = append(skipped, m.absProblem(p))
	}
	copyEntry := m.seriesCopy
	early := sc.takeEarly(series)
	if early != nil {
		// copied copies the entries in the order All lists them, which
		// is the order early copied them in.
		next := 0
		copyEntry = func(e *Entry) *Entry {
			if next < len(early.entries) && early.entries[next] == e {
				next++
				return early.copies[next-1]
			}
			return m.seriesCopy(e)
		}
	}
	sc.from, sc.abs = series, series.copied(copyEntry, m.seriesID, skipped)
	if early != nil {
		sc.abs.shared.seed(early)
	}
	return sc.abs
}

// Merge is the book's catalog (of the folder root) merged with series,
// the series store's catalog now. The same pair of catalogs gives the
// same merge, made once.
func (sc *SeriesCatalogs) Merge(root string, book *Catalog, series *Catalog) *Merged {
	if series == nil {
		return &Merged{Root: root, SeriesRoot: sc.root, Catalog: book}
	}
	sc.mu.Lock()
	for _, m := range sc.merged[root] {
		if m.book == book && m.series == series {
			sc.mu.Unlock()
			return m
		}
	}
	sc.mu.Unlock()
	m := sc.merge(root, book, series)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.merged == nil {
		sc.merged = map[string][]*Merged{}
	}
	kept := append([]*Merged{m}, sc.merged[root]...)
	sc.merged[root] = kept[:min(len(kept), keptMerges)]
	return m
}

// Forget drops the merges kept for the book at root: it no longer reads
// the series.
func (sc *SeriesCatalogs) Forget(root string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	delete(sc.merged, root)
}

// merge makes the merge of book and series.
func (sc *SeriesCatalogs) merge(root string, book *Catalog, series *Catalog) *Merged {
	m := &Merged{Root: root, SeriesRoot: sc.root, series: series, book: book, sources: map[string]*SeriesSource{}, bySeries: map[string]string{}}
	abs := sc.of(series)
	var updated []*Entry
	var removed []string
	var problems []Problem
	overridden := map[*Entry]bool{}
	over := map[*Entry]*SeriesSource{}
	for _, b := range book.All() {
		s, explicit := m.seriesTarget(b, series, &problems)
		if s == nil || overridden[s] {
			updated = append(updated, b)
			continue
		}
		overridden[s] = true
		if !explicit {
			problems = append(problems, Problem{Path: b.ID, Code: CodeSeriesShadow, Severity: SeverityWarning, Range: b.NameRange,
				Message: "this entry has the name of the series entry " + m.abs(s.ID) + " and replaces it in this book; add `overrides: " + s.Name + "` to say so, or rename it"})
		}
		merged, src := m.override(b, s)
		m.sources[merged.ID] = src
		over[merged] = src
		m.bySeries[s.ID] = merged.ID
		removed = append(removed, m.abs(s.ID))
		updated = append(updated, merged)
	}
	skipped := append(slices.Clone(abs.skipped), book.skipped...)
	m.Catalog = abs.With(updated, removed, append(skipped, problems...))
	m.Catalog.over = over
	m.Catalog.layered = &SeriesLayer{Series: abs, Book: updated, Hidden: removed}
	return m
}

// seriesTarget is the series entry b replaces: the one `overrides:`
// names (explicit), else the one of the same name.
func (m *Merged) seriesTarget(b *Entry, series *Catalog, problems *[]Problem) (*Entry, bool) {
	if v, ok := b.Custom.Get("overrides"); ok {
		name, _ := v.(string)
		if s, ok := series.Resolve(name); ok && strings.TrimSpace(name) != "" {
			return s, true
		}
		*problems = append(*problems, Problem{Path: b.ID, Code: CodeSeriesOverrides, Severity: SeverityWarning, Range: b.NameRange,
			Message: "`overrides:` names no entry of the series canon in " + m.SeriesRoot + "; give the name of the series entry this one replaces"})
		return nil, false
	}
	// The first series entry of that name, in catalog order.
	if same := series.byName.at(Normalize(b.Name)); len(same) > 0 {
		return same[0], false
	}
	return nil, false
}

// override is the book entry b over the series entry s: every field the
// book's front matter sets is the book's, the series fills the rest, and
// the body is the series' when the book's says nothing past its title.
func (m *Merged) override(b, s *Entry) (*Entry, *SeriesSource) {
	c := *b
	set, seriesSet := frontKeys(b), frontKeys(s)
	from := map[string]Origin{}
	for k := range set {
		from[k] = OriginBook
	}
	fill := func(key string, apply func()) {
		if !set[key] && seriesSet[key] {
			apply()
			from[key] = OriginSeries
		}
	}
	fill("title", func() { c.Title = s.Title })
	fill("aliases", func() { c.Aliases, c.AliasRanges = s.Aliases, nil })
	fill("summary", func() { c.Summary = s.Summary })
	fill("tags", func() { c.Tags = s.Tags })
	fill("status", func() { c.Status = s.Status })
	fill("locked", func() { c.Locked = s.Locked })
	fill("exclude", func() { c.Exclude = s.Exclude })
	fill("mentions", func() { c.Mentions = s.Mentions })
	custom := slices.Clone(b.Custom)
	for _, f := range s.Custom {
		key := strings.ToLower(f.Key)
		if key == "overrides" || set[key] {
			continue
		}
		if _, ok := custom.Get(f.Key); !ok {
			custom = append(custom, f)
			from[key] = OriginSeries
		}
	}
	c.Custom = custom
	if strings.TrimSpace(withoutTitle(b.BodyText())) == "" {
		from["body"] = OriginSeries
	} else {
		from["body"] = OriginBook
	}
	return &c, &SeriesSource{Root: m.SeriesRoot, Path: s.ID, Series: s, Book: b, From: from}
}

// seriesCopy is the series entry s as an entry of the merged catalog:
// its ID and its problems' paths absolute.
func (m *Merged) seriesCopy(s *Entry) *Entry {
	c := *s
	c.ID = m.abs(s.ID)
	c.Problems = m.absProblems(s.Problems)
	if s.Soul != nil {
		soul := *s.Soul
		soul.ID = m.abs(s.Soul.ID)
		soul.Problems = m.absProblems(s.Soul.Problems)
		c.Soul = &soul
	}
	return &c
}

func (m *Merged) abs(id string) string { return filepath.Join(m.SeriesRoot, filepath.FromSlash(id)) }

// seriesID is the series' own ID of the entry at the absolute path abs
// (the inverse of abs), without allocating on a slash-separated system:
// lookups of series entries ask for it.
func (m *Merged) seriesID(abs string) string {
	rel, ok := strings.CutPrefix(abs, m.SeriesRoot)
	if !ok {
		return ""
	}
	return filepath.ToSlash(strings.TrimPrefix(rel, string(filepath.Separator)))
}

func (m *Merged) absProblem(p Problem) Problem {
	p.Path = m.abs(p.Path)
	return p
}

func (m *Merged) absProblems(ps []Problem) []Problem {
	if ps == nil {
		return nil
	}
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = m.absProblem(p)
	}
	return out
}

// Source says where e's facts come from: nil for an entry of the book
// alone.
func (m *Merged) Source(e *Entry) *SeriesSource {
	if m == nil || e == nil {
		return nil
	}
	if src, ok := m.sources[e.ID]; ok {
		return src
	}
	if m.series == nil || !filepath.IsAbs(e.ID) {
		return nil
	}
	rel, err := filepath.Rel(m.SeriesRoot, e.ID)
	if err != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	s, ok := m.series.Get(rel)
	if !ok {
		return nil
	}
	return &SeriesSource{Root: m.SeriesRoot, Path: rel, Series: s, From: map[string]Origin{"body": OriginSeries}}
}

// FromSeries is the merged entry of the series entry with ID id (its
// path in the series folder).
func (m *Merged) FromSeries(id string) (*Entry, bool) {
	if mid, ok := m.bySeries[id]; ok {
		return m.Catalog.Get(mid)
	}
	return m.Catalog.Get(m.abs(id))
}

// File is the absolute path of the file that holds field of e ("body"
// for its text, "" for the entry itself): the book's file, or the series
// file when the series sets what the book leaves out.
func (m *Merged) File(e *Entry, field string) string {
	src := m.Source(e)
	switch {
	case src == nil:
		return filepath.Join(m.Root, filepath.FromSlash(e.ID))
	case src.Book == nil, field != "" && src.Of(field) == OriginSeries:
		return src.File()
	}
	return filepath.Join(m.Root, filepath.FromSlash(src.Book.ID))
}

// Result describes e as a listing shows it, saying where it comes from.
func (m *Merged) Result(e *Entry) Result {
	r := NewResult(m.Root, e)
	src := m.Source(e)
	if src == nil {
		return r
	}
	r.SeriesPath = src.File()
	if src.Book == nil {
		r.Canon = CanonSeries
		r.ProjectPath, r.RelativePath = src.Root, src.Path
	} else {
		r.Canon = CanonBookOverSeries
		r.SeriesFields = src.SeriesFields()
	}
	return r
}

// lookupResult is Result with the opening of the body (and soul) that
// holds e's text.
func (m *Merged) lookupResult(match Match) Result {
	r := m.Result(match.Entry)
	r.Match, r.Score = match.Kind, match.Score
	holder := match.Entry
	if src := m.Source(match.Entry); src != nil && src.Of("body") == OriginSeries {
		holder = src.Series
	}
	lr := lookupResult(m.Root, Match{Entry: holder})
	r.Excerpt, r.SoulExcerpt = lr.Excerpt, lr.SoulExcerpt
	return r
}

// Lookup is Catalog.Lookup over the merged catalog, as results.
func (m *Merged) Lookup(name string, t Type) []Result {
	ms := m.Catalog.Lookup(name, t)
	out := make([]Result, len(ms))
	for i, match := range ms {
		out[i] = m.lookupResult(match)
	}
	return out
}

// List describes every merged entry of a type (all types when empty).
func (m *Merged) List(t Type) []Result {
	es := m.Catalog.OfType(t)
	out := make([]Result, len(es))
	for i, e := range es {
		out[i] = m.Result(e)
	}
	return out
}

// frontKeys are the top-level keys e's front matter sets, lower case,
// synonyms folded (description: is summary, alias: aliases, tag: tags).
func frontKeys(e *Entry) map[string]bool {
	keys := map[string]bool{}
	src := []byte(e.Source)
	fm := splitFrontMatter(src)
	if !fm.Present {
		return keys
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(validPerByte(string(src[fm.YAML.Start:fm.YAML.End]))), &doc) != nil || len(doc.Content) == 0 {
		return keys
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return keys
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := strings.ToLower(strings.TrimSpace(top.Content[i].Value))
		switch k {
		case "description":
			k = "summary"
		case "alias":
			k = "aliases"
		case "tag":
			k = "tags"
		}
		keys[k] = true
	}
	return keys
}
