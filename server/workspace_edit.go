package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/server/textdoc"
)

// Workspace edits: the one set of edit shapes quire sends, how it builds
// them from what the writer has now (the editor's text of an open
// document, else the disk's), and workspace/applyEdit, by which the
// editor, never quire, changes the files.

// applyEditResult is the client's answer to workspace/applyEdit. The
// protocol library's Client.ApplyEdit decodes it as a bare boolean and so
// loses both fields; quire sends the request itself.
type applyEditResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// applyEdit asks the client to apply edit. It reports whether the client
// did, and the client's reason when it did not.
func (s *Server) applyEdit(ctx context.Context, label string, edit any) (applyEditResult, error) {
	var res applyEditResult
	params := struct {
		Label string `json:"label,omitempty"`
		Edit  any    `json:"edit"`
	}{label, edit}
	if err := s.callClient(ctx, protocol.MethodWorkspaceApplyEdit, params, &res); err != nil {
		return res, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	return res, nil
}

// proposalAnnotationID marks a proposal's edits for the writer's review.
const proposalAnnotationID = "quire-proposal"

// workspaceEdit is every workspace edit quire sends: a rename's changes,
// a new entry's file, a proposal's versioned edits. The protocol library
// (v0.12.0) types documentChanges as text edits only, without resource
// operations, and has no change annotations; these shapes have both.
type workspaceEdit struct {
	Changes           map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges   []any                                        `json:"documentChanges,omitempty"`
	ChangeAnnotations map[string]changeAnnotation                  `json:"changeAnnotations,omitempty"`
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

type createFile struct {
	Kind         string               `json:"kind"`
	URI          protocol.DocumentURI `json:"uri"`
	Options      createOptions        `json:"options"`
	AnnotationID string               `json:"annotationId,omitempty"`
}

// createOptions are spelled out: quire never overwrites a file, and for a
// proposal a file that appeared meanwhile fails the edit rather than
// being skipped.
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
	lines   *textdoc.Lines
}

// currentText reads rel in proj as the writer now has it.
func (s *Server) currentText(proj *openBook, rel string) (fileText, error) {
	full := filepath.Join(proj.real, filepath.FromSlash(rel))
	ft := fileText{uri: proj.uri(rel)}
	if doc := s.openDocAt(full); doc != nil {
		v := doc.Version
		ft.uri, ft.text, ft.version, ft.exists, ft.lines = doc.URI, doc.Text, &v, true, doc.Lines
		return ft, nil
	}
	b, err := os.ReadFile(full)
	if errors.Is(err, fs.ErrNotExist) {
		return ft, nil
	}
	if err != nil {
		return ft, err
	}
	// A file saved as UTF-16 is edited as the editor shows it: as text.
	b = codex.DecodeText(b)
	ft.text, ft.exists, ft.lines = string(b), true, textdoc.NewLines(string(b))
	return ft, nil
}

// openDocAt finds the open document of a file by its path, whatever
// spelling of the URI the client used.
func (s *Server) openDocAt(full string) *textdoc.Document {
	return s.sess.docAt(full)
}

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
func (s *Server) proposalWorkspaceEdit(proj *openBook, p proposal.Proposal) (workspaceEdit, error) {
	annotate := s.annotationsSupported()
	annotation := ""
	out := workspaceEdit{DocumentChanges: []any{}}
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
			create := createFile{Kind: "create", URI: cur.uri, AnnotationID: annotation}
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
			change.Edits = append(change.Edits, annotatedTextEdit{Range: cur.lines.RangeOf(r.Start, r.End), NewText: e.NewText, AnnotationID: annotation})
		}
		out.DocumentChanges = append(out.DocumentChanges, change)
	}
	return out, nil
}

// newFileEdit is the edit that makes a file with text: a create
// operation and the text, for clients that support creating files; else
// the text inserted into the (not yet existing) document, which eglot
// and others open as a new buffer the writer saves.
func (s *Server) newFileEdit(uri protocol.DocumentURI, text string) workspaceEdit {
	s.mu.Lock()
	ws := s.client.Workspace
	s.mu.Unlock()
	if ws != nil && ws.WorkspaceEdit != nil && slices.Contains(ws.WorkspaceEdit.ResourceOperations, "create") {
		create := createFile{Kind: "create", URI: uri, Options: createOptions{IgnoreIfExists: true}}
		fill := textDocumentEdit{TextDocument: versionedDocument{URI: uri}, Edits: []annotatedTextEdit{{NewText: text}}}
		return workspaceEdit{DocumentChanges: []any{create, fill}}
	}
	return workspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{uri: {{NewText: text}}}}
}
