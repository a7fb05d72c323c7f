package server

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/server/textdoc"
)

// A problem of a series file that only some of the open books of the
// series find depends on the book: a `from:` that names no chapter of
// one book, a name one book's own entry claims too, a link to an entry
// only the other book has. Shown on the series file without more, the
// writer would look for it in the series and not find it; so its
// message says which books find it, and its related information points
// at what in each book causes it.

// bookName is the book as a writer knows it: its title when quire.yaml
// gives one, else its folder's name (as the book map titles it).
func bookName(p *openBook) string {
	if t := strings.TrimSpace(p.configOf().settings.Title); t != "" {
		return t
	}
	return filepath.Base(p.real)
}

// inBooks is the end of the message of a problem that the books named
// find and the other open books of the series do not.
func inBooks(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (in the book " + names[0] + ")"
	}
	return " (in the books " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + ")"
}

// bookCause is what in the book p causes prob, a problem of the series
// file at path that p finds and some other open book of the series does
// not; none when quire cannot point at it.
func bookCause(p *openBook, cat *codex.Catalog, path string, prob codex.Problem) []protocol.DiagnosticRelatedInformation {
	switch prob.Code {
	case codex.CodeDuplicateName:
		return claimsOf(p, cat, path)
	case codex.CodeProgression:
		return seriesSetting(p)
	}
	return nil
}

// claimsOf are the names and aliases of the book p's own entries that
// the series entry at path claims too: where the writer renames one of
// them, or says `overrides:`.
func claimsOf(p *openBook, cat *codex.Catalog, path string) []protocol.DiagnosticRelatedInformation {
	s, ok := cat.Get(path)
	if !ok {
		return nil
	}
	keys := map[string]bool{codex.Normalize(s.Name): true}
	for _, a := range s.Aliases {
		keys[codex.Normalize(a)] = true
	}
	delete(keys, "")
	var out []protocol.DiagnosticRelatedInformation
	for _, e := range bookEntries(cat) {
		var lines *textdoc.Lines
		claim := func(what, name string, r codex.Range) {
			if lines == nil {
				lines = textdoc.NewLines(e.Source)
			}
			start, end := clampRange(r, len(e.Source))
			out = append(out, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: p.uri(e.ID), Range: lines.RangeOf(start, end)},
				Message:  fmt.Sprintf("%s %q of %s, an entry of the book %s", what, name, e.Name, bookName(p)),
			})
		}
		if keys[codex.Normalize(e.Name)] {
			claim("the name", e.Name, e.NameRange)
		}
		for i, a := range e.Aliases {
			if keys[codex.Normalize(a)] {
				r := codex.Range{}
				if i < len(e.AliasRanges) {
					r = e.AliasRanges[i]
				}
				claim("the alias", a, r)
			}
		}
	}
	return out
}

// bookEntries are the entries of a book's merged catalog that are the
// book's own (their IDs relative to the book; a series entry's is
// absolute): the book's layer when the merge made one, else every entry
// looked through.
func bookEntries(cat *codex.Catalog) []*codex.Entry {
	if l, ok := cat.SeriesLayer(); ok {
		return l.Book
	}
	var out []*codex.Entry
	for _, e := range cat.All() {
		if !filepath.IsAbs(e.ID) {
			out = append(out, e)
		}
	}
	return out
}

// seriesSetting is the `series:` line of the book p's quire.yaml, which
// makes the book read the series against its own chapters: a `from:`
// naming none of them applies nowhere in it.
func seriesSetting(p *openBook) []protocol.DiagnosticRelatedInformation {
	f, err := settings.ReadBook(p.sources().Book)
	if err != nil {
		return nil
	}
	keys := f.Keys()
	i := slices.IndexFunc(keys, func(k *yaml.Node) bool { return k.Value == "series" })
	if i < 0 {
		// The series is named elsewhere (the writer's config): no line
		// of the book to point at.
		return nil
	}
	key := keys[i]
	lines := textdoc.NewLines(string(f.Text))
	at := lines.LineRange(key.Line)
	if key.Column == 1 {
		// The key itself, as a block mapping writes it.
		start := lines.LineStart(key.Line - 1)
		at = lines.RangeOf(start, start+len(key.Value))
	}
	n := len(p.ms.Snapshot().Units())
	chapters := count.Of(n, "chapter")
	return []protocol.DiagnosticRelatedInformation{{
		Location: protocol.Location{URI: p.uri(configFile), Range: at},
		Message:  fmt.Sprintf("the book %s reads the series against its own %s, and none of them is the one `from:` names", bookName(p), chapters),
	}}
}

// foundBy is one problem of a series file and the books that find it,
// by their index among the readers of the series.
type foundBy struct {
	prob  codex.Problem
	books []int
}

// unionOfBooks lists each problem of found (the problems each reader
// finds, by reader) once, in the order first found, with the readers
// that find it.
func unionOfBooks(found [][]codex.Problem) []foundBy {
	type key struct {
		code, message string
		r             codex.Range
	}
	at := map[key]int{}
	var out []foundBy
	for book, probs := range found {
		for _, prob := range probs {
			k := key{prob.Code, prob.Message, prob.Range}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, foundBy{prob: prob})
			}
			if !slices.Contains(out[i].books, book) {
				out[i].books = append(out[i].books, book)
			}
		}
	}
	return out
}
