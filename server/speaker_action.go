package server

import (
	"context"
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/dialogue"
)

// maxSpeakerActions bounds the characters offered for one line: quire's
// guess and the likeliest after it; nearbyLines how far before and after
// it the lines whose speakers are offered after quire's candidates lie.
const (
	maxSpeakerActions = 4
	nearbyLines       = 6
)

// speakerActions are, on a line of dialogue whose speaker quire only
// guesses, one quick fix for each character it may be ("Emma Woodhouse
// speaks this line"), quire's guess first, then the speakers of the
// lines around it: each writes the speaker line
// that settles it (`<!-- speaker: Emma Woodhouse -->`, docs/dialogue.md),
// or rewrites the one the line has. A line no tag or speaker line names
// is the one a writer most often has to correct, and typing the comment
// by hand was the only way. An action is offered only where the line,
// once written, is read as that character's (dialogue.SpeakerLines).
func (s *Server) speakerActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook) []codeAction {
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if err != nil || !ok || t.proj != proj || t.series != nil {
		return nil
	}
	doc, open := s.openText(p.TextDocument.URI)
	if !open || doc.Text != t.text {
		return nil
	}
	_, e, ok := t.speechEntry()
	if !ok || e.an == nil {
		return nil
	}
	utts := e.utts()
	i, ok := utteranceIndex(utts, t.offset)
	if !ok || !utts[i].Uncertain {
		return nil
	}
	// quire's candidates, then whoever speaks the lines around it,
	// nearest first: in a scene of three, the third.
	var ids []string
	add := func(id string) {
		if id != "" && len(ids) < maxSpeakerActions && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range utts[i].Candidates {
		add(id)
	}
	for d := 1; d <= nearbyLines; d++ {
		for _, k := range []int{i - d, i + d} {
			if k >= 0 && k < len(utts) {
				add(utts[k].Best())
			}
		}
	}
	version := doc.Version
	var out []codeAction
	for _, c := range dialogue.SpeakerLines(e.an, e.ch, i, ids, entryName(t.cat)) {
		out = append(out, codeAction{
			Title: fmt.Sprintf("%s speaks this line", c.Name), Kind: protocol.QuickFix, IsPreferred: len(out) == 0,
			Edit: &workspaceEdit{DocumentChanges: []any{textDocumentEdit{
				TextDocument: versionedDocument{URI: doc.URI, Version: &version},
				Edits:        []annotatedTextEdit{{Range: doc.Lines.RangeOf(clampRange(c.Edit.Range, len(doc.Text))), NewText: c.Edit.New}},
			}}},
		})
	}
	return out
}
