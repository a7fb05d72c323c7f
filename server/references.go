package server

import (
	"context"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
)

// occurrence is one place an entry is named, in prose or in the codex.
type occurrence struct {
	path    string
	text    string
	mention manuscript.Mention
}

// occurrences lists every mention of e across the manuscript (open
// chapters as the editor has them) and the codex, in reading order then
// codex order.
func (t *target) occurrences(e *codex.Entry) []occurrence {
	var out []occurrence
	ix := t.snap.Mentions()
	for _, u := range t.snap.Units() {
		for _, m := range ix.Mentions(u.Path) {
			if m.Entry == e.ID || slices.Contains(m.Others, e.ID) {
				out = append(out, occurrence{path: u.Path, text: u.Text, mention: m})
			}
		}
	}
	for _, cm := range t.proj.codexMentionsFor(t.cat, ix.Matcher()).byEntry[e.ID] {
		out = append(out, occurrence{path: cm.path, text: cm.text, mention: cm.mention})
	}
	return out
}

// locations turns occurrences into LSP locations, indexing each file's
// lines once.
func (t *target) locations(occs []occurrence) []protocol.Location {
	out := make([]protocol.Location, 0, len(occs))
	var lines *textdoc.Lines
	var linesOf string
	for _, o := range occs {
		if lines == nil || linesOf != o.path {
			lines, linesOf = textdoc.NewLines(o.text), o.path
		}
		out = append(out, protocol.Location{
			URI:   t.proj.uri(o.path),
			Range: lines.RangeOf(o.mention.Range.Start, o.mention.Range.End),
		})
	}
	return out
}

// references lists every mention of the entry under the cursor, and with
// includeDeclaration its name in the entry's front matter.
func (s *Server) references(ctx context.Context, p protocol.ReferenceParams) ([]protocol.Location, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return []protocol.Location{}, err
	}
	e, _, ok := t.entryAt()
	if !ok {
		return []protocol.Location{}, nil
	}
	if err := t.waitIndexed(ctx); err != nil {
		return nil, err
	}
	locs := t.locations(t.occurrences(e))
	if p.Context.IncludeDeclaration && e.NameRange.Len() > 0 {
		lines := textdoc.NewLines(e.Source)
		decl := protocol.Location{URI: t.proj.uri(e.ID), Range: lines.RangeOf(e.NameRange.Start, e.NameRange.End)}
		locs = append([]protocol.Location{decl}, locs...)
	}
	return locs, ctx.Err()
}

// uri is the file: URI of a project-relative path, or of the absolute
// path of a file of the series canon (an entry's ID there).
func (p *openBook) uri(rel string) protocol.DocumentURI {
	if filepath.IsAbs(rel) {
		return p.names.URI(rel)
	}
	return p.names.URI(filepath.Join(p.real, filepath.FromSlash(rel)))
}
