package server

import (
	"context"
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/wire"
)

// continuityActions are the code actions on the continuity diagnostics
// the client sends back: "Open <entry> in the codex" for the canon a slip
// contradicts; for a broken style rule, the quick fix that writes the
// preferred form; for a pov or location that names nothing, the near
// entry's name as the fix and "Create … entry" for the name as written. The slips are found again in the current text rather
// than read from the diagnostics' data, which not every client returns;
// a diagnostic that no longer matches a slip gets no action.
func (s *Server) continuityActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook, rel string) []codeAction {
	var wanted []protocol.Diagnostic
	for _, d := range p.Context.Diagnostics {
		if code, ok := d.Code.(string); ok && d.Source == "quire" && slices.Contains(continuity.Checks, code) {
			wanted = append(wanted, d)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	s.syncEdits(proj)
	doc, open := s.openText(p.TextDocument.URI)
	if !open || ctx.Err() != nil {
		return nil
	}
	tl, _, found, ok := proj.chapterContinuity(proj.ms.Snapshot(), rel, doc.Text, doc.Version)
	if !ok {
		return nil
	}
	var out []codeAction
	for _, d := range wanted {
		for _, slip := range found {
			if slip.Code != d.Code || !sameSlip(doc.Lines.RangeOf(clampRange(slip.Range, len(doc.Text))), slip.Message, d) {
				continue
			}
			if slip.Fix != nil {
				version := doc.Version
				out = append(out, codeAction{
					Title: slip.Fix.Title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d}, IsPreferred: true,
					Edit: &workspaceEdit{DocumentChanges: []any{textDocumentEdit{
						TextDocument: versionedDocument{URI: doc.URI, Version: &version},
						Edits:        []annotatedTextEdit{{Range: doc.Lines.RangeOf(clampRange(slip.Fix.Range, len(doc.Text))), NewText: slip.Fix.NewText}},
					}}},
				})
			}
			if m := slip.Missing; m != nil {
				title := fmt.Sprintf("Create %s entry for %s", m.Type, m.Name)
				out = append(out, codeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d}, IsPreferred: slip.Fix == nil,
					Command: &actionCommand{Title: title, Command: wire.CommandCreateEntry,
						Arguments: []any{createEntryArgs{Name: m.Name, Type: m.Type, URI: p.TextDocument.URI}}}})
			}
			e, known := tl.Canon().Catalog().Get(slip.Entry)
			if !known {
				e = nil
			}
			out = append(out, spellingActions(slip, d, doc.URI, doc.Text, e)...)
			if known {
				title := fmt.Sprintf("Open %s in the codex", e.Name)
				out = append(out, codeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
					Command: &actionCommand{Title: title, Command: wire.CommandLookup,
						Arguments: []any{lookupCommandArgs{Name: e.Name, URI: p.TextDocument.URI}}}})
			}
			break
		}
	}
	return out
}

// sameSlip says the diagnostic d the client sent back is the slip found
// at r with message: the same range, or the same message starting on
// the same line. Some clients send a diagnostic back with its columns
// counted in bytes rather than UTF-16 units (Neovim 0.7 rebuilds it from
// its own byte columns), which moves them wherever the line holds an
// accent before them.
func sameSlip(r protocol.Range, message string, d protocol.Diagnostic) bool {
	return r == d.Range || r.Start.Line == d.Range.Start.Line && message == d.Message
}
