package server

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/outline"
	"github.com/quire-ink/quire/server/textdoc"
)

// documentSymbol outlines a document: a chapter by its scenes (with
// pov, day, status and words in each one's detail), any other document
// by its headings.
func (s *Server) documentSymbol(ctx context.Context, p protocol.DocumentSymbolParams) ([]protocol.DocumentSymbol, error) {
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument})
	if err != nil || !ok {
		return []protocol.DocumentSymbol{}, err
	}
	if t.series == nil {
		if u, ok := chapterUnit(t.snap, t.rel, t.text, 0); ok && u.Position > 0 {
			return chapterSymbols(t.lines, u, t.proj.configOf().outline.Rules), nil
		}
	}
	outline := codex.OutlineOf([]byte(t.text))
	return nestSections(t.lines, outline.Sections), nil
}

// chapterSymbols outline a chapter as one symbol, the chapter, holding
// its scenes in order; a heading inside a scene that opens none is the
// scene's child.
func chapterSymbols(lines *textdoc.Lines, u *manuscript.Unit, rules manuscript.SceneRules) []protocol.DocumentSymbol {
	scenes := u.Scenes(rules)
	times := manuscript.SceneTimes(u, scenes)
	note := u.ChapterNote(rules)
	words := 0
	for _, sc := range scenes {
		words += sc.Words
	}
	whole := protocol.Range{Start: protocol.Position{}, End: lines.Position(len(u.Text))}
	titleAt := lines.RangeOf(u.Body.Start, u.Body.Start)
	for _, h := range u.Headings {
		if h.Level == 1 && h.Heading == u.Title {
			titleAt = lines.RangeOf(h.HeadingRange.Start, h.HeadingRange.End)
			break
		}
	}
	chapter := protocol.DocumentSymbol{
		Name:           u.Title,
		Detail:         outline.CardOf(u.Title, u.Meta, note.Status, words).Facts(),
		Kind:           protocol.SymbolKindNamespace,
		Range:          whole,
		SelectionRange: titleAt,
		Children:       []protocol.DocumentSymbol{},
	}
	for i, sc := range scenes {
		at := sc.Break
		if at == (codex.Range{}) {
			at = codex.Range{Start: sc.Range.Start, End: sc.Range.Start}
		}
		var inner []codex.Section
		for _, h := range u.Headings {
			if h.HeadingRange.Start > at.Start && h.HeadingRange.End <= sc.Range.End && h.HeadingRange.Start >= sc.Range.Start && h.Heading != u.Title {
				h.Range.End = min(h.Range.End, sc.Range.End)
				inner = append(inner, h)
			}
		}
		chapter.Children = append(chapter.Children, protocol.DocumentSymbol{
			Name:           sc.Title(),
			Detail:         outline.CardOf(sc.Title(), times[i], sc.Note.Status, sc.Words).Facts(),
			Kind:           protocol.SymbolKindEvent,
			Range:          lines.RangeOf(sc.Range.Start, sc.Range.End),
			SelectionRange: lines.RangeOf(at.Start, at.End),
			Children:       nestSections(lines, inner),
		})
	}
	return []protocol.DocumentSymbol{chapter}
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
