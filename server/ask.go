package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quire/ask and quire.ask: an advisor turn, its answer streamed as
// work-done progress.

// turnInput is an ask made ready: the project, the input and the
// conversation it continues.
type turnInput struct {
	proj   *openBook
	in     llm.AskInput
	convID string
	// baseURL is the provider's address, for a failure's message.
	baseURL string
}

// prepareAsk resolves the arguments into a turn. needKey is false for a
// peek, which sends nothing.
func (s *Server) prepareAsk(ctx context.Context, a wire.AskParams, needKey bool) (*turnInput, error) {
	if strings.TrimSpace(a.Message) == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "message is required")
	}
	proj, err := s.projectOf(ctx, wire.BookParams{URI: a.URI})
	if err != nil {
		return nil, err
	}
	cs := s.clientCfg.settings()
	// Who answers is chosen once, as everywhere (llm.ChoosePersona): the
	// request's advisor, else the editor's setting, else the default.
	chosen, err := llm.ChoosePersona(a.Persona, cs.Persona)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	persona := chosen.ID

	// Trust given or taken back in a terminal applies from this ask on.
	s.refreshTrust(ctx, proj)
	book := proj.configOf()
	ps := cs.Provider.onto(book.provider)
	if ps.Stream == nil {
		// In the editor the answer is worth watching arrive.
		stream := true
		ps.Stream = &stream
	}
	place, err := s.askPlace(ctx, proj, a)
	if err != nil {
		return nil, err
	}
	// The turn is built as the command line builds it (llm.NewTurn).
	built, err := llm.NewTurn(ctx, llm.TurnOptions{
		Request: llm.Request{Persona: chosen, Message: a.Message, Settings: book.settings, Proposals: &proj.proposals,
			MCP: proj.mcpPool(s.log, s.mcpFailed), Loop: llm.LoopOptions{MaxRounds: ps.Rounds, ToolCalling: ps.ToolCalling}},
		Store:             proj.store,
		Canon:             proj.view(),
		Manuscript:        proj.ms.Snapshot(),
		Place:             place,
		Continuity:        book.continuity,
		Outline:           book.outline,
		Timeline:          proj.askTimeline,
		Provider:          ps,
		NeedKey:           needKey,
		Keys:              llm.KeyFinder{Getenv: os.Getenv, Stored: s.opts.Keys},
		Provenance:        proj.cache.Provenance(),
		OnProvenanceError: func(err error) { s.log.Warn("provenance not recorded", "err", err) },
		Logger:            s.log,
	})
	if err != nil {
		msg := err.Error()
		if errors.Is(err, llm.ErrNoProvider) {
			msg = "quire cannot ask the advisors yet: " + msg + ". Configure the provider in quire.yaml's provider section, or in the editor's quire settings (provider: base_url, model, api_key_env)."
			if !ps.Named() {
				// Nothing configured: what runs on this computer is
				// one choice away (Helix and eglot show only this).
				if local := localChoices(s.localModels(ctx)); local != "" {
					msg += " " + local
				}
			}
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg)
	}
	if w := built.Key.Withheld; w.Kind != keys.None {
		s.log.Info("key not sent: the server is named by a book not trusted", "key", w.String(), "root", proj.real)
	}
	prov := built.In.Provider
	var history []llm.Message
	convID := a.ConversationID
	var previous string
	if needKey {
		if convID, history, err = s.convs.conversation(convID, proj, persona); err != nil {
			return nil, err
		}
		if prov.StoresResponses() {
			previous = s.convs.responseID(convID)
		}
	} else if convID != "" {
		// A peek shows the history it would send but starts nothing.
		history = s.convs.history(convID, proj, persona)
	}
	// The history stays as a fallback: a stored response can expire.
	built.In.History, built.In.PreviousResponseID = history, previous
	return &turnInput{proj: proj, convID: convID, baseURL: built.Config.BaseURL, in: built.In}, nil
}

// mcpFailed tells the writer an MCP server could not serve; the tool
// call that met it got an error envelope, so the turn went on.
func (s *Server) mcpFailed(server string, err error) {
	s.showMessage(s.ctx, protocol.MessageTypeWarning, fmt.Sprintf("quire: MCP server %s: %v", server, err))
}

// askPlace is the writer's place: the document in uri, and the selection
// in range, or else the last one captured in that document.
func (s *Server) askPlace(ctx context.Context, proj *openBook, a wire.AskParams) (manuscript.Place, error) {
	var place manuscript.Place
	if a.URI == "" {
		return place, nil
	}
	if path, ok := textdoc.URIPath(a.URI); ok {
		if _, rel, ok := s.projectFor(path); ok {
			place.Current = rel
		}
	}
	if a.Range != nil {
		c, err := s.capture(ctx, wire.CaptureParams{URI: a.URI, Range: *a.Range})
		if err != nil {
			return place, err
		}
		if a.SelectionHash != "" && a.SelectionHash != c.sel.Hash {
			return place, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the selected text changed since this action was offered; select it again and ask")
		}
		s.sess.capture(c)
		place.Selection = c.sel
		return place, nil
	}
	if sel := s.sess.captured(); sel != nil && sel.proj == proj && sel.sel.Path == place.Current {
		place.Selection = sel.sel
	}
	return place, nil
}

// quireAsk runs an advisor turn, streaming its tool rows as progress.
func (s *Server) quireAsk(ctx context.Context, a wire.AskParams) (wire.AskResult, error) {
	t, err := s.prepareAsk(ctx, a, true)
	if err != nil {
		return wire.AskResult{}, err
	}
	askCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// No "quire:" in the title: editors (Helix) put the server's name first.
	prog := &askStream{progress: s.startProgress(ctx, "ask", a.WorkDoneToken, t.in.Persona.Name, true)}
	defer s.running.track(prog.progress, cancel)()
	t.in.Loop.OnTrace = func(r llm.TraceRow) {
		row := wire.ToolRow{Round: r.Round, Tool: r.Tool, Summary: r.ArgsSummary, OK: r.OK, Code: r.Code, MS: r.Duration.Milliseconds()}
		prog.row(ctx, row)
	}
	t.in.Loop.OnDelta = func(round int, text string) { prog.delta(ctx, round, text) }
	// A stored conversation the provider no longer has is sent again
	// from its history (llm.Ask).
	res, err := llm.Ask(askCtx, t.in)
	if askCtx.Err() != nil {
		prog.end(ctx, "cancelled")
		return wire.AskResult{}, protocol.ErrRequestCancelled
	}
	if err != nil {
		if _, cut := llm.CutOff(err); cut {
			prog.end(ctx, "cut off")
			s.log.Warn("ask cut off", "err", err)
		} else {
			prog.end(ctx, "failed")
			s.log.Warn("ask failed", "err", err)
		}
		return wire.AskResult{}, askError(err, t.baseURL)
	}
	s.convs.remember(t.convID, res.ResponseID, llm.Exchange(a.Message, res.Answer)...)
	prog.flush(ctx)
	prog.message(ctx, res.Answer)
	prog.end(ctx, "answered")
	out := wire.AskResult{Persona: res.Persona.ID, Answer: res.Answer, Interim: res.Interim, Evidence: []wire.Evidence{}, Proposals: []string{},
		ConversationID: t.convID, ServiceTier: res.ServiceTier, Warnings: res.Warnings}
	out.Evidence, out.Consulted = evidenceOf(t.proj, res.Evidence, res.Answer)
	for _, p := range res.Proposals {
		out.Proposals = append(out.Proposals, p.ID)
	}
	return out, nil
}

// quireAskCommand is quire.ask run as a command, from an editor that
// shows neither its result nor, often, its progress. The answer is always
// written as a document: opened when the client can open one, else told
// in a message that gives its start and the document's path. Without
// work-done progress the writer is also told that the ask started.
func (s *Server) quireAskCommand(ctx context.Context, a wire.AskParams) (wire.AskResult, error) {
	if k := tokenKey(a.WorkDoneToken); (k == "" || k == "null") && !s.workDoneProgressSupported() {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("Asking the %s…", s.personaName(a.Persona)))
	}
	res, err := s.quireAsk(ctx, a)
	if err != nil {
		return res, err
	}
	name := llm.ResolvePersona(res.Persona).Name
	path, err := s.writeAnswer(ctx, a, res)
	if err != nil {
		s.log.Warn("answer document not written", "err", err)
		s.showMessage(ctx, protocol.MessageTypeInfo, answeredMessage(name, res, ""))
		return res, nil
	}
	if s.showDocumentSupported() && s.showDocument(ctx, s.names.URI(path)) {
		return res, nil
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, answeredMessage(name, res, path))
	return res, nil
}

// evidenceOf is an answer's context manifest: each file its tools read,
// once per reading (the same entry read as of two chapters is two), with
// the call that read it and why, and whether the answer names it; and
// each call in order.
func evidenceOf(proj *openBook, lookups []tools.Lookup, answer string) ([]wire.Evidence, []wire.Consulted) {
	evidence, consulted := []wire.Evidence{}, []wire.Consulted{}
	snap, cat := proj.ms.Snapshot(), proj.catalog()
	seen := map[string]bool{}
	for _, e := range lookups {
		consulted = append(consulted, wire.Consulted{Round: e.Round, Call: e.Call(), OK: e.OK, Outlined: e.Outlined})
		why := e.Call()
		if e.Via != "" {
			why += ", after " + e.Via + " listed it"
		}
		for i, p := range e.Paths {
			hash := ""
			if i < len(e.Hashes) {
				hash = e.Hashes[i]
			}
			if key := e.Tool + "\x00" + p + "\x00" + hash + "\x00" + e.AsOf; !seen[key] {
				seen[key] = true
				evidence = append(evidence, wire.Evidence{URI: proj.uri(p), Path: p, Tool: e.Tool, Hash: hash,
					AsOf: e.AsOf, AsOfChapter: e.AsOfChapter, AsOfImplied: e.AsOfImplied,
					Why: why, Cited: tools.Cites(answer, snap, cat, p), Step: len(consulted)})
			}
		}
	}
	return evidence, consulted
}
