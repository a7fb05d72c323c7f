package server

import (
	"context"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// renameInSeries adds to changes the mentions of e's name in every other
// book of the workspace that reads the same series, when e is an entry of
// the series canon that this book does not override: renaming it renames
// it in the series folder (its `name:`, already in changes) and in every
// book the writer has open, as one edit to review. A book that overrides
// the entry keeps its own name for it and is left alone. Places that
// call e by its given name alone are given the new name's (renameGiven),
// in every book as in this one. seen holds the places the rename has
// reached: one already there (the series file's own mentions, found
// from each book) is edited and counted once. It
// returns how many places of the name it added, and what became of the
// given name's.
func (s *Server) renameInSeries(ctx context.Context, t *target, e *codex.Entry, newName string, changes map[protocol.DocumentURI][]protocol.TextEdit, seen renamePlaces) (int, givenRename, error) {
	var given givenRename
	src := t.proj.canon().Source(e)
	if src == nil || src.Book != nil {
		return 0, given, nil
	}
	projects := s.sess.books()
	places := 0
	for _, q := range projects {
		if q == t.proj {
			continue
		}
		// A book still loading has no series yet, and its chapters are
		// not scanned: wait for both before asking, or its mentions would
		// be left out of the rename.
		if err := s.ready(ctx, q); err != nil {
			return places, given, err
		}
		if qs := q.seriesStore(); qs == nil || qs.Root() != src.Root {
			continue
		}
		qe, ok := q.canon().FromSeries(src.Path)
		if !ok || q.canon().Source(qe).Book != nil {
			continue
		}
		qt := &target{proj: q, cat: q.catalog()}
		if err := qt.waitIndexed(ctx); err != nil {
			return places, given, err
		}
		occs := qt.occurrences(qe)
		names, _ := renamedOccurrences(qe, occs)
		for _, loc := range qt.locations(names) {
			if seen.mark(loc.URI, loc.Range) {
				changes[loc.URI] = append(changes[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: newName})
				places++
			}
		}
		given = given.and(qt.renameGiven(qe, occs, newName, changes, seen))
	}
	return places, given, ctx.Err()
}

// unsavedSeriesFile is the name of a series file that changes would edit
// and that the editor holds with other text than the series read: a
// series is read from disk (no editor owns the series folder), so the
// rename's places in it are where the series' text has them, and
// applied to the editor's other text they would land in the wrong
// words. "" when there is none.
func (s *Server) unsavedSeriesFile(changes map[protocol.DocumentURI][]protocol.TextEdit) string {
	uris := make([]protocol.DocumentURI, 0, len(changes))
	for uri := range changes {
		uris = append(uris, uri)
	}
	slices.Sort(uris)
	for _, uri := range uris {
		path, ok := textdoc.URIPath(uri)
		if !ok {
			continue
		}
		doc, open := s.openText(uri)
		if !open {
			continue
		}
		_, f, ok := s.seriesBookFor(path)
		if !ok {
			continue
		}
		if saved, err := f.savedText(); err != nil || saved != doc.Text {
			return filepath.Base(path)
		}
	}
	return ""
}
