package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
)

// commands are the custom requests again as workspace/executeCommand
// commands, for clients (Helix among them) that cannot send custom
// methods. A command takes one argument: the request's params object.
func (s *Server) commands() map[string]requestHandler {
	cs := map[string]requestHandler{
		"quire.lookup":            s.quireLookup,
		"quire.search":            s.quireSearch,
		"quire.list":              s.quireList,
		"quire.manuscriptContext": s.quireManuscriptContext,
		"quire.captureSelection":  s.quireCaptureSelection,
		"quire.reindex":           s.quireReindex,
		"quire.status":            s.quireStatus,
		"quire.actions":           s.quireActions,
		commandCreateEntry:        s.quireCreateEntry,
	}
	for _, more := range []map[string]requestHandler{s.advisorCommands(), s.proposalCommands()} {
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
	return h(ctx, arg)
}
