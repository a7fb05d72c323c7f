package server

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// prepareRename answers whether the cursor is on a name quire can rename:
// a mention or link of a codex entry.
func (s *Server) prepareRename(ctx context.Context, params json.RawMessage) (any, error) {
	p, err := decode[protocol.PrepareRenameParams](params)
	if err != nil {
		return nil, err
	}
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	e, r, ok := t.entryAt()
	if !ok {
		return nil, nil
	}
	return struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}{t.lines.rangeOf(r.Start, r.End), e.Name}, nil
}

// rename renames an entity: its `name:` and every mention of that name,
// in prose and codex, as one edit for the writer to review. Aliases stay
// as they are: "Mara" is still Mara after "Mara Vell" becomes "Mara Kell".
func (s *Server) rename(ctx context.Context, params json.RawMessage) (any, error) {
	p, err := decode[protocol.RenameParams](params)
	if err != nil {
		return nil, err
	}
	newName := strings.TrimSpace(p.NewName)
	if newName == "" || strings.ContainsAny(newName, "\r\n") {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "a new name is one line of text")
	}
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "this document is not part of a quire project")
	}
	e, _, ok := t.entryAt()
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "rename works on the name, alias or [[link]] of a codex entry")
	}
	if err := t.waitIndexed(ctx); err != nil {
		return nil, err
	}
	if e.NameRange.Len() == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, e.ID+" takes its name from its heading or file name; add `name:` to its front matter first")
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	nameLines := newLineIndex(e.Source)
	changes[t.proj.uri(e.ID)] = append(changes[t.proj.uri(e.ID)], protocol.TextEdit{
		Range:   nameLines.rangeOf(e.NameRange.Start, e.NameRange.End),
		NewText: yamlScalar(e.Source[e.NameRange.Start:e.NameRange.End], newName),
	})
	var names []occurrence
	for _, o := range t.occurrences(e) {
		if !o.mention.Alias && o.mention.Entry == e.ID {
			names = append(names, o)
		}
	}
	for _, loc := range t.locations(names) {
		changes[loc.URI] = append(changes[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: newName})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, ctx.Err()
}

// yamlScalar writes the new name the way the old one was written: quoted
// if it was, and quoted anyway when YAML would misread it bare.
func yamlScalar(old, name string) string {
	switch {
	case strings.HasPrefix(old, `"`):
		return `"` + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), `"`, `\"`) + `"`
	case strings.HasPrefix(old, `'`):
		return `'` + strings.ReplaceAll(name, `'`, `''`) + `'`
	case strings.ContainsAny(name, ":#[]{},&*!|>'\"%@`") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "?"):
		return `"` + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), `"`, `\"`) + `"`
	}
	return name
}
