package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// outlineActions are, in a chapter, the outline's actions on the scene
// at the cursor (the chapter itself in its front matter): ask the
// developmental editor for its synopsis; mark a stale synopsis current;
// on the scene's break, heading or note, set its status. Listing them
// costs the chapter's scene split, which the chapter keeps.
func (s *Server) outlineActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook) []codeAction {
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if err != nil || !ok || t.proj != proj || t.series != nil {
		return nil
	}
	u, ok := chapterUnit(t.snap, t.rel, t.text, 0)
	if !ok || u.Position == 0 || u.Text != t.text {
		return nil
	}
	rules := proj.configOf().outline.Rules
	scenes := u.Scenes(rules)
	n := manuscript.SceneAt(scenes, t.offset)
	if len(scenes) == 1 && scenes[0].Note.Range.End == 0 {
		// A chapter of one scene is outlined as the chapter.
		n = 0
	}
	note, stale, _ := u.NoteOf(rules, n)
	var onOpening bool
	if n == 0 {
		// The chapter's status is offered on its status: line, or,
		// while it has none, on its title: line or title heading:
		// anywhere else four actions would crowd the menu.
		onOpening = note.StatusRange.End > 0 && onLine(t.text, note.StatusRange.Start, t.offset) ||
			note.StatusRange.End == 0 && (note.TitleRange.End > 0 && onLine(t.text, note.TitleRange.Start, t.offset) || onTitle(u, t.offset))
	} else {
		sc := scenes[n-1]
		onOpening = sc.Break.End > 0 && sc.Break.Start <= t.offset && t.offset <= sc.Break.End ||
			sc.Note.Range.End > 0 && sc.Note.Range.Start <= t.offset && t.offset <= sc.Note.Range.End
	}
	what := sceneName(u, rules, n)
	uri := string(p.TextDocument.URI)
	command := func(title, name string, arg any) codeAction {
		return codeAction{Title: title, Command: &actionCommand{Title: title, Command: name, Arguments: []any{arg}}}
	}
	var out []codeAction
	if stale {
		title := fmt.Sprintf("Mark the synopsis of %s as current", what)
		a := command(title, wire.CommandSetOutline, wire.SetOutlineParams{URI: uri, Scene: n, Current: true})
		a.Kind = protocol.QuickFix
		out = append(out, a)
	}
	ask := fmt.Sprintf("Ask the %s for a synopsis of %s", llm.ResolvePersona(llm.DefaultPersonaID).Name, what)
	if note.Synopsis != "" {
		ask = fmt.Sprintf("Ask the %s for a new synopsis of %s", llm.ResolvePersona(llm.DefaultPersonaID).Name, what)
	}
	out = append(out, command(ask, wire.CommandProposeSynopsis, wire.SynopsisParams{URI: uri, Scene: n}))
	if onOpening {
		for _, st := range rules.AllStatuses() {
			if st == note.Status {
				continue
			}
			v := st
			out = append(out, command(fmt.Sprintf("Set the status of %s to %s", what, st), wire.CommandSetOutline,
				wire.SetOutlineParams{URI: uri, Scene: n, Status: &v}))
		}
	}
	return out
}

// onLine says off lies on the line holding at.
func onLine(text string, at, off int) bool {
	lo, hi := min(at, off), max(at, off)
	return lo >= 0 && hi <= len(text) && !strings.Contains(text[lo:hi], "\n")
}

// onTitle says off lies on u's title heading.
func onTitle(u *manuscript.Unit, off int) bool {
	for _, h := range u.Headings {
		if h.Level == 1 && h.Heading == u.Title {
			return h.HeadingRange.Start <= off && off <= h.HeadingRange.End
		}
	}
	return false
}
