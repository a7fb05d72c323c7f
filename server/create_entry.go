package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quire.createEntry creates a codex entry from a template. The quick
// fixes run it instead of carrying the edit themselves: the client
// applies a code action's edit without telling the server how that went,
// and Helix and eglot say nothing, so the writer would not know whether
// a file was made, or where.

// createEntryArgs are the command's argument: the name, its type, and
// the document the fix was offered in (which finds the book); for an
// untracked name, the other forms its suggestion counted (aliases) and
// the other names it kept apart (exclude), which the entry lists so that
// it finds the mentions the hint promised.
type createEntryArgs struct {
	Name    string               `json:"name"`
	Aliases []string             `json:"aliases,omitempty"`
	Exclude []string             `json:"exclude,omitempty"`
	Type    codex.Type           `json:"type"`
	URI     protocol.DocumentURI `json:"uri"`
}

// maxEntryForms bounds the aliases and exclusions a created entry takes
// from the command's arguments.
const maxEntryForms = 32

// createEntryResult says what the command did.
type createEntryResult struct {
	Created bool                 `json:"created"`
	URI     protocol.DocumentURI `json:"uri"`
	// Reason is why nothing was created, in the writer's words.
	Reason string `json:"reason,omitempty"`
}

// newEntryTypes are offered for a name without an entry: every type,
// the likeliest first (the sample's Hesper is a ship, an item).
var newEntryTypes = codex.Types

// createEntryActions offers, for each untracked-name diagnostic and each
// broken [[link]] in the request's context, one quick fix per entry type.
func (s *Server) createEntryActions(ctx context.Context, p protocol.CodeActionParams) []codeAction {
	var out []codeAction
	for _, d := range p.Context.Diagnostics {
		missing := s.missingEntry(ctx, p.TextDocument.URI, d)
		if missing.Name == "" {
			continue
		}
		for i, t := range newEntryTypes {
			title := fmt.Sprintf("Create %s entry for %s", t, missing.Name)
			args := missing
			args.Type, args.URI = t, p.TextDocument.URI
			out = append(out, codeAction{
				Title:       title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: i == 0,
				Command:     &actionCommand{Title: title, Command: wire.CommandCreateEntry, Arguments: []any{args}},
			})
		}
	}
	return out
}

// missingEntry is the entry a diagnostic says is missing: an untracked
// name with the forms and exclusions its suggestion counted by (carried
// in its data), or the target of a broken link (read from the text, since
// clients do not all send data back). A link whose entry exists but lacks
// the section gets no fix.
func (s *Server) missingEntry(ctx context.Context, uri protocol.DocumentURI, d protocol.Diagnostic) createEntryArgs {
	switch d.Code {
	case codeUntrackedName:
		var data untrackedData
		if raw, err := json.Marshal(d.Data); err == nil && json.Unmarshal(raw, &data) == nil {
			return createEntryArgs{Name: data.Name, Aliases: data.Aliases, Exclude: data.Exclude}
		}
	case codex.CodeBrokenLink:
		return createEntryArgs{Name: s.brokenLinkTarget(ctx, uri, d)}
	}
	return createEntryArgs{}
}

// brokenLinkTarget is the name a broken link's diagnostic covers, when no
// entry has it.
func (s *Server) brokenLinkTarget(ctx context.Context, uri protocol.DocumentURI, d protocol.Diagnostic) string {
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: d.Range.Start})
	if err != nil || !ok {
		return ""
	}
	end, err := t.lines.Offset(d.Range.End)
	if err != nil || end < t.offset || end-t.offset > 200 {
		return ""
	}
	name, _, _ := strings.Cut(t.text[t.offset:end], "#")
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, "[]\n") {
		return ""
	}
	if _, exists := t.cat.Resolve(name); exists {
		return ""
	}
	return name
}

// quireCreateEntry writes a new entry through the editor and tells the
// writer what happened: created (and where), already there, or refused.
func (s *Server) quireCreateEntry(ctx context.Context, a createEntryArgs) (createEntryResult, error) {
	a.Name = strings.TrimSpace(a.Name)
	if !oneShortLine(a.Name) {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "an entry's name is one short line of text")
	}
	a.Aliases, a.Exclude = trimmed(a.Aliases), trimmed(a.Exclude)
	if len(a.Aliases) > maxEntryForms || len(a.Exclude) > maxEntryForms ||
		slices.ContainsFunc(append(slices.Clip(a.Aliases), a.Exclude...), func(f string) bool { return !oneShortLine(f) }) {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("an entry takes at most %d aliases and %d exclusions, each one short line of text", maxEntryForms, maxEntryForms))
	}
	if !a.Type.Builtin() {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%q is not an entry type; the types are %v", a.Type, codex.Types))
	}
	file, ok := textdoc.URIPath(a.URI)
	if !ok {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "the fix needs the file: URI of a document in the book")
	}
	proj, _, ok := s.projectFor(file)
	if !ok {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "this document is not part of a quire book")
	}
	if err := s.ready(ctx, proj); err != nil {
		return createEntryResult{}, err
	}
	cat := proj.catalog()
	rel := path.Join(entryFolder(cat, a.Type), slug(a.Name)+".md")
	uri := proj.uri(rel)
	res := createEntryResult{URI: uri}
	if e, exists := cat.Resolve(a.Name); exists && strings.EqualFold(e.Name, a.Name) {
		res.Reason = fmt.Sprintf("%s already has an entry: %s", a.Name, e.ID)
		s.showMessage(ctx, protocol.MessageTypeInfo, res.Reason+".")
		return res, nil
	}
	if _, err := os.Lstat(filepath.Join(proj.real, filepath.FromSlash(rel))); err == nil {
		res.Reason = fmt.Sprintf("%s already exists; quire does not overwrite it", rel)
		s.showMessage(ctx, protocol.MessageTypeWarning, "No entry created for "+a.Name+": "+res.Reason+".")
		return res, nil
	}
	src, err := codex.NewEntrySource(codex.EntryDraft{Type: a.Type, Name: a.Name, Aliases: a.Aliases, Exclude: a.Exclude})
	if err != nil {
		return createEntryResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "no entry made of that: "+err.Error())
	}
	applied, err := s.applyEdit(ctx, "Create "+string(a.Type)+" entry for "+a.Name, s.newFileEdit(uri, src))
	switch {
	case err != nil:
		res.Reason = "the editor did not answer the request to create the file"
	case !applied.Applied:
		res.Reason = "the editor did not create the file"
		if applied.FailureReason != "" {
			res.Reason += " (" + applied.FailureReason + ")"
		}
	}
	if res.Reason != "" {
		s.showMessage(ctx, protocol.MessageTypeWarning, fmt.Sprintf("No entry created for %s: %s. You can create %s yourself.", a.Name, res.Reason, rel))
		return res, nil
	}
	res.Created = true
	s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("Created %s, the %s entry for %s: fill it in and save.", rel, a.Type, a.Name))
	if s.showDocumentSupported() {
		var shown struct {
			Success bool `json:"success"`
		}
		if err := s.callClient(ctx, "window/showDocument", map[string]any{"uri": uri, "takeFocus": true}, &shown); err != nil {
			s.log.Debug("new entry not shown", "err", err)
		}
	}
	return res, nil
}

// entryFolder is where a new entry of type t goes: the folder holding
// most of the book's entries of that type, else a folder named for the
// type beside the other types' folders, else codex/<types>.
func entryFolder(cat *codex.Catalog, t codex.Type) string {
	count := map[string]int{}
	best := ""
	for _, e := range cat.OfType(t) {
		if path.Base(e.ID) == "index.md" {
			continue // a folder-shaped entry: its folder is the entry's own
		}
		dir := path.Dir(e.ID)
		count[dir]++
		if count[dir] > count[best] || (count[dir] == count[best] && dir < best) {
			best = dir
		}
	}
	if best != "" {
		return best
	}
	for _, e := range cat.All() {
		dir := path.Dir(e.ID)
		if _, ok := codex.TypeFromFolder(path.Base(dir)); ok {
			return path.Join(path.Dir(dir), t.Plural())
		}
	}
	return path.Join("codex", t.Plural())
}

// trimmed is list with each item's spaces around it trimmed.
func trimmed(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

// oneShortLine reports a name that is one short line of text.
func oneShortLine(name string) bool {
	return name != "" && len(name) <= 200 && !strings.ContainsFunc(name, unicode.IsControl)
}

// slug makes a file name of a name: "Port Caddow" → "port-caddow",
// "Анна Каренина" → "анна-каренина" (codex.Slug).
func slug(name string) string {
	if s := codex.Slug(name, 60); s != "" {
		return s
	}
	return "entry"
}
