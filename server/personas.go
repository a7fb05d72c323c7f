package server

import (
	"context"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// quirePersonas lists the advisory board, for plugins' pickers.
func (s *Server) quirePersonas(context.Context) ([]wire.Persona, error) {
	out := []wire.Persona{}
	for _, p := range llm.Personas() {
		out = append(out, wire.Persona{ID: p.ID, Name: p.Name, Focus: p.Focus})
	}
	return out, nil
}
