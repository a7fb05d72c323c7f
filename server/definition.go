package server

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// definition goes from a mention, a [[link]] or a chapter's pov: or
// location: to the entry's file, at its
// title heading.
func (s *Server) definition(ctx context.Context, p protocol.DefinitionParams) ([]protocol.Location, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	e, _, ok := t.canonAt()
	if !ok {
		return []protocol.Location{}, nil
	}
	locs := []protocol.Location{{URI: t.proj.names.URI(t.proj.entryFile(e)), Range: titleRange(e)}}
	// A book entry over a series entry holds some facts; the series file
	// holds the rest: both are where the entry is defined.
	if src := t.proj.canon().Source(e); src != nil && src.Book != nil {
		locs = append(locs, protocol.Location{URI: t.proj.names.URI(src.File()), Range: titleRange(src.Series)})
	}
	return locs, nil
}

// titleRange is the entry's first level-1 heading, or the top of the
// file when it has none.
func titleRange(e *codex.Entry) protocol.Range {
	for _, sec := range e.Sections {
		if sec.Level == 1 {
			lines := textdoc.NewLines(e.Source)
			return lines.RangeOf(sec.HeadingRange.Start, sec.HeadingRange.End)
		}
	}
	return protocol.Range{}
}
