package server

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// Which book a request means: the one holding its uri, else the first
// one open.

// projectOf picks a project by a document URI inside it, or the first
// project when the client names none.
func (s *Server) projectOf(ctx context.Context, a wire.BookParams) (*openBook, error) {
	var proj *openBook
	if a.URI != "" {
		if path, ok := textdoc.URIPath(a.URI); ok {
			proj, _, _ = s.projectFor(path)
			if _, _, held := s.projectHolding(path); proj == nil && held {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, filepath.Base(path)+" is left out of the book: it is a link to a file outside the book's folder. "+
					"Move the file into the book's folder to use it with quire.")
			}
		}
		if proj == nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not in a quire project", a.URI))
		}
	} else {
		proj = s.sess.firstBook()
		if proj == nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "no workspace folder is open")
		}
	}
	if err := s.ready(ctx, proj); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "the project could not be opened: "+err.Error())
	}
	return proj, nil
}

// ready waits until p has loaded and has taken the editor's latest texts:
// a request then sees every keystroke sent before it.
func (s *Server) ready(ctx context.Context, p *openBook) error {
	if err := p.wait(ctx); err != nil {
		return err
	}
	s.syncEdits(p)
	return nil
}

// projectFor finds the project a file belongs to: the innermost root
// holding it, when the file does not lead out of it through a symlink
// (outside_book.go). A project opened on a folder that an open book
// reads as its series (an editor started in the series folder, then a
// chapter opened) holds no file of its own any more: the series'
// files are answered as that book's series canon (series_target.go),
// not as a book of their own, which knows none of the book's entries.
func (s *Server) projectFor(path string) (*openBook, string, bool) {
	p, rel, ok := s.projectHolding(path)
	if !ok || !p.holds(path) || s.readAsSeries(p) {
		return nil, "", false
	}
	return p, rel, true
}

// openText is the text of a document: the editor's when it is open,
// else the file's through the project (confined to it).
func (s *Server) openText(uri protocol.DocumentURI) (*textdoc.Document, bool) {
	return s.sess.doc(uri)
}
