package server

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/actions"
	"github.com/quire-ink/quire/server/wire"
)

// Advisor actions are named asks: the core ones shipped in quire, and the
// writer's own from quire.yaml's actions: and .quire/actions/*.md. Each is
// offered as a code action that runs quire.ask with the action's persona
// and message, so every client (and each plugin's chat) runs it as it runs
// any ask.

// isActionFile reports whether the project-relative rel is an action file.
func isActionFile(rel string) bool {
	return path.Dir(rel) == actions.Dir && path.Ext(rel) == ".md"
}

// bookActions are the actions of a book as its files say now, ready to
// build messages from; actions with problems are left out (their
// diagnostics say why). They are read again only when quire.yaml or a
// file of .quire/actions changed: an editor lists code actions on every
// move of the cursor.
func bookActions(proj *openBook) []actions.Prepared {
	stamp := actionsStamp(proj.real)
	proj.actionsMu.Lock()
	defer proj.actionsMu.Unlock()
	if proj.actionsStamp == stamp && proj.actions != nil {
		return proj.actions
	}
	loaded, _ := actions.Load(proj.real)
	prepared := make([]actions.Prepared, len(loaded))
	for i, a := range loaded {
		prepared[i] = a.Prepare()
	}
	proj.actions, proj.actionsStamp = prepared, stamp
	return prepared
}

// actionsStamp sums up the files actions come from: names, sizes and
// modification times.
func actionsStamp(root string) string {
	var b strings.Builder
	note := func(name string, info fs.FileInfo) {
		fmt.Fprintf(&b, "%s %d %d\n", name, info.Size(), info.ModTime().UnixNano())
	}
	if info, err := os.Stat(filepath.Join(root, configFile)); err == nil {
		note(configFile, info)
	}
	entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(actions.Dir)))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			note(e.Name(), info)
		}
	}
	return b.String()
}

// adviserActions are the book's actions that fit where the writer is: with
// a selection, those that work on a selection; at the cursor in a
// chapter, those that work on the chapter or the book.
func (s *Server) adviserActions(t *target, p protocol.CodeActionParams, start, end int) []codeAction {
	hasSelection := start < end
	unit, isChapter := t.snap.Unit(t.rel)
	var out []codeAction
	for _, a := range bookActions(t.proj) {
		if !a.Applies(hasSelection, isChapter) || hasSelection != (a.Scope == actions.ScopeSelection) {
			continue
		}
		// Only a selection action sends a range: a range, even an empty
		// one, would be taken for a selection.
		args := wire.AskParams{Persona: a.Persona, URI: p.TextDocument.URI}
		switch a.Scope {
		case actions.ScopeSelection:
			r := p.Range
			args.Range = &r
			args.SelectionHash = codex.HashText(t.text[start:end])
			args.Message = a.Message("the selection")
		case actions.ScopeFile:
			args.Message = a.Message(fmt.Sprintf("chapter %q (%s)", unit.Title, unit.Path))
		default:
			args.Message = a.Message("the whole book")
		}
		title := a.Label()
		args.Action = actionName(a)
		out = append(out, codeAction{Title: title, Command: &actionCommand{Title: title, Command: wire.CommandAsk, Arguments: []any{args}}})
	}
	return out
}

// actionName is what the writer chose, "Continuity check": the action's
// label without the persona it goes to, which the answer names anyway.
func actionName(a actions.Prepared) string {
	label := a.Label()
	if p, ok := llm.PersonaByID(a.Persona); ok {
		return strings.TrimPrefix(label, p.Name+": ")
	}
	return label
}

// quireActions lists the book's advisor actions, for plugins.
func (s *Server) quireActions(ctx context.Context, a wire.BookParams) ([]wire.AdvisorAction, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return nil, err
	}
	out := []wire.AdvisorAction{}
	for _, a := range bookActions(proj) {
		out = append(out, wire.AdvisorAction{ID: a.ID, Name: a.Name, Label: a.Label(), Scope: a.Scope, Persona: a.Persona,
			Usage: a.Usage, Core: a.Core, Source: a.Source})
	}
	return out, nil
}
