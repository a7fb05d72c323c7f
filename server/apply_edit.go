package server

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
)

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
	if _, err := s.conn.Call(ctx, protocol.MethodWorkspaceApplyEdit, params, &res); err != nil {
		return res, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	return res, nil
}
