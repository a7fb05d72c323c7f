package server

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/card"
)

// hover answers with the card of the entry named at the position:
// resolve the target, draw its card (manuscript/card), and shape it as
// LSP's hover with the name's range in UTF-16.
func (s *Server) hover(ctx context.Context, p protocol.HoverParams) (*protocol.Hover, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	e, r, ok := t.canonAt()
	if !ok {
		return nil, nil
	}
	// In a chapter the card shows the entry as of that chapter (its
	// progressions so far); in a codex file, the book's or its series',
	// the entry as written.
	var value string
	if u, ok := chapterUnit(t.snap, t.rel, t.text, 0); ok && t.series == nil {
		value = card.RenderAsOf(t.cardCanon(), t.proj.timelineFor(t.snap), e, u)
	} else {
		value = card.Render(t.cardCanon(), e)
	}
	if line := card.Ambiguity(t.cardCanon(), t.text[r.Start:r.End], t.othersAt(r)); line != "" {
		value = line + "\n\n" + value
	}
	rng := t.lines.RangeOf(r.Start, r.End)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: value},
		Range:    &rng,
	}, nil
}

// cardCanon is what a card drawn for t reads: the target's catalog, the
// book's series sources, the mentions once they are counted with the
// book's current names, and links written as the client writes URIs.
func (t *target) cardCanon() card.Canon {
	c := card.Canon{
		Catalog:   t.cat,
		Source:    t.proj.canon().Source,
		EntryLink: func(e *codex.Entry) string { return string(t.proj.names.URI(t.proj.entryFile(e))) },
		FileLink:  func(path string) string { return string(t.proj.names.URI(path)) },
	}
	if t.indexed() {
		c.Mentions = t.snap.Mentions()
	}
	return c
}

// othersAt are the other entries a shared name at r may name (a mention's
// Others), for the card to list.
func (t *target) othersAt(r codex.Range) []*codex.Entry {
	m, ok := t.mentionAt()
	if !ok || m.Range != r {
		return nil
	}
	var out []*codex.Entry
	for _, id := range m.Others {
		if e, ok := t.cat.Get(id); ok {
			out = append(out, e)
		}
	}
	return out
}
