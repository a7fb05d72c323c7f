package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/localmodel"
	"github.com/quire-ink/quire/server/wire"
)

// Local models in the editor: quire/models lists what the servers on the
// writer's computer offer (localmodel.Find), and quire.useModel writes
// one into the writer's own config.yaml, which every open book then reads
// again, so the advisor asks it from the next ask on.

// localModels asks the local servers for their models.
func (s *Server) localModels(ctx context.Context) []wire.LocalModel {
	found := localmodel.Find(ctx, s.opts.LocalModels)
	out := make([]wire.LocalModel, 0, len(found))
	for _, m := range found {
		out = append(out, wire.LocalModel{Server: m.Server, BaseURL: m.BaseURL, Model: m.Model})
	}
	return out
}

// quireModels answers quire/models (and quire.models).
func (s *Server) quireModels(ctx context.Context) ([]wire.LocalModel, error) {
	return s.localModels(ctx), nil
}

// quireUseModel runs quire.useModel. The model must be one a local server
// offers now: the command writes the writer's settings, and a server
// elsewhere is named in config.yaml by the writer's own hand.
func (s *Server) quireUseModel(ctx context.Context, p wire.UseModelParams) (wire.UseModelResult, error) {
	var chosen *localmodel.Model
	found := s.localModels(ctx)
	for _, m := range found {
		if m.BaseURL == p.BaseURL && m.Model == p.Model {
			chosen = &localmodel.Model{Server: m.Server, BaseURL: m.BaseURL, Model: m.Model}
			break
		}
	}
	if chosen == nil {
		return wire.UseModelResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams,
			fmt.Sprintf("No server on this computer offers the model %q at %s now; nothing was written. %s", p.Model, p.BaseURL, localChoices(found)))
	}
	path, err := settings.UserConfigPath()
	if err != nil {
		return wire.UseModelResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	if err := localmodel.Use(path, *chosen); err != nil {
		return wire.UseModelResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	// config.yaml lies under every book's settings: each reads it again.
	s.mu.Lock()
	projects := append([]*project(nil), s.projects...)
	s.mu.Unlock()
	for _, proj := range projects {
		if s.ready(ctx, proj) != nil {
			continue
		}
		if err := proj.reloadConfig(ctx); err != nil {
			s.log.Warn("settings not read again after choosing a model", "root", proj.real, "err", err)
		}
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("quire now asks %s on %s (%s); written to your settings, %s.", chosen.Model, chosen.Server, chosen.BaseURL, path))
	return wire.UseModelResult{Path: path, BaseURL: chosen.BaseURL, Model: chosen.Model}, nil
}

// localChoices lists the local models for a message, and how to choose
// one; "" when there are none.
func localChoices(found []wire.LocalModel) string {
	if len(found) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("These models run on this computer and need no key:")
	for i, m := range found {
		fmt.Fprintf(&b, " %d. %s (%s, %s);", i+1, m.Model, m.Server, m.BaseURL)
	}
	b.WriteString(" choose one in a terminal with quire models --use N, or with the command quire.useModel {baseURL, model}.")
	return b.String()
}
