package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/server/wire"
)

// Proposals: the advisor's codex changes, listed, applied through the
// editor as a workspace edit (workspace_edit.go) or discarded. The
// advisor never writes.

// quireProposals lists the project's proposals, newest first.
func (s *Server) quireProposals(ctx context.Context, a wire.BookParams) (wire.ProposalsResult, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return wire.ProposalsResult{}, err
	}
	out := wire.ProposalsResult{Proposals: []wire.Proposal{}}
	for _, p := range proj.proposals.List() {
		out.Proposals = append(out.Proposals, s.summarize(proj, p))
	}
	return out, nil
}

// summarize is a proposal as the clients see it, with its status now.
func (s *Server) summarize(proj *openBook, p proposal.Proposal) wire.Proposal {
	w := p.Warnings
	if w == nil {
		w = []string{}
	}
	status := "pending"
	if !p.Applied.IsZero() {
		status = "applied"
	} else if _, err := s.proposalWorkspaceEdit(proj, p); err != nil {
		status = "stale"
	}
	return wire.Proposal{
		ID: p.ID, Kind: p.Kind, Name: p.Name, EntryType: p.EntryType, Path: p.Path, SoulPath: p.SoulPath,
		ChangeSummary: p.ChangeSummary, Markdown: p.Markdown, SoulMarkdown: p.SoulMarkdown, Warnings: w, Created: p.Created,
		Status: status, Diff: p.Diff,
	}
}

// quireDiscardProposal drops a proposal the writer does not want.
func (s *Server) quireDiscardProposal(ctx context.Context, a wire.ProposalParams) (wire.DiscardResult, error) {
	proj, p, err := s.proposalOf(ctx, a)
	if err != nil {
		return wire.DiscardResult{}, err
	}
	return wire.DiscardResult{ID: p.ID, Discarded: proj.proposals.Discard(p.ID)}, nil
}

// proposalOf is the proposal a names: by id, in the book of uri if given.
func (s *Server) proposalOf(ctx context.Context, a wire.ProposalParams) (*openBook, proposal.Proposal, error) {
	if a.ID == "" {
		return nil, proposal.Proposal{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "id is required")
	}
	return s.findProposal(ctx, a)
}

// findProposal looks the proposal up in the named project, or in every
// project when none is named.
func (s *Server) findProposal(ctx context.Context, a wire.ProposalParams) (*openBook, proposal.Proposal, error) {
	var projects []*openBook
	if a.URI != "" {
		proj, err := s.projectOf(ctx, a.BookParams)
		if err != nil {
			return nil, proposal.Proposal{}, err
		}
		projects = []*openBook{proj}
	} else {
		projects = append(projects, s.sess.books()...)
	}
	for _, proj := range projects {
		if !proj.loaded() {
			continue
		}
		if p, ok := proj.proposals.Get(a.ID); ok {
			return proj, p, nil
		}
	}
	return nil, proposal.Proposal{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "This proposal is no longer available (it was discarded, or made before quire restarted); ask again.")
}

// quireApplyProposal is quire/applyProposal, the plugins' request: they
// show the outcome in their own views, so the server sends no message.
func (s *Server) quireApplyProposal(ctx context.Context, a wire.ProposalParams) (wire.ApplyResult, error) {
	return s.applyProposal(ctx, a, false)
}

// quireApplyProposalCommand is quire.applyProposal run from a code action,
// as Helix and eglot do: the writer learns the outcome from a message.
func (s *Server) quireApplyProposalCommand(ctx context.Context, a wire.ProposalParams) (wire.ApplyResult, error) {
	return s.applyProposal(ctx, a, true)
}

// applyProposal asks the client to apply a proposal as a versioned
// workspace edit. The server writes nothing: the editor applies the edit,
// and refuses it when an open document moved on. A proposal whose files
// changed since it was made is refused here, before anything is sent.
// announce tells the outcome as a message too.
func (s *Server) applyProposal(ctx context.Context, a wire.ProposalParams, announce bool) (wire.ApplyResult, error) {
	proj, p, err := s.proposalOf(ctx, a)
	if err != nil {
		return wire.ApplyResult{}, err
	}
	if !p.Applied.IsZero() {
		return wire.ApplyResult{}, s.outcome(ctx, announce, protocol.MessageTypeInfo, jsonrpc2.InvalidRequest, fmt.Sprintf("The %s was already applied.", proposalTitle(p)))
	}
	edit, err := s.proposalWorkspaceEdit(proj, p)
	var stale *staleError
	if errors.As(err, &stale) {
		return wire.ApplyResult{}, s.outcome(ctx, announce, protocol.MessageTypeWarning, jsonrpc2.InvalidRequest,
			fmt.Sprintf("Not applied: %s changed since the %s was made (%s). Ask again for a proposal made from its text now.", stale.path, proposalTitle(p), stale.what))
	}
	if err != nil {
		return wire.ApplyResult{}, err
	}
	label := fmt.Sprintf("quire: %s %s", p.Kind, p.Name)
	res, err := s.applyEdit(ctx, label, edit)
	if err != nil {
		s.log.Warn("workspace/applyEdit failed", "err", err)
		return wire.ApplyResult{}, s.outcome(ctx, announce, protocol.MessageTypeError, jsonrpc2.InternalError,
			fmt.Sprintf("The editor could not apply the %s to %s. Try again, or copy the change from the proposal by hand.", proposalTitle(p), proposalFiles(p)))
	}
	typ, msg := protocol.MessageTypeInfo, fmt.Sprintf("Applied the %s to %s: review and save.", proposalTitle(p), proposalFiles(p))
	if res.Applied {
		proj.proposals.MarkApplied(p.ID, time.Now())
	} else {
		typ, msg = protocol.MessageTypeWarning, fmt.Sprintf("Not applied: the editor did not apply the %s to %s", proposalTitle(p), proposalFiles(p))
		if res.FailureReason != "" {
			msg += " (" + res.FailureReason + ")"
		}
		msg += "."
	}
	if announce {
		s.showMessage(ctx, typ, msg)
	}
	return wire.ApplyResult{ID: p.ID, Applied: res.Applied, FailureReason: res.FailureReason, Message: msg}, nil
}

// proposalTitle names a proposal for the writer: "proposed update of
// Mara Vell", "proposed new entry Hesper".
func proposalTitle(p proposal.Proposal) string {
	if p.Kind == proposal.KindCreate {
		return "proposed new entry " + p.Name
	}
	return "proposed update of " + p.Name
}

// proposalFiles lists the files a proposal edits, in the order it edits
// them.
func proposalFiles(p proposal.Proposal) string {
	var files []string
	for _, e := range p.Edits {
		if !slices.Contains(files, e.Path) {
			files = append(files, e.Path)
		}
	}
	if len(files) == 0 {
		files = append(files, p.Path)
	}
	return strings.Join(files, " and ")
}

// staleError is a proposal refused because a file it edits changed since
// it was made.
type staleError struct {
	err        *jsonrpc2.Error
	path, what string
}

func (e *staleError) Error() string { return e.err.Error() }
func (e *staleError) Unwrap() error { return e.err }

// quire.propose / quire/propose builds proposals from a selection: the
// continuity editor (or the persona named) is asked to propose the codex
// changes the passage establishes, and the result carries each proposal
// in full, diff included, ready to apply with quire.applyProposal.

func (s *Server) quirePropose(ctx context.Context, a wire.AskParams) (wire.ProposeResult, error) {
	if a.Range == nil || a.URI == "" {
		return wire.ProposeResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "quire.propose needs uri and range: the passage to propose from")
	}
	if a.Persona == "" {
		a.Persona = "continuity-editor"
	}
	if a.Message == "" {
		a.Message = proposeMessage
	}
	res, err := s.quireAsk(ctx, a)
	if err != nil {
		return wire.ProposeResult{}, err
	}
	proj, err := s.projectOf(ctx, wire.BookParams{URI: a.URI})
	if err != nil {
		return wire.ProposeResult{}, err
	}
	details := []wire.Proposal{}
	for _, id := range res.Proposals {
		if p, ok := proj.proposals.Get(id); ok {
			details = append(details, s.summarize(proj, p))
		}
	}
	return wire.ProposeResult{AskResult: res, Details: details}, nil
}

// proposalActions offers to apply or discard each pending proposal in ids.
func (s *Server) proposalActions(ctx context.Context, ids []string) []codeAction {
	var out []codeAction
	for _, id := range ids {
		_, p, err := s.findProposal(ctx, wire.ProposalParams{ID: id})
		if err != nil || !p.Applied.IsZero() {
			continue
		}
		apply := fmt.Sprintf("Apply proposal: %s %s (%s)", p.Kind, p.Name, p.ChangeSummary)
		discard := fmt.Sprintf("Discard proposal: %s %s (%s)", p.Kind, p.Name, p.ChangeSummary)
		arg := []any{wire.ProposalParams{ID: p.ID}}
		out = append(out,
			codeAction{Title: apply, Command: &actionCommand{Title: apply, Command: wire.CommandApplyProposal, Arguments: arg}},
			codeAction{Title: discard, Command: &actionCommand{Title: discard, Command: wire.CommandDiscardProposal, Arguments: arg}})
	}
	return out
}

// pendingFor lists the pending proposals that edit rel in proj.
func (proj *openBook) pendingFor(rel string) []string {
	var ids []string
	for _, p := range proj.proposals.List() {
		if !p.Applied.IsZero() {
			continue
		}
		for _, e := range p.Edits {
			if e.Path == rel {
				ids = append(ids, p.ID)
				break
			}
		}
	}
	return ids
}
