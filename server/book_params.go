package server

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"

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
