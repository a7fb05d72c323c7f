package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// projectOf picks a project by a document URI inside it, or the first
// project when the client names none.
func (s *Server) projectOf(ctx context.Context, a wire.BookParams) (*project, error) {
	var proj *project
	if a.URI != "" {
		if path, ok := uriPath(a.URI); ok {
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
		s.mu.Lock()
		if len(s.projects) > 0 {
			proj = s.projects[0]
		}
		s.mu.Unlock()
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

// optionalProject is the project of params {uri?}, which may be absent:
// then the first workspace folder's.
func (s *Server) optionalProject(ctx context.Context, params json.RawMessage) (*project, error) {
	var a wire.BookParams
	if len(params) > 0 && string(params) != "null" {
		var err error
		if a, err = decode[wire.BookParams](params); err != nil {
			return nil, err
		}
	}
	return s.projectOf(ctx, a)
}

func (s *Server) quireLookup(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.LookupParams](params)
	if err != nil {
		return nil, err
	}
	if a.Name == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "name is required")
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return nil, err
	}
	t := codex.ParseType(string(a.Type))
	return wire.QueryResult{Query: a.Name, Type: t, Results: entriesOf(proj.store.Lookup(a.Name, t))}, nil
}

func (s *Server) quireSearch(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.SearchParams](params)
	if err != nil {
		return nil, err
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return nil, err
	}
	t := codex.ParseType(string(a.Type))
	results, err := proj.store.Search(ctx, a.Query, codex.SearchOptions{Type: t, Tags: a.Tags, Status: a.Status})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return wire.QueryResult{Query: a.Query, Type: t, Results: entriesOf(results)}, nil
}

func (s *Server) quireList(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.ListParams](params)
	if err != nil && len(params) > 0 && string(params) != "null" {
		return nil, err
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return nil, err
	}
	t := codex.ParseType(string(a.Type))
	entries := entriesOf(proj.store.List(t))
	return wire.ListResult{Type: t, Count: len(entries), Entries: entries}, nil
}

// quireManuscriptContext reads manuscript units as the advisor's
// get_manuscript_context does; "current" is the document in uri, and
// "selection" the last captured selection.
func (s *Server) quireManuscriptContext(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.ContextParams](params)
	if err != nil {
		return nil, err
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return nil, err
	}
	refs := a.Refs
	if a.Ref != "" {
		refs = append([]string{a.Ref}, refs...)
	}
	turn := manuscript.Turn{}
	if path, ok := uriPath(a.URI); ok {
		if _, rel, ok := s.projectFor(path); ok {
			turn.Current = rel
		}
	}
	s.mu.Lock()
	if sel := s.selection; sel != nil && sel.proj == proj {
		turn.Selection = sel.sel
	}
	s.mu.Unlock()
	result, err := proj.ms.Snapshot().Context(refs, turn, manuscript.Limits{})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return manuscriptContextOf(result), nil
}

// capturedSelection is the selection of the current advisor turn.
type capturedSelection struct {
	proj *project
	sel  *manuscript.Selection
}

// quireCaptureSelection records the writer's selection for the next
// advisor turn and returns its metadata; the text stays in the server.
func (s *Server) quireCaptureSelection(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.CaptureParams](params)
	if err != nil {
		return nil, err
	}
	c, err := s.capture(ctx, a)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.selection = c
	s.mu.Unlock()
	return wire.CaptureResult(c.sel.Meta()), nil
}

// capture reads the selection a names from the open document, or from
// the file when it is not open.
func (s *Server) capture(ctx context.Context, a wire.CaptureParams) (*capturedSelection, error) {
	path, ok := uriPath(a.URI)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "only file: documents can be captured")
	}
	proj, rel, ok := s.projectFor(path)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not in a quire project", a.URI))
	}
	if err := s.ready(ctx, proj); err != nil {
		return nil, err
	}
	var lines *lineIndex
	if doc, open := s.openText(a.URI); open {
		lines = doc.lines
	} else {
		u, err := proj.ms.Snapshot().Document(rel)
		if err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		lines = newLineIndex(u.Text)
	}
	start, end, err := lines.rangeOffsets(a.Range)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	sel, err := proj.ms.Snapshot().CaptureSelection(rel, codex.Range{Start: start, End: end})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return &capturedSelection{proj: proj, sel: sel}, nil
}
