package server

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
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
	return []protocol.Location{{
		URI:   pathURI(filepath.Join(t.proj.real, filepath.FromSlash(e.ID))),
		Range: titleRange(e),
	}}, nil
}

// titleRange is the entry's first level-1 heading, or the top of the
// file when it has none.
func titleRange(e *codex.Entry) protocol.Range {
	for _, sec := range e.Sections {
		if sec.Level == 1 {
			lines := newLineIndex(e.Source)
			return lines.rangeOf(sec.HeadingRange.Start, sec.HeadingRange.End)
		}
	}
	return protocol.Range{}
}
