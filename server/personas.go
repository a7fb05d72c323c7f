package server

import (
	"context"
	"encoding/json"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// quirePersonas lists the advisory board, for plugins' pickers.
func (s *Server) quirePersonas(context.Context, json.RawMessage) (any, error) {
	out := []wire.Persona{}
	for _, p := range llm.Personas() {
		out = append(out, wire.Persona{ID: p.ID, Name: p.Name, Focus: p.Focus})
	}
	return out, nil
}
