package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-ink/quire/server/textdoc"
	"go.lsp.dev/protocol"
)

// Editors do not agree on the workspace root: eglot without version
// control takes the opened file's folder (manuscript/), Helix the folder
// it was started in. So the book is looked for upward from the workspace
// root and from each opened document: the nearest folder holding
// quire.yaml, or both codex/ and manuscript/. When a Markdown document
// opened has none, the writer is told once, instead of working in an
// empty book.

// findBook returns the book folder that holds dir, or dir itself.
func findBook(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	for {
		if isBook(dir) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// isBook reports whether dir is a book's folder.
func isBook(dir string) bool {
	if info, err := os.Stat(filepath.Join(dir, configFile)); err == nil && !info.IsDir() {
		return true
	}
	for _, sub := range []string{"codex", "manuscript"} {
		if info, err := os.Stat(filepath.Join(dir, sub)); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

// bookRoots maps the workspace roots to the books that hold them, once
// each; a root in no book stays as it is, and is returned in lost.
func bookRoots(roots []string) (books, lost []string) {
	seen := map[string]bool{}
	for _, root := range roots {
		book, ok := findBook(root)
		if !ok {
			book = filepath.Clean(root)
			lost = append(lost, book)
		}
		if !seen[book] {
			seen[book] = true
			books = append(books, book)
		}
	}
	return books, lost
}

// openProject adds the project of root and loads it in the background,
// unless a project of that folder is open already. It reports whether it
// added one.
func (s *Server) openProject(root string, book bool) bool {
	p := newOpenBook(root)
	p.names = s.names
	p.book = book
	p.trust = s.trust
	p.gate = &s.gate
	if !s.sess.addBook(p) {
		return false
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		s.loadProject(p)
	}()
	return true
}

// discoverBook opens the book of a document that lies in no book yet,
// or tells the writer once that it has none.
func (s *Server) discoverBook(ctx context.Context, uri protocol.DocumentURI) {
	path, ok := textdoc.URIPath(uri)
	if !ok || s.inQuireCache(path) {
		return
	}
	// By name: a link out of a book is told about, not taken for
	// another book.
	if p, _, ok := s.projectHolding(path); ok && p.book {
		return
	}
	// A file of a series an open book reads (go to definition opened
	// it) is the series canon, not a book of its own: no book is looked
	// for, and its problems are the series' (seriesDiagnostics).
	if s.inOpenSeries(path) {
		return
	}
	if root, ok := findBook(filepath.Dir(path)); ok {
		s.openProject(root, true)
		return
	}
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".md" || ext == ".markdown" {
		s.tellNoBook(ctx, filepath.Dir(path))
	}
}

// tellNoBook says, once a session, that dir is in no book.
func (s *Server) tellNoBook(ctx context.Context, dir string) {
	if !s.sess.firstNoBook() {
		return
	}
	s.showMessage(ctx, protocol.MessageTypeWarning, fmt.Sprintf("quire found no book in %s or the folders above it, so it knows no codex entries or chapters here. "+
		"A book is a folder with a quire.yaml, or with codex/ and manuscript/ folders: open the editor in your book's folder, or run \"quire init\" there to start one.", dir))
}

// inQuireCache reports whether path is in quire's own cache folder (an
// answer, a prompt), where no book is looked for.
func (s *Server) inQuireCache(path string) bool {
	dir, err := s.cacheSubdir("answers")
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(filepath.Dir(dir), path)
	return err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel)
}
