package server

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
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
	uncertain := false
	if !ok {
		m, found := t.uncertainAt()
		if e, ok = t.cat.Get(m.Entry); !found || !ok {
			return t.speechHover()
		}
		r, uncertain = m.Range, true
	}
	// In a chapter the card shows the entry as of that chapter (its
	// progressions so far); in a codex file, the book's or its series',
	// the entry as written.
	var value string
	if u, ok := chapterUnit(t.snap, t.rel, t.text, 0); ok && t.series == nil {
		value = card.RenderAsOf(t.cardCanon(), t.proj.timelineFor(t.snap), e, u, r.Start)
	} else {
		value = card.Render(t.cardCanon(), e)
	}
	if line := card.Ambiguity(t.cardCanon(), t.text[r.Start:r.End], t.othersAt(r)); line != "" {
		value = line + "\n\n" + value
	}
	if uncertain {
		value = card.Uncertain(t.text[r.Start:r.End], e) + "\n\n" + value
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

// uncertainAt finds an uncertain mention under the offset: a name used in
// a way that may mean someone else ("Anthony Comstock"), which nothing
// counts and hover shows with a word of doubt. Only the paragraph around
// the offset is scanned.
func (t *target) uncertainAt() (manuscript.Mention, bool) {
	start := strings.LastIndex(t.text[:t.offset], "\n\n") + 1
	end := len(t.text)
	if i := strings.Index(t.text[t.offset:], "\n\n"); i >= 0 {
		end = t.offset + i
	}
	for _, m := range t.proj.matcher.Load().ScanAll(t.text[start:end]) {
		if m.Uncertain && start+m.Range.Start <= t.offset && t.offset < start+m.Range.End {
			m.Range.Start += start
			m.Range.End += start
			return m, true
		}
	}
	return manuscript.Mention{}, false
}

// speechHover is the hover of a line of dialogue where no name is: who
// speaks it and how quire decided (card.Speech).
func (t *target) speechHover() (*protocol.Hover, error) {
	u, utts, ok := t.speech()
	if !ok {
		return nil, nil
	}
	utt, ok := utteranceAt(utts, t.offset)
	if !ok {
		return nil, nil
	}
	tag := ""
	if utt.Tag.End > utt.Tag.Start && utt.Tag.End <= len(u.Text) {
		tag = u.Text[utt.Tag.Start:utt.Tag.End]
	}
	// The range is the span under the cursor, on its own lines.
	r := utt.Marks[0]
	for _, m := range utt.Marks {
		if m.Start <= t.offset && t.offset < m.End {
			r = m
		}
	}
	rng := t.lines.RangeOf(r.Start, r.End)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: card.Speech(utt, entryName(t.cat), tag)},
		Range:    &rng,
	}, nil
}
