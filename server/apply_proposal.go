package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/server/wire"
)

// proposalAnnotationID marks a proposal's edits for the writer's review.
const proposalAnnotationID = "quire-proposal"

// quireProposals lists the project's proposals, newest first.
func (s *Server) quireProposals(ctx context.Context, params json.RawMessage) (any, error) {
	proj, err := s.optionalProject(ctx, params)
	if err != nil {
		return nil, err
	}
	out := wire.ProposalsResult{Proposals: []wire.Proposal{}}
	for _, p := range proj.proposals.List() {
		out.Proposals = append(out.Proposals, s.summarize(proj, p))
	}
	return out, nil
}

// summarize is a proposal as the clients see it, with its status now.
func (s *Server) summarize(proj *project, p proposal.Proposal) wire.Proposal {
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
func (s *Server) quireDiscardProposal(ctx context.Context, params json.RawMessage) (any, error) {
	proj, p, err := s.proposalOf(ctx, params)
	if err != nil {
		return nil, err
	}
	return wire.DiscardResult{ID: p.ID, Discarded: proj.proposals.Discard(p.ID)}, nil
}

// The workspace edit of a proposal. The protocol library types neither
// resource operations in documentChanges nor change annotations.
type proposalEdit struct {
	DocumentChanges   []any                       `json:"documentChanges"`
	ChangeAnnotations map[string]changeAnnotation `json:"changeAnnotations,omitempty"`
}

type changeAnnotation struct {
	Label             string `json:"label"`
	NeedsConfirmation bool   `json:"needsConfirmation,omitempty"`
	Description       string `json:"description,omitempty"`
}

type versionedDocument struct {
	URI protocol.DocumentURI `json:"uri"`
	// Version is the open document's version; null for a file on disk.
	Version *int32 `json:"version"`
}

type annotatedTextEdit struct {
	Range        protocol.Range `json:"range"`
	NewText      string         `json:"newText"`
	AnnotationID string         `json:"annotationId,omitempty"`
}

type textDocumentEdit struct {
	TextDocument versionedDocument   `json:"textDocument"`
	Edits        []annotatedTextEdit `json:"edits"`
}

type createFileChange struct {
	Kind         string               `json:"kind"`
	URI          protocol.DocumentURI `json:"uri"`
	Options      createOptions        `json:"options"`
	AnnotationID string               `json:"annotationId,omitempty"`
}

// createOptions are spelled out: a proposal never overwrites a file, and
// a file that appeared meanwhile fails the edit rather than being skipped.
type createOptions struct {
	Overwrite      bool `json:"overwrite"`
	IgnoreIfExists bool `json:"ignoreIfExists"`
}

// fileText is a project file's current text: the editor's when the file
// is open (with its version), else the disk's.
type fileText struct {
	uri     protocol.DocumentURI
	text    string
	version *int32
	exists  bool
	lines   *lineIndex
}

// currentText reads rel in proj as the writer now has it.
func (s *Server) currentText(proj *project, rel string) (fileText, error) {
	full := filepath.Join(proj.real, filepath.FromSlash(rel))
	ft := fileText{uri: proj.uri(rel)}
	if doc := s.openDocAt(full); doc != nil {
		v := doc.version
		ft.uri, ft.text, ft.version, ft.exists, ft.lines = doc.uri, doc.text, &v, true, doc.lines
		return ft, nil
	}
	b, err := os.ReadFile(full)
	if errors.Is(err, fs.ErrNotExist) {
		return ft, nil
	}
	if err != nil {
		return ft, err
	}
	ft.text, ft.exists, ft.lines = string(b), true, newLineIndex(string(b))
	return ft, nil
}

// openDocAt finds the open document of a file by its path, whatever
// spelling of the URI the client used.
func (s *Server) openDocAt(full string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[pathURI(full)]; ok {
		return d
	}
	for uri, d := range s.docs {
		if p, ok := uriPath(uri); ok && filepath.Clean(p) == filepath.Clean(full) {
			return d
		}
	}
	return nil
}

// proposalOf is the proposal the params {id, uri?} name.
func (s *Server) proposalOf(ctx context.Context, params json.RawMessage) (*project, proposal.Proposal, error) {
	a, err := decode[wire.ProposalParams](params)
	if err != nil {
		return nil, proposal.Proposal{}, err
	}
	if a.ID == "" {
		return nil, proposal.Proposal{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "id is required")
	}
	return s.findProposal(ctx, a)
}

// findProposal looks the proposal up in the named project, or in every
// project when none is named.
func (s *Server) findProposal(ctx context.Context, a wire.ProposalParams) (*project, proposal.Proposal, error) {
	var projects []*project
	if a.URI != "" {
		proj, err := s.projectOf(ctx, a.BookParams)
		if err != nil {
			return nil, proposal.Proposal{}, err
		}
		projects = []*project{proj}
	} else {
		s.mu.Lock()
		projects = append(projects, s.projects...)
		s.mu.Unlock()
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
func (s *Server) quireApplyProposal(ctx context.Context, params json.RawMessage) (any, error) {
	return s.applyProposal(ctx, params, false)
}

// quireApplyProposalCommand is quire.applyProposal run from a code action,
// as Helix and eglot do: the writer learns the outcome from a message.
func (s *Server) quireApplyProposalCommand(ctx context.Context, params json.RawMessage) (any, error) {
	return s.applyProposal(ctx, params, true)
}

// applyProposal asks the client to apply a proposal as a versioned
// workspace edit. The server writes nothing: the editor applies the edit,
// and refuses it when an open document moved on. A proposal whose files
// changed since it was made is refused here, before anything is sent.
// announce tells the outcome as a message too.
func (s *Server) applyProposal(ctx context.Context, params json.RawMessage, announce bool) (any, error) {
	proj, p, err := s.proposalOf(ctx, params)
	if err != nil {
		return nil, err
	}
	if !p.Applied.IsZero() {
		return nil, s.outcome(ctx, announce, protocol.MessageTypeInfo, jsonrpc2.InvalidRequest, fmt.Sprintf("The %s was already applied.", proposalTitle(p)))
	}
	edit, err := s.proposalWorkspaceEdit(proj, p)
	var stale *staleError
	if errors.As(err, &stale) {
		return nil, s.outcome(ctx, announce, protocol.MessageTypeWarning, jsonrpc2.InvalidRequest,
			fmt.Sprintf("Not applied: %s changed since the %s was made (%s). Ask again for a proposal made from its text now.", stale.path, proposalTitle(p), stale.what))
	}
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("quire: %s %s", p.Kind, p.Name)
	res, err := s.applyEdit(ctx, label, edit)
	if err != nil {
		s.log.Warn("workspace/applyEdit failed", "err", err)
		return nil, s.outcome(ctx, announce, protocol.MessageTypeError, jsonrpc2.InternalError,
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

// annotationsSupported reports whether the client declared change
// annotations in workspace edits.
func (s *Server) annotationsSupported() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.client.Workspace
	return w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.ChangeAnnotationSupport != nil
}

// proposalWorkspaceEdit checks every file of p against its base hash and
// builds the edit: per file in the order first edited, a CreateFile and
// the new text for a create, a TextDocumentEdit for an update.
func (s *Server) proposalWorkspaceEdit(proj *project, p proposal.Proposal) (proposalEdit, error) {
	annotate := s.annotationsSupported()
	annotation := ""
	out := proposalEdit{DocumentChanges: []any{}}
	if annotate {
		annotation = proposalAnnotationID
		desc := p.ChangeSummary
		if desc == "" {
			desc = fmt.Sprintf("%s of %s", p.Kind, p.Path)
		}
		out.ChangeAnnotations = map[string]changeAnnotation{annotation: {
			Label: fmt.Sprintf("Quire proposal: %s", p.Name), NeedsConfirmation: true, Description: desc,
		}}
	}
	stale := func(path, what string) error {
		msg := fmt.Sprintf("%s changed since the %s was made (%s); ask again", path, proposalTitle(p), what)
		return &staleError{err: jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg), path: path, what: what}
	}
	var order []string
	byPath := map[string][]proposal.FileEdit{}
	for _, e := range p.Edits {
		if _, seen := byPath[e.Path]; !seen {
			order = append(order, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	if len(order) == 0 {
		return out, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("proposal %s has no edits", p.ID))
	}
	for _, rel := range order {
		if _, inside := proj.rel(filepath.Join(proj.real, filepath.FromSlash(rel))); !inside || filepath.IsAbs(rel) {
			return out, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("proposal %s edits %s, outside the project", p.ID, rel))
		}
		cur, err := s.currentText(proj, rel)
		if err != nil {
			return out, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("read %s: %v", rel, err))
		}
		edits := byPath[rel]
		if edits[0].Create {
			if cur.exists {
				return out, stale(rel, "it was created")
			}
			create := createFileChange{Kind: "create", URI: cur.uri, AnnotationID: annotation}
			fill := textDocumentEdit{TextDocument: versionedDocument{URI: cur.uri}}
			for _, e := range edits {
				fill.Edits = append(fill.Edits, annotatedTextEdit{NewText: e.NewText, AnnotationID: annotation})
			}
			out.DocumentChanges = append(out.DocumentChanges, create, fill)
			continue
		}
		if !cur.exists {
			return out, stale(rel, "it was deleted")
		}
		if why := p.Stale(rel, cur.text); why != "" {
			return out, stale(rel, why)
		}
		change := textDocumentEdit{TextDocument: versionedDocument{URI: cur.uri, Version: cur.version}}
		for _, e := range edits {
			r := e.Range
			if r.Start < 0 || r.End < r.Start || r.End > len(cur.text) {
				return out, stale(rel, "it was edited")
			}
			change.Edits = append(change.Edits, annotatedTextEdit{Range: cur.lines.rangeOf(r.Start, r.End), NewText: e.NewText, AnnotationID: annotation})
		}
		out.DocumentChanges = append(out.DocumentChanges, change)
	}
	return out, nil
}
