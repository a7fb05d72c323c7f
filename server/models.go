package server

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/keys"
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
	for _, proj := range s.sess.books() {
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
	b.WriteString(" choose one among the code actions of any chapter (\"quire: Use …\"), or in a terminal with quire models --use N.")
	return b.String()
}

// In editors with no picker of their own (Helix, eglot) the local models
// are code actions, "quire: Use llama3.2 (Ollama)", in every Markdown
// file of a book while no provider is configured: choosing one runs
// quire.useModel. Code actions are asked for at each cursor move, so
// the servers' answer is kept for a while rather than asked each time.

// localSeenFor is how long a look at the local servers is reused.
const localSeenFor = 30 * time.Second

// maxModelActions bounds the actions offered: a writer with forty
// models pulled picks from quire models or the editor's own list.
const maxModelActions = 5

// useModelTitle is the action's title for m.
func useModelTitle(m wire.LocalModel) string {
	return fmt.Sprintf("quire: Use %s (%s)", m.Model, m.Server)
}

// localModelCache is the last look at the local servers.
type localModelCache struct {
	mu     sync.Mutex
	at     time.Time
	models []wire.LocalModel
}

// recentLocalModels is the local models, looked for again when the last look is
// older than localSeenFor.
func (s *Server) recentLocalModels(ctx context.Context) []wire.LocalModel {
	c := &s.localSeen
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() || time.Since(c.at) > localSeenFor {
		c.models = s.localModels(ctx)
		c.at = time.Now()
	}
	return c.models
}

// noProviderNamed says the advisor has no provider to ask: none named by
// the editor or the settings files, and no OpenAI key in the
// environment. (A key for OpenAI in the keychain is not looked for here:
// a code action must not wait on the keychain. Such a writer sees the
// local models offered too, and may choose one.)
func (s *Server) noProviderNamed(proj *openBook) bool {
	ps := s.clientCfg.settings().Provider.onto(proj.configOf().provider)
	return !ps.Named() && os.Getenv("OPENAI_API_KEY") == "" && os.Getenv(keys.EditorKeyEnv) == ""
}

// useModelActions are the actions that choose a local model, while the
// book has no provider.
func (s *Server) useModelActions(ctx context.Context, proj *openBook) []codeAction {
	if !s.noProviderNamed(proj) {
		return nil
	}
	var out []codeAction
	for _, m := range s.recentLocalModels(ctx) {
		if len(out) == maxModelActions {
			break
		}
		title := useModelTitle(m)
		out = append(out, codeAction{Title: title, Command: &actionCommand{Title: title, Command: wire.CommandUseModel,
			Arguments: []any{wire.UseModelParams{BaseURL: m.BaseURL, Model: m.Model}}}})
	}
	return out
}
