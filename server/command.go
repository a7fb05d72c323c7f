package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// commandNames lists the commands for the initialize result.
func (s *Server) commandNames() []string {
	names := make([]string, 0, len(s.cmds))
	for name := range s.cmds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// executeParams are workspace/executeCommand's. The argument stays JSON
// until the command's entry in the table decodes it into its type.
type executeParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// executeCommand runs a command of the table in handlers.go.
func (s *Server) executeCommand(ctx context.Context, p executeParams) (any, error) {
	h, ok := s.cmds[p.Command]
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q; quire's commands are %v", p.Command, s.commandNames()))
	}
	var arg json.RawMessage = []byte("{}")
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	res, err := h(ctx, arg)
	if err == nil || ctx.Err() != nil || errors.Is(err, protocol.ErrRequestCancelled) {
		return res, err
	}
	// A command runs from a code action, and editors show its error
	// reply with a JSON-RPC code (eglot), only in a log (Helix), or not at
	// all: the writer reads the failure as a message instead, and the
	// command answers null so that nothing shows it a second time.
	var told *toldError
	if !errors.As(err, &told) {
		s.showMessage(ctx, protocol.MessageTypeError, err.Error())
	}
	return nil, nil
}
