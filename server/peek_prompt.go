package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// quirePeekPrompt is the body quire.ask would send first; nothing is sent.
func (s *Server) quirePeekPrompt(ctx context.Context, a wire.AskParams) (json.RawMessage, error) {
	t, err := s.prepareAsk(ctx, a, false)
	if err != nil {
		return nil, err
	}
	body, err := llm.Peek(ctx, t.in)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
	}
	return json.RawMessage(body), nil
}

// quirePeekPromptCommand is quire.peekPrompt as a command: the request
// that quire.ask would send, written as a document.
func (s *Server) quirePeekPromptCommand(ctx context.Context, a wire.AskParams) (json.RawMessage, error) {
	body, err := s.quirePeekPrompt(ctx, a)
	if err != nil {
		return body, err
	}
	// quirePeekPrompt refused a persona nobody has; this one answers.
	persona, _ := llm.ChoosePersona(a.Persona, s.clientCfg.settings().Persona)
	var pretty bytes.Buffer
	if json.Indent(&pretty, body, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(body)
	}
	pretty.WriteString("\n")
	path, err := s.writeCacheDoc("prompts", persona.ID, ".json", pretty.String())
	if err != nil {
		s.log.Warn("prompt document not written", "err", err)
		s.showMessage(ctx, protocol.MessageTypeWarning, fmt.Sprintf("quire could not write the prompt for the %s: %v", persona.Name, err))
		return body, nil
	}
	s.showDoc(ctx, path, fmt.Sprintf("The request quire would send to the %s (nothing was sent) is in %s", persona.Name, path))
	return body, nil
}
