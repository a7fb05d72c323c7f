package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-ink/quire/server/textdoc"
	"go.lsp.dev/protocol"
)

// A document whose path lies in the book may still be a link to a file
// elsewhere (manuscript/99-notes.md -> ~/private/notes.md). The CLI and
// `quire mcp` refuse such a path; the server must too, or opening the
// link in the editor would hand the outside file's text to the
// manuscript, the advisor's tools and every feature. So a document
// belongs to a book only when its real path, symlinks resolved, is
// inside the book's real folder; the writer is told why one is left out.

// codeOutsideBook marks the warning on a document left out of its book.
const codeOutsideBook = "outside-book"

// outsideBookMessage is what the writer reads on such a document.
const outsideBookMessage = "quire leaves this file out of the book: it is a link to a file outside the book's folder, " +
	"so its text is not read as a chapter or as canon, and the advisor does not see it. " +
	"To have quire read it, move the file into the book's folder (or copy it there) instead of linking to it."

// holds reports whether path, lexically inside p, really is: the file,
// or for one not created yet its nearest existing folder, resolves to a
// place inside p's real folder.
func (p *openBook) holds(path string) bool {
	real, err := resolveExisting(path)
	if err != nil {
		// Unreadable, a loop of links: not known to stay inside.
		return false
	}
	r, err := filepath.Rel(p.real, real)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// resolveExisting resolves the symlinks of path, or of its nearest
// ancestor that exists, with the rest of the path joined back on.
func resolveExisting(path string) (string, error) {
	rest := ""
	cur := filepath.Clean(path)
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(cur)
		if !os.IsNotExist(err) || parent == cur {
			return "", err
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// warnOutsideBook puts the warning on a document that lies in a book's
// folder but leads out of it; it reports whether it did.
func (s *Server) warnOutsideBook(ctx context.Context, uri protocol.DocumentURI, version int32) bool {
	path, ok := textdoc.URIPath(uri)
	if !ok {
		return false
	}
	if _, _, ok := s.projectFor(path); ok {
		return false
	}
	if _, _, ok := s.projectHolding(path); !ok {
		return false
	}
	s.log.Warn("document left out of the book: it leads outside it", "uri", string(uri))
	s.sendDiagnostics(ctx, uri, version, []protocol.Diagnostic{{
		Severity: protocol.DiagnosticSeverityWarning,
		Code:     codeOutsideBook,
		Source:   "quire",
		Message:  outsideBookMessage,
	}})
	return true
}
