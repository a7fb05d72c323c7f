package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

// commands are the custom requests again as workspace/executeCommand
// commands, for clients (Helix among them) that cannot send custom
// methods. A command takes one argument: the request's params object.
func (s *Server) commands() map[string]requestHandler {
	cs := map[string]requestHandler{
		wire.CommandLookup:            s.quireLookupCommand,
		wire.CommandSearch:            s.quireSearch,
		wire.CommandList:              s.quireList,
		wire.CommandManuscriptContext: s.quireManuscriptContext,
		wire.CommandCaptureSelection:  s.quireCaptureSelection,
		wire.CommandReindex:           s.quireReindex,
		wire.CommandStatus:            s.quireStatus,
		wire.CommandActions:           s.quireActions,
		wire.CommandCreateEntry:       s.quireCreateEntry,
		wire.CommandAsk:               s.quireAskCommand,
		wire.CommandPeekPrompt:        s.quirePeekPromptCommand,
		wire.CommandPersonas:          s.quirePersonas,
	}
	for _, more := range []map[string]requestHandler{s.proposalCommands()} {
		for name, h := range more {
			cs[name] = h
		}
	}
	return cs
}

// commandNames lists the commands for the initialize result.
func (s *Server) commandNames() []string {
	names := make([]string, 0, len(s.cmds))
	for name := range s.cmds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (s *Server) executeCommand(ctx context.Context, params json.RawMessage) (any, error) {
	p, err := decode[struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments,omitempty"`
	}](params)
	if err != nil {
		return nil, err
	}
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
