package server

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// seriesDiagnostics are the problems of a file of a series folder that
// an open book reads: what `quire check` reports for it (its front
// matter, its links, its progressions and style rules), on the series
// file's own URI, since no book's editor owns the series folder. Each
// book of the series finds them in its merged canon; the union is
// published, each problem once, however many books of the series are
// open. A problem only some of those books find says which
// (series_books.go). ok is false when no open book reads a series
// holding path.
func (s *Server) seriesDiagnostics(ctx context.Context, uri protocol.DocumentURI, path string) ([]protocol.Diagnostic, int32, bool) {
	var readers []*openBook
	var cats []*codex.Catalog
	var store *codex.Store
	rel := ""
	held := false
	for _, r := range s.seriesReaders(path) {
		s.syncEdits(r.book)
		store, rel = r.store, r.rel
		cat := r.book.catalog()
		readers, cats = append(readers, r.book), append(cats, cat)
		if _, ok := cat.Get(path); ok {
			held = true
		}
	}
	if store == nil {
		return nil, 0, false
	}
	saved, isEntry := store.Catalog().Get(rel)
	var text string
	var version int32
	var lines *textdoc.Lines
	doc, open := s.openText(uri)
	// The writer's unsaved text: the series' problems are of the saved
	// one, and would stand at the wrong places in it.
	edited := open && (!isEntry || saved.Source != doc.Text)
	found := make([][]codex.Problem, len(readers))
	for i, p := range readers {
		if edited {
			typ, _ := codex.TypeFromFolder(filepath.Base(filepath.Dir(path)))
			if isEntry {
				typ = saved.Type
			}
			found[i] = editedProblems(path, doc.Text, typ, cats[i])
			continue
		}
		found[i] = slices.Clone(cats[i].ProblemsIn(path))
		tl := p.timelineFor(p.ms.Snapshot())
		for _, prob := range slices.Concat(tl.Canon().Problems(), tl.Problems()) {
			if prob.Path == path {
				found[i] = append(found[i], prob)
			}
		}
		if isEntry && !held {
			// Every open book overrides the entry: its own problems, as
			// the series reads it, are still the series file's, and
			// every book's.
			for _, prob := range store.Catalog().ProblemsIn(rel) {
				prob.Path = path
				found[i] = append(found[i], prob)
			}
		}
	}
	if open {
		text, version, lines = doc.Text, doc.Version, doc.Lines
	} else {
		// An entry's text as the series read it; a file the series
		// does not read as an entry (its front matter broken) from
		// disk, bounded as an entry is, unless a link leads it out of
		// the series: its problems are placed in that text.
		if isEntry || codex.InsideProject(store.Root(), path) {
			var err error
			if text, err = (&seriesFile{store: store, rel: rel, path: path}).savedText(); err != nil {
				return nil, 0, ctx.Err() == nil
			}
		}
		lines = textdoc.NewLines(text)
	}
	union := unionOfBooks(found)
	problems := make([]codex.Problem, len(union))
	for i, f := range union {
		problems[i] = f.prob
	}
	var out []protocol.Diagnostic
	for i, prob := range codex.CapProblems(problems) {
		d := problemDiagnostic(prob, text, lines)
		if i < len(union) && prob.Code != codex.CodeTooManyProblems && len(union[i].books) < len(readers) {
			var names []string
			for _, b := range union[i].books {
				names = append(names, bookName(readers[b]))
				d.RelatedInformation = append(d.RelatedInformation, bookCause(readers[b], cats[b], path, prob)...)
			}
			d.Message += inBooks(names)
		}
		out = append(out, d)
	}
	return out, version, ctx.Err() == nil
}

// editedProblems are what reading text, the editor's text of the
// series file at path, finds: its front matter, and its links to no
// entry of cat (or to a section the entry lacks), the canon of a book
// that reads the series.
func editedProblems(path, text string, typ codex.Type, cat *codex.Catalog) []codex.Problem {
	parsed, problems := codex.Parse(path, []byte(text), typ)
	if parsed == nil {
		return problems
	}
	return append(problems, cat.LinkProblems(path, parsed.Links)...)
}

// inOpenSeries reports whether path lies in the series folder of a
// book open in the session.
func (s *Server) inOpenSeries(path string) bool { return len(s.seriesReaders(path)) > 0 }

// insideFolder is path relative to root, slash-separated, when root
// holds it by name.
func insideFolder(root, path string) (string, bool) {
	r, err := filepath.Rel(root, path)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}
