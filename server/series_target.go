package server

import (
	"fmt"
	"io"
	"os"

	"github.com/quire-ink/quire/codex"
)

// A series folder is no book: no project holds its files, yet the writer
// reaches them (go to definition of a series entry opens one) and asks
// there what they ask in a book's codex file. Such a request answers
// from the canon of a book that reads the series, as that book merges
// it: the card of a name or [[link]], where it is defined, the [[ names
// to complete, the file's outline, its references.

// seriesFile is a file of the series folder of an open book, as a
// request on it sees it.
type seriesFile struct {
	// store is the series the book reads; rel the file's path in it,
	// slash-separated; path the file's real path, which is the ID of
	// its entry in the book's merged catalog when the book does not
	// override it.
	store     *codex.Store
	rel, path string
}

// seriesBookFor finds the book whose canon answers for path, a file of
// no book: the first open book, in workspace order (the order of the
// workspace's folders, then of the books found later), that is loaded,
// reads a series (so the writer trusts it: an untrusted book keeps no
// series) and whose series folder holds path. Several books of one
// series each merge it under their own entries; the first one's merge
// answers, as it is the one a writer who opened the books in that order
// most likely came from. Symlinks are resolved first, so a file that
// lies in the series by name but leads out of it is no series file, and
// a name that merely begins as the folder's does (../the-series-old) is
// not inside it.
func (s *Server) seriesBookFor(path string) (*openBook, *seriesFile, bool) {
	real, err := resolveExisting(path)
	if err != nil {
		return nil, nil, false
	}
	readers := s.seriesReaders(real)
	if len(readers) == 0 {
		return nil, nil, false
	}
	r := readers[0]
	return r.book, &seriesFile{store: r.store, rel: r.rel, path: real}, true
}

// seriesReader is an open book that reads the series holding a file: the
// series' store, and the file's slash-separated path in it.
type seriesReader struct {
	book  *openBook
	store *codex.Store
	rel   string
}

// seriesReaders are the open books, in workspace order, that are loaded
// and read a series whose folder holds path (a real path).
func (s *Server) seriesReaders(path string) []seriesReader {
	var out []seriesReader
	for _, p := range s.loadedProjects() {
		st := p.seriesStore()
		if st == nil {
			continue
		}
		if rel, ok := insideFolder(st.Root(), path); ok {
			out = append(out, seriesReader{book: p, store: st, rel: rel})
		}
	}
	return out
}

// entryType is the type of the file's entry in the series codex, as the
// series store read it; ok is false when the file is no entry.
func (f *seriesFile) entryType() (codex.Type, bool) {
	e, ok := f.store.Catalog().Get(f.rel)
	if !ok {
		return "", false
	}
	return e.Type, true
}

// savedText is the file's text when the editor does not have it open:
// its entry's as the series store read it, else the Markdown file read
// from the series folder, bounded as a codex entry is.
func (f *seriesFile) savedText() (string, error) {
	if e, ok := f.store.Catalog().Get(f.rel); ok {
		return e.Source, nil
	}
	if !codex.IsMarkdown(f.rel) {
		return "", fmt.Errorf("series file %s: not Markdown", f.rel)
	}
	file, err := os.Open(f.path)
	if err != nil {
		return "", fmt.Errorf("series file %s: %w", f.rel, err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, codex.MaxEntryBytes+1))
	if err != nil {
		return "", fmt.Errorf("series file %s: %w", f.rel, err)
	}
	if len(data) > codex.MaxEntryBytes {
		return "", fmt.Errorf("series file %s: over %d bytes", f.rel, codex.MaxEntryBytes)
	}
	return string(codex.DecodeText(data)), nil
}

// renameRefusal says why a rename asked in a series file is refused,
// or "" when it is not: e is an entry the answering book overrides, so
// a rename would rename that book's entry and leave the series entry,
// whose file the writer is in, as it is.
func (t *target) renameRefusal(e *codex.Entry) string {
	if t.series == nil {
		return ""
	}
	src := t.proj.canon().Source(e)
	if src == nil || src.Book == nil {
		return ""
	}
	return fmt.Sprintf("the book %s has its own entry for %s over the series' (%s), so a rename here would rename that book's entry, not the series'. "+
		"To rename the series entry, change `name:` in its file; to rename the book's, rename it from that book.",
		bookName(t.proj), e.Name, src.Book.ID)
}
