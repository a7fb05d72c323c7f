package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/server/wire"
)

// quire.propose / quire/propose builds proposals from a selection: the
// continuity editor (or the persona named) is asked to propose the codex
// changes the passage establishes, and the result carries each proposal
// in full, diff included, ready to apply with quire.applyProposal.

func (s *Server) quirePropose(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.AskParams](params)
	if err != nil {
		return nil, err
	}
	if a.Range == nil || a.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "quire.propose needs uri and range: the passage to propose from")
	}
	if a.Persona == "" {
		a.Persona = "continuity-editor"
	}
	if a.Message == "" {
		a.Message = proposeMessage
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	out, err := s.quireAsk(ctx, raw)
	if err != nil {
		return nil, err
	}
	res := out.(wire.AskResult)
	proj, err := s.projectOf(ctx, wire.BookParams{URI: a.URI})
	if err != nil {
		return nil, err
	}
	details := []wire.Proposal{}
	for _, id := range res.Proposals {
		if p, ok := proj.proposals.Get(id); ok {
			details = append(details, s.summarize(proj, p))
		}
	}
	return wire.ProposeResult{AskResult: res, Details: details}, nil
}
