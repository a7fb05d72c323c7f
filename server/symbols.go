package server

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// documentSymbol outlines a document by its headings: chapter and scenes
// in prose, sections in a codex entry.
func (s *Server) documentSymbol(ctx context.Context, p protocol.DocumentSymbolParams) ([]protocol.DocumentSymbol, error) {
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument})
	if err != nil || !ok {
		return []protocol.DocumentSymbol{}, err
	}
	outline := codex.OutlineOf([]byte(t.text))
	return nestSections(t.lines, outline.Sections), nil
}

// nestSections turns headings in order into a tree: each heading holds
// the deeper ones that follow it.
func nestSections(lines *textdoc.Lines, sections []codex.Section) []protocol.DocumentSymbol {
	type frame struct {
		level int
		sym   *protocol.DocumentSymbol
	}
	root := &protocol.DocumentSymbol{}
	stack := []frame{{0, root}}
	for _, sec := range sections {
		for len(stack) > 1 && stack[len(stack)-1].level >= sec.Level {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].sym
		kind := protocol.SymbolKindNamespace
		if sec.Level > 1 {
			kind = protocol.SymbolKindString
		}
		name := sec.Heading
		if name == "" {
			name = "(untitled)"
		}
		parent.Children = append(parent.Children, protocol.DocumentSymbol{
			Name:           name,
			Kind:           kind,
			Range:          lines.RangeOf(sec.Range.Start, sec.Range.End),
			SelectionRange: lines.RangeOf(sec.HeadingRange.Start, sec.HeadingRange.End),
		})
		stack = append(stack, frame{sec.Level, &parent.Children[len(parent.Children)-1]})
	}
	if root.Children == nil {
		return []protocol.DocumentSymbol{}
	}
	return root.Children
}

// maxWorkspaceSymbols bounds a workspace symbol answer.
const maxWorkspaceSymbols = 100

// workspaceSymbol searches the codex of every project, with its series'
// canon: by name first (exact, partial, one typo away), then full text.
func (s *Server) workspaceSymbol(ctx context.Context, p protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	projects := s.sess.books()
	out := []protocol.SymbolInformation{}
	// A series entry that several open books read is listed once, at
	// its file in the series folder.
	seen := map[protocol.DocumentURI]bool{}
	for _, proj := range projects {
		if err := proj.wait(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		// The book's canon with its series': a series entry's ID is its
		// file's absolute path.
		cat := proj.catalog()
		add := func(e *codex.Entry) {
			uri := proj.uri(e.ID)
			if seen[uri] || len(out) >= maxWorkspaceSymbols {
				return
			}
			seen[uri] = true
			out = append(out, protocol.SymbolInformation{
				Name:          e.Name,
				Kind:          symbolKind(e.Type),
				ContainerName: string(e.Type),
				Location:      protocol.Location{URI: uri, Range: titleRange(e)},
			})
		}
		if p.Query == "" {
			for _, e := range cat.All() {
				add(e)
			}
			continue
		}
		for _, m := range cat.Lookup(p.Query, "") {
			add(m.Entry)
		}
		results, err := proj.view().Search(ctx, p.Query, codex.SearchOptions{})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for _, r := range results {
			id := r.RelativePath
			if r.Canon == codex.CanonSeries {
				id = filepath.Join(r.ProjectPath, filepath.FromSlash(r.RelativePath))
			}
			if e, ok := cat.Get(id); ok {
				add(e)
			}
		}
	}
	return out, nil
}

// symbolKind gives each entry type a distinct icon in symbol pickers.
func symbolKind(t codex.Type) protocol.SymbolKind {
	switch t {
	case codex.TypeCharacter:
		return protocol.SymbolKindClass
	case codex.TypeLocation:
		return protocol.SymbolKindModule
	case codex.TypeOrganization:
		return protocol.SymbolKindNamespace
	case codex.TypeItem:
		return protocol.SymbolKindObject
	case codex.TypeConcept:
		return protocol.SymbolKindInterface
	case codex.TypeEvent:
		return protocol.SymbolKindEvent
	case codex.TypeStyle:
		return protocol.SymbolKindProperty
	}
	return protocol.SymbolKindKey
}
