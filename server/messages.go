package server

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// toldError is a failure the writer was already shown in a message; a
// command failing with it sends no second one. A request still answers
// with the error it wraps.
type toldError struct{ err *jsonrpc2.Error }

func (e *toldError) Error() string { return e.err.Error() }
func (e *toldError) Unwrap() error { return e.err }

// outcome is the error a refused request answers with; when announce is
// set (a command), the writer is told msg as a message too.
func (s *Server) outcome(ctx context.Context, announce bool, typ protocol.MessageType, code jsonrpc2.Code, msg string) error {
	if announce {
		return s.tell(ctx, typ, code, msg)
	}
	return jsonrpc2.NewError(code, msg)
}

// tell shows the writer msg as a message of type typ and returns the
// error a request answers with (code), which a command does not show
// again.
func (s *Server) tell(ctx context.Context, typ protocol.MessageType, code jsonrpc2.Code, msg string) error {
	s.showMessage(ctx, typ, msg)
	return &toldError{err: jsonrpc2.NewError(code, msg)}
}

// showMessage tells the writer something the editor should pop up.
func (s *Server) showMessage(ctx context.Context, typ protocol.MessageType, message string) {
	if err := s.conn.Notify(ctx, protocol.MethodWindowShowMessage, protocol.ShowMessageParams{Type: typ, Message: message}); err != nil {
		s.log.Debug("message not sent", "err", err)
	}
}
