package server

import (
	"path"
	"slices"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// codexOverlay holds the editor's texts of a book's open codex files
// (entries and souls, by project-relative path). The codex store reads
// the disk; what the writer sees is the editor's text, saved or not, so
// hover, mentions, untracked-name hints and the codex's problems use the
// store's catalog with these texts laid over it.
type codexOverlay struct {
	mu    sync.Mutex
	texts map[string]string
	gen   uint64
	// The catalog last built, for base (and the series catalog) at gen,
	// merged with the series' canon (series.go).
	base      *codex.Catalog
	seriesCat *codex.Catalog
	builtGen  uint64
	merged    *codex.Merged
	// series is the store of the book's series canon (shared with the
	// other books of the workspace); nil when the book reads none. It
	// changes when quire.yaml's series: or the writer's trust does
	// (series.go), so it is read under mu (seriesStore).
	series         *codex.Store
	seriesCatalogs *codex.SeriesCatalogs
	// view reads the saved book with its series (quire/lookup, search,
	// list); made on first use.
	view *codex.View

	// namesMu orders the changes of the project's matcher: the watcher's
	// (follow) and the editor's (namesChanged). matcherCat is the catalog
	// the current matcher was built from.
	namesMu    sync.Mutex
	matcherCat *codex.Catalog
}

// setCodexText records the editor's text of rel; it reports whether that
// changed anything.
func (p *openBook) setCodexText(rel, text string) bool {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if old, ok := o.texts[rel]; ok && old == text {
		return false
	}
	if o.texts == nil {
		o.texts = map[string]string{}
	}
	o.texts[rel] = text
	o.gen++
	return true
}

// dropCodexText forgets rel's editor text: it was closed.
func (p *openBook) dropCodexText(rel string) bool {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.texts[rel]; !ok {
		return false
	}
	delete(o.texts, rel)
	o.gen++
	return true
}

// catalog is the book's codex as the writer sees it: the store's, with
// the editor's texts of open codex files in place of the saved ones,
// read with the series canon when the book has one.
func (p *openBook) catalog() *codex.Catalog { return p.canon().Catalog }

// canon is catalog with where each entry's facts come from: the book's
// files or the series folder's (codex.MergeSeries). The editor's texts
// are laid over the book's entries before the merge, so an open
// override still takes what it leaves out from the series.
func (p *openBook) canon() *codex.Merged { return p.canonOf(p.store) }

// canonOf is canon over the catalog of store, the book's: the book's
// start asks it before it sets p.store (canonEarly).
func (p *openBook) canonOf(store *codex.Store) *codex.Merged {
	base := store.Catalog()
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	var series *codex.Catalog
	if o.series != nil {
		series = o.series.Catalog()
	}
	if o.merged == nil || o.base != base || o.seriesCat != series || o.builtGen != o.gen {
		if o.seriesCatalogs != nil {
			// The series' index is the workspace's, shared by its books.
			o.merged = o.seriesCatalogs.Merge(p.real, overlaid(base, o.texts), series)
		} else {
			o.merged = codex.MergeSeries(p.real, overlaid(base, o.texts), "", nil)
		}
		o.base, o.seriesCat, o.builtGen = base, series, o.gen
	}
	return o.merged
}

// overlayTexts counts the codex documents open with the editor's text.
func (p *openBook) overlayTexts() int {
	o := &p.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.texts)
}

// overlaid lays texts over base. A text that no longer reads as an entry
// (its front matter half typed) leaves the saved entry standing. A file
// not on disk yet (eglot opens a new entry as an unsaved buffer) joins
// when it reads as an entry, typed by its front matter or its folder.
func overlaid(base *codex.Catalog, texts map[string]string) *codex.Catalog {
	byID := map[string]*codex.Entry{}
	souls := false
	for rel, text := range texts {
		e, ok := base.Get(rel)
		if !ok {
			souls = true
			folder, _ := codex.TypeFromFolder(path.Base(path.Dir(rel)))
			if parsed, _ := codex.Parse(rel, []byte(text), folder); parsed != nil && !isSoulPath(base, rel) {
				byID[rel] = parsed
			}
			continue
		}
		if e.Source == text {
			continue
		}
		if parsed, _ := codex.Parse(rel, []byte(text), e.Type); parsed != nil {
			parsed.Soul = e.Soul
			byID[rel] = parsed
		}
	}
	if souls {
		for _, e := range base.All() {
			if e.Soul == nil {
				continue
			}
			text, ok := texts[e.Soul.ID]
			if !ok || text == e.Soul.Source {
				continue
			}
			cp := *e
			if u, ok := byID[e.ID]; ok {
				cp = *u
			}
			cp.Soul = codex.ParseSoul(e.Soul.ID, []byte(text))
			byID[e.ID] = &cp
		}
	}
	updated := make([]*codex.Entry, 0, len(byID))
	for _, e := range byID {
		updated = append(updated, e)
	}
	return base.WithEntries(updated)
}

// isSoulPath reports whether rel is the soul of an entry in cat.
func isSoulPath(cat *codex.Catalog, rel string) bool {
	if path.Base(rel) != "soul.md" {
		return false
	}
	e, ok := cat.Get(path.Join(path.Dir(rel), "index.md"))
	return ok && e.Soul != nil && e.Soul.ID == rel
}

// setMatcherFor makes cat's names the ones found in the prose from now
// on; the mention index catches up when the caller says.
func (p *openBook) setMatcherFor(cat *codex.Catalog) *manuscript.Matcher {
	m := manuscript.NewMatcher(cat)
	p.matcher.Store(m)
	p.overlay.matcherCat = cat
	return m
}

// namesChanged follows an editor change to the codex file rel: when it
// changed a name, an alias or what a mention excludes, the matcher is
// built again, and namesChanged reports that the manuscript needs
// scanning with it (catchUpNames). Until then untracked-name hints are
// held back (diagnosticsFor), so none is given for a name the unsaved
// codex already has.
func (p *openBook) namesChanged(rel string) bool {
	o := &p.overlay
	o.namesMu.Lock()
	defer o.namesMu.Unlock()
	cat := p.catalog()
	if o.matcherCat != nil && sameNames(o.matcherCat, cat, rel) {
		return false
	}
	p.setMatcherFor(cat)
	return true
}

// catchUpNames scans the manuscript with the project's current matcher,
// unless a scan already did; the watcher's changes take turns with it.
func (p *openBook) catchUpNames() {
	p.followMu.Lock()
	defer p.followMu.Unlock()
	if m := p.matcher.Load(); p.ms.Snapshot().Mentions().Matcher() != m {
		p.ms.SetMatcher(m)
	}
}

// sameNames reports whether the entry (or the soul's entry) at rel is
// found in prose the same way in both catalogs.
func sameNames(a, b *codex.Catalog, rel string) bool {
	ea, okA := a.Get(rel)
	eb, okB := b.Get(rel)
	if okA != okB {
		return false
	}
	if !okA {
		return true // a soul: no names
	}
	return ea.Name == eb.Name && ea.Mentions == eb.Mentions &&
		slices.Equal(ea.Aliases, eb.Aliases) && slices.Equal(ea.Exclude, eb.Exclude)
}
