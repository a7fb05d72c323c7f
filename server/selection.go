package server

import (
	"context"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// The writer's selection, captured for an advisor turn: its text and hash
// stay in the server; the client gets its metadata.

// capturedSelection is the selection of the current advisor turn.
type capturedSelection struct {
	proj *openBook
	sel  *manuscript.Selection
}

// quireCaptureSelection records the writer's selection for the next
// advisor turn and returns its metadata; the text stays in the server.
func (s *Server) quireCaptureSelection(ctx context.Context, a wire.CaptureParams) (wire.CaptureResult, error) {
	c, err := s.capture(ctx, a)
	if err != nil {
		return wire.CaptureResult{}, err
	}
	s.sess.capture(c)
	return wire.CaptureResult(c.sel.Meta()), nil
}

// capture reads the selection a names from the open document, or from
// the file when it is not open.
func (s *Server) capture(ctx context.Context, a wire.CaptureParams) (*capturedSelection, error) {
	path, ok := textdoc.URIPath(a.URI)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "only file: documents can be captured")
	}
	proj, rel, ok := s.projectFor(path)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not in a quire project", a.URI))
	}
	if err := s.ready(ctx, proj); err != nil {
		return nil, err
	}
	var lines *textdoc.Lines
	if doc, open := s.openText(a.URI); open {
		lines = doc.Lines
	} else {
		u, err := proj.ms.Snapshot().Document(rel)
		if err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		lines = textdoc.NewLines(u.Text)
	}
	start, end, err := lines.RangeOffsets(a.Range)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	sel, err := proj.ms.Snapshot().CaptureSelection(rel, codex.Range{Start: start, End: end})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return &capturedSelection{proj: proj, sel: sel}, nil
}
