package server

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// codeLens puts a chapter's count and target above its title: the first
// level-1 heading, else the file's first line. Choosing it shows the
// book's summary (quire.wordCounts). Documents that are not chapters
// have none.
func (s *Server) codeLens(ctx context.Context, p protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	lenses := []protocol.CodeLens{}
	file, ok := textdoc.URIPath(p.TextDocument.URI)
	if !ok {
		return lenses, nil
	}
	proj, rel, ok := s.projectFor(file)
	if !ok || s.ready(ctx, proj) != nil {
		return lenses, nil
	}
	u, ok := proj.ms.Snapshot().Unit(rel)
	if !ok || u.Position == 0 {
		return lenses, nil
	}
	at := 0
	for _, h := range u.Headings {
		if h.Level == 1 {
			at = h.HeadingRange.Start
			break
		}
	}
	pos := textdoc.NewLines(u.Text).Position(at)
	pos.Character = 0
	c := goals.Chapter{Words: u.Words, Target: u.Meta.Target}
	return append(lenses, protocol.CodeLens{
		Range: protocol.Range{Start: pos, End: pos},
		Command: &protocol.Command{Title: c.Lens(), Command: wire.CommandWordCounts,
			Arguments: []any{wire.BookParams{URI: p.TextDocument.URI}}},
	}), nil
}
