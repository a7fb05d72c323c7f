package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/wire"
)

// quire/lookup, quire/search and quire/list: the canon as the advisor's
// tools see it, for plugins and, as commands, for every editor.

func (s *Server) quireLookup(ctx context.Context, a wire.LookupParams) (wire.QueryResult, error) {
	if a.Name == "" {
		return wire.QueryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "name is required")
	}
	if err := codex.CheckName(a.Name); err != nil {
		return wire.QueryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.QueryResult{}, err
	}
	t := codex.ParseType(string(a.Type))
	return wire.QueryResult{Query: codex.Echo(a.Name), Type: t, Results: entriesOf(proj.view().Lookup(a.Name, t))}, nil
}

func (s *Server) quireSearch(ctx context.Context, a wire.SearchParams) (wire.QueryResult, error) {
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.QueryResult{}, err
	}
	t := codex.ParseType(string(a.Type))
	results, err := proj.view().Search(ctx, a.Query, codex.SearchOptions{Type: t, Tags: a.Tags, Status: a.Status})
	if err != nil {
		return wire.QueryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return wire.QueryResult{Query: codex.Echo(a.Query), Type: t, Results: entriesOf(results)}, nil
}

func (s *Server) quireList(ctx context.Context, a wire.ListParams) (wire.ListResult, error) {
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.ListResult{}, err
	}
	t := codex.ParseType(string(a.Type))
	entries := entriesOf(proj.view().List(t))
	return wire.ListResult{Type: t, Count: len(entries), Entries: entries}, nil
}

// quireLookupCommand is quire.lookup as a command: the best entry opened,
// or named with its summary and file.
func (s *Server) quireLookupCommand(ctx context.Context, a wire.LookupParams) (wire.QueryResult, error) {
	res, err := s.quireLookup(ctx, a)
	if err != nil {
		return res, err
	}
	if len(res.Results) == 0 {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("No codex entry matches %q.", res.Query))
		return res, nil
	}
	e := res.Results[0]
	path := filepath.Join(e.ProjectPath, filepath.FromSlash(e.RelativePath))
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s (%s)", e.Name, e.Type)
	if e.Summary != "" {
		fmt.Fprintf(&msg, ": %s", e.Summary)
	}
	fmt.Fprintf(&msg, "\n\n%s", path)
	s.showDoc(ctx, path, msg.String())
	return res, nil
}
