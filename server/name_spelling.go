package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/wire"
)

// The fixes of a name-spelling warning besides "Change to …" (the slip's
// own fix): the word is another way to write the name, so it becomes an
// alias of the entry (an edit of the entry's file, made as a proposal and
// applied as the advisor's are, so the writer reviews it); or the word is
// no misspelling at all, and quire.yaml's spelling: list says so from
// then on. Neither is ever done silently: each is an edit the editor
// shows, and a message says what changed.

// spellingActions are the two fixes of slip, a name-spelling warning in
// the document uri whose text is text.
func spellingActions(slip continuity.Diagnostic, d protocol.Diagnostic, uri protocol.DocumentURI, text string, e *codex.Entry) []codeAction {
	if slip.Code != continuity.CodeNameSpelling || slip.Range.End > len(text) {
		return nil
	}
	word := text[slip.Range.Start:slip.Range.End]
	var out []codeAction
	if e != nil {
		title := fmt.Sprintf("Add '%s' as an alias of %s", word, e.Name)
		out = append(out, codeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
			Command: &actionCommand{Title: title, Command: wire.CommandAddAlias,
				Arguments: []any{wire.AddAliasParams{BookParams: wire.BookParams{URI: uri}, Entry: e.ID, Alias: word}}}})
	}
	title := "Not a misspelling"
	out = append(out, codeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
		Command: &actionCommand{Title: title, Command: wire.CommandAcceptSpelling,
			Arguments: []any{wire.AcceptSpellingParams{BookParams: wire.BookParams{URI: uri}, Word: word}}}})
	return out
}

// quireAddAlias adds a.Alias to the aliases of the entry a.Entry: the
// change is made as a proposal (an exact edit of the entry's front
// matter, checked against the file it was made from) and applied as a
// versioned workspace edit, as an advisor's proposal is.
func (s *Server) quireAddAlias(ctx context.Context, a wire.AddAliasParams) (wire.ApplyResult, error) {
	a.Alias = strings.TrimSpace(a.Alias)
	if a.Alias == "" || strings.ContainsAny(a.Alias, "\r\n") || len(a.Alias) > 200 {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "An alias is one short line of text.")
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.ApplyResult{}, err
	}
	e, ok := proj.catalog().Get(a.Entry)
	if !ok {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "That entry is no longer in the codex; nothing was changed.")
	}
	aliases := slices.Clone(e.Aliases)
	if slices.ContainsFunc(aliases, func(x string) bool { return strings.EqualFold(x, a.Alias) }) {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeInfo, jsonrpc2.InvalidRequest, fmt.Sprintf("%s already has the alias %s.", e.Name, a.Alias))
	}
	aliases = append(aliases, a.Alias)
	list := make([]string, len(aliases))
	for i, x := range aliases {
		if list[i], err = settings.ScalarYAML(x); err != nil {
			return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "An alias is one line of text.")
		}
	}
	draft, err := proposal.Update(proj.store, continuity.CodeNameSpelling, e.Type, proposal.UpdateArgs{
		Name:             e.Name,
		ChangeSummary:    fmt.Sprintf("add %q as an alias of %s", a.Alias, e.Name),
		TargetSection:    "",
		ProposedMarkdown: "---\naliases: [" + strings.Join(list, ", ") + "]\n---\n",
	})
	if err != nil {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidRequest, fmt.Sprintf("The alias could not be added to %s: %v", e.Name, err))
	}
	p := proj.proposals.Add(draft.Proposal)
	return s.applyProposal(ctx, wire.ProposalParams{BookParams: a.BookParams, ID: p.ID}, true)
}

// quireAcceptSpelling adds a.Word to the spelling: list of the book's
// quire.yaml (creating the file if the book has none), as an edit the
// editor applies to the text the writer has now (currentText).
func (s *Server) quireAcceptSpelling(ctx context.Context, a wire.AcceptSpellingParams) (wire.ApplyResult, error) {
	a.Word = strings.TrimSpace(a.Word)
	if a.Word == "" || strings.ContainsAny(a.Word, "\r\n") || len(a.Word) > 200 {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "A word is one short line of text.")
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.ApplyResult{}, err
	}
	cur, err := s.currentText(proj, configFile)
	if err != nil {
		return wire.ApplyResult{}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InternalError, fmt.Sprintf("%s could not be read (%v); add %s to spelling: by hand.", configFile, err, a.Word))
	}
	ed, ok, err := settings.AddToList(cur.text, "spelling", a.Word)
	if err != nil || !ok {
		return s.spellingOutcome(ctx, a.Word, err)
	}
	var edit any = s.newFileEdit(cur.uri, ed.Text)
	if cur.exists {
		edit = workspaceEdit{DocumentChanges: []any{textDocumentEdit{TextDocument: versionedDocument{URI: cur.uri, Version: cur.version},
			Edits: []annotatedTextEdit{{Range: cur.lines.RangeOf(ed.Start, ed.End), NewText: ed.Text}}}}}
	}
	res, err := s.applyEdit(ctx, "quire: "+a.Word+" is not a misspelling", edit)
	if err != nil || !res.Applied {
		msg := fmt.Sprintf("The editor did not add %s to spelling: in %s; add it by hand to stop the warning.", a.Word, configFile)
		return wire.ApplyResult{FailureReason: res.FailureReason, Message: msg}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InternalError, msg)
	}
	msg := fmt.Sprintf("Added %s to spelling: in %s: quire will not call it a misspelling once you save.", a.Word, configFile)
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
	return wire.ApplyResult{Applied: true, Message: msg}, nil
}

// spellingOutcome answers an accept that needs no edit (the word is
// listed already) or cannot make one.
func (s *Server) spellingOutcome(ctx context.Context, word string, err error) (wire.ApplyResult, error) {
	if err != nil {
		msg := fmt.Sprintf("%s was not added to spelling: %v.", word, err)
		return wire.ApplyResult{Message: msg}, s.tell(ctx, protocol.MessageTypeWarning, jsonrpc2.InvalidRequest, msg)
	}
	msg := fmt.Sprintf("%s is listed under spelling: in %s already.", word, configFile)
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
	return wire.ApplyResult{Message: msg}, nil
}
