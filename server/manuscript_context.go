package server

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quireManuscriptContext reads manuscript units as the advisor's
// get_manuscript_context does; "current" is the document in uri, and
// "selection" the last captured selection.
func (s *Server) quireManuscriptContext(ctx context.Context, a wire.ContextParams) (wire.ManuscriptContext, error) {
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.ManuscriptContext{}, err
	}
	refs := a.Refs
	if a.Ref != "" {
		refs = append([]string{a.Ref}, refs...)
	}
	place := manuscript.Place{}
	if path, ok := textdoc.URIPath(a.URI); ok {
		if _, rel, ok := s.projectFor(path); ok {
			place.Current = rel
		}
	}
	if sel := s.sess.captured(); sel != nil && sel.proj == proj {
		place.Selection = sel.sel
	}
	result, err := proj.ms.Snapshot().Context(refs, place, manuscript.Limits{})
	if err != nil {
		return wire.ManuscriptContext{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return manuscriptContextOf(result), nil
}
