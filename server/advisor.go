package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

const (
	// historyMessages bounds a conversation's history: the last turns,
	// writer's message and answer each.
	historyMessages = 12
	// maxConversations bounds how many conversations a session keeps; the
	// least recently used goes first.
	maxConversations = 64
)

// advisor is the session's advisor state: the client's settings, the
// conversations and the asks in flight. Its zero value is ready.
type advisor struct {
	mu sync.Mutex
	// initial is from initializationOptions, config from the last
	// workspace/didChangeConfiguration; config wins.
	initial, config clientSettings
	convs           map[string]*conversation
	order           []string
	// running cancels an ask by its work-done token (JSON text).
	running map[string]context.CancelFunc
}

// conversation is the history of one persona with one project.
type conversation struct {
	proj    *project
	persona string
	history []llm.Message
	// responseID is the last answer's stored response (Responses API),
	// which the next turn continues instead of resending the history.
	responseID string
}

func (a *advisor) settings() clientSettings {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.initial.over(a.config)
}

func (a *advisor) setInitial(cs clientSettings) {
	a.mu.Lock()
	a.initial = cs
	a.mu.Unlock()
}

// conversation returns the history under id, creating the conversation
// (with a new id when id is "") if it is absent.
func (a *advisor) conversation(id string, proj *project, persona string) (string, []llm.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.convs == nil {
		a.convs = map[string]*conversation{}
	}
	if id == "" {
		id = newID("c-")
	}
	c, ok := a.convs[id]
	if ok && (c.proj != proj || c.persona != persona) {
		return "", nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("This conversation is with the %s, in another book or with another advisor; start a new one.", llm.ResolvePersona(c.persona).Name))
	}
	if !ok {
		a.convs[id] = &conversation{proj: proj, persona: persona}
		a.order = append(a.order, id)
		for len(a.order) > maxConversations {
			delete(a.convs, a.order[0])
			a.order = a.order[1:]
		}
		return id, nil, nil
	}
	return id, append([]llm.Message(nil), c.history...), nil
}

// responseID is the stored response a conversation continues from, ""
// when there is none.
func (a *advisor) responseID(id string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.convs[id]; ok {
		return c.responseID
	}
	return ""
}

// remember adds a turn to a conversation, keeping the last messages, and
// the response the turn ended with.
func (a *advisor) remember(id, responseID string, turn ...llm.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.convs[id]
	if !ok {
		return
	}
	c.responseID = responseID
	h := append(c.history, turn...)
	if len(h) > historyMessages {
		h = h[len(h)-historyMessages:]
	}
	c.history = append([]llm.Message(nil), h...)
}

func (a *advisor) track(token string, cancel context.CancelFunc) func() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running == nil {
		a.running = map[string]context.CancelFunc{}
	}
	a.running[token] = cancel
	return func() {
		a.mu.Lock()
		delete(a.running, token)
		a.mu.Unlock()
	}
}

func (a *advisor) cancel(token string) {
	a.mu.Lock()
	cancel := a.running[token]
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// turnInput is an ask made ready: the project, the input and the
// conversation it continues.
type turnInput struct {
	proj   *project
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
	cs := s.adv.settings()
	persona := a.Persona
	if persona == "" {
		persona = cs.Persona
	}
	if persona != "" {
		if _, ok := llm.PersonaByID(persona); !ok {
			var ids []string
			for _, p := range llm.Personas() {
				ids = append(ids, p.ID)
			}
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("There is no persona %q; the advisors are %s.", persona, strings.Join(ids, ", ")))
		}
	}
	persona = llm.ResolvePersona(persona).ID

	// Trust given or taken back in a terminal applies from this ask on.
	s.refreshTrust(ctx, proj)
	book := proj.configOf()
	ps := cs.Provider.onto(book.provider)
	if ps.Stream == nil {
		// In the editor the answer is worth watching arrive.
		stream := true
		ps.Stream = &stream
	}
	if k := llm.WithheldKey(ps); k != "" {
		s.log.Info("key not sent: the server is named by a book not trusted", "keyEnv", k, "root", proj.real)
	}
	place, err := s.askTurn(ctx, proj, a)
	if err != nil {
		return nil, err
	}
	// The turn is built as the command line builds it (llm.NewTurn).
	built, err := llm.NewTurn(llm.TurnOptions{
		Store: proj.store, Manuscript: proj.ms.Snapshot(), Place: place,
		Proposals: &proj.proposals, Settings: book.settings, PersonaID: persona, Message: a.Message,
		MCP:      proj.mcpPool(s.log, s.mcpFailed),
		Provider: ps, NeedKey: needKey,
		Provenance:        proj.cache.Provenance(),
		OnProvenanceError: func(err error) { s.log.Warn("provenance not recorded", "err", err) },
		Logger:            s.log,
		Loop:              llm.LoopOptions{MaxRounds: ps.Rounds, ToolCalling: ps.ToolCalling},
	})
	if err != nil {
		msg := err.Error()
		if errors.Is(err, llm.ErrNoProvider) {
			msg = "quire cannot ask the advisors yet: " + msg + ". Configure the provider in quire.yaml's provider section, or in the editor's quire settings (provider: base_url, model, api_key_env)."
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg)
	}
	provider := built.In.Provider
	var history []llm.Message
	convID := a.ConversationID
	var previous string
	if needKey {
		if convID, history, err = s.adv.conversation(convID, proj, persona); err != nil {
			return nil, err
		}
		if provider.API() == llm.APIResponses {
			previous = s.adv.responseID(convID)
		}
	} else if convID != "" {
		// A peek shows the history it would send but starts nothing.
		s.adv.mu.Lock()
		if c, ok := s.adv.convs[convID]; ok && c.proj == proj && c.persona == persona {
			history = append(history, c.history...)
		}
		s.adv.mu.Unlock()
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

// askTurn is the writer's place: the document in uri, and the selection
// in range, or else the last one captured in that document.
func (s *Server) askTurn(ctx context.Context, proj *project, a wire.AskParams) (manuscript.Turn, error) {
	var turn manuscript.Turn
	if a.URI == "" {
		return turn, nil
	}
	if path, ok := uriPath(a.URI); ok {
		if _, rel, ok := s.projectFor(path); ok {
			turn.Current = rel
		}
	}
	if a.Range != nil {
		c, err := s.capture(ctx, wire.CaptureParams{URI: a.URI, Range: *a.Range})
		if err != nil {
			return turn, err
		}
		if a.SelectionHash != "" && a.SelectionHash != c.sel.Hash {
			return turn, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the selected text changed since this action was offered; select it again and ask")
		}
		s.mu.Lock()
		s.selection = c
		s.mu.Unlock()
		turn.Selection = c.sel
		return turn, nil
	}
	s.mu.Lock()
	if sel := s.selection; sel != nil && sel.proj == proj && sel.sel.Path == turn.Current {
		turn.Selection = sel.sel
	}
	s.mu.Unlock()
	return turn, nil
}

// quireAsk runs an advisor turn, streaming its tool rows as progress.
func (s *Server) quireAsk(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.AskParams](params)
	if err != nil {
		return nil, err
	}
	t, err := s.prepareAsk(ctx, a, true)
	if err != nil {
		return nil, err
	}
	askCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// No "quire:" in the title: editors (Helix) put the server's name first.
	prog := s.startAskProgress(ctx, a.WorkDoneToken, llm.ResolvePersona(t.in.PersonaID).Name)
	if prog.key != "" {
		defer s.adv.track(prog.key, cancel)()
	}
	t.in.Loop.OnTrace = func(r llm.TraceRow) {
		row := wire.ToolRow{Round: r.Round, Tool: r.Tool, Summary: r.ArgsSummary, OK: r.OK, Code: r.Code, MS: r.Duration.Milliseconds()}
		prog.row(ctx, row)
	}
	t.in.Loop.OnDelta = func(round int, text string) { prog.delta(ctx, round, text) }
	res, err := llm.Ask(askCtx, t.in)
	var pe *llm.ProviderError
	if err != nil && t.in.PreviousResponseID != "" && askCtx.Err() == nil && errors.As(err, &pe) && (pe.Status == http.StatusNotFound || pe.Status == http.StatusBadRequest) {
		// The provider no longer has the stored conversation (expired,
		// or never stored): send the history instead.
		s.log.Debug("stored response refused; resending the conversation", "status", pe.Status)
		t.in.PreviousResponseID = ""
		res, err = llm.Ask(askCtx, t.in)
	}
	if askCtx.Err() != nil {
		prog.end(ctx, "cancelled")
		return nil, protocol.ErrRequestCancelled
	}
	if err != nil {
		var cut *llm.CutOffError
		if errors.As(err, &cut) {
			prog.end(ctx, "cut off")
			s.log.Warn("ask cut off", "err", err)
			return nil, cutOffFailure(cut)
		}
		prog.end(ctx, "failed")
		s.log.Warn("ask failed", "err", err)
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, askFailure(err, t.baseURL))
	}
	s.adv.remember(t.convID, res.ResponseID, llm.Message{Role: llm.RoleUser, Content: a.Message}, llm.Message{Role: llm.RoleAssistant, Content: res.Answer})
	prog.flush(ctx)
	prog.message(ctx, res.Answer)
	prog.end(ctx, "answered")
	out := wire.AskResult{Persona: res.Persona.ID, Answer: res.Answer, Evidence: []wire.Evidence{}, Proposals: []string{},
		ConversationID: t.convID, ServiceTier: res.ServiceTier, Warnings: res.Warnings}
	seen := map[string]bool{}
	for _, e := range res.Evidence {
		for i, p := range e.Paths {
			hash := ""
			if i < len(e.Hashes) {
				hash = e.Hashes[i]
			}
			if key := e.Tool + "\x00" + p + "\x00" + hash; !seen[key] {
				seen[key] = true
				out.Evidence = append(out.Evidence, wire.Evidence{URI: pathURI(filepath.Join(t.proj.real, filepath.FromSlash(p))), Path: p, Tool: e.Tool, Hash: hash})
			}
		}
	}
	for _, p := range res.Proposals {
		out.Proposals = append(out.Proposals, p.ID)
	}
	return out, nil
}

// quirePeekPrompt is the body quire.ask would send first; nothing is sent.
func (s *Server) quirePeekPrompt(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.AskParams](params)
	if err != nil {
		return nil, err
	}
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

func (s *Server) quirePersonas(context.Context, json.RawMessage) (any, error) {
	out := []wire.Persona{}
	for _, p := range llm.Personas() {
		out = append(out, wire.Persona{ID: p.ID, Name: p.Name, Focus: p.Focus})
	}
	return out, nil
}

// didChangeConfiguration takes the client's quire settings; they apply
// from the next ask on.
func (s *Server) didChangeConfiguration(_ context.Context, params json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	cs := parseClientSettings(p.Settings)
	s.adv.mu.Lock()
	s.adv.config = cs
	s.adv.mu.Unlock()
	return nil
}

// workDoneProgressCancel cancels the ask reporting to the token.
func (s *Server) workDoneProgressCancel(_ context.Context, params json.RawMessage) error {
	var p struct {
		Token json.RawMessage `json:"token"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	s.adv.cancel(tokenKey(p.Token))
	return nil
}

// tokenKey is a progress token (string or number) as compact JSON.
func tokenKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// askProgress is the work-done progress of one ask, on the client's token
// or one the server created; with neither it sends nothing.
type askProgress struct {
	s     *Server
	token json.RawMessage
	key   string
	mu    sync.Mutex
	ended bool
	// The answer so far as it streams, in the round it streams in, and
	// when it last went out as a report.
	round    int
	text     strings.Builder
	reported time.Time
	// pending is streamed text not yet sent as a quire/askProgress delta.
	pending strings.Builder
}

// deltaReportEvery spaces the notifications of a streaming answer: at
// most ten a second of each kind.
const deltaReportEvery = 100 * time.Millisecond

func (s *Server) startAskProgress(ctx context.Context, clientToken json.RawMessage, title string) *askProgress {
	p := &askProgress{s: s}
	if k := tokenKey(clientToken); k != "" && k != "null" {
		p.token, p.key = json.RawMessage(k), k
	} else {
		s.mu.Lock()
		supported := s.client.Window != nil && s.client.Window.WorkDoneProgress
		s.mu.Unlock()
		if !supported {
			return p
		}
		tok := s.progressToken("ask")
		callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if _, err := s.conn.Call(callCtx, protocol.MethodWorkDoneProgressCreate, map[string]string{"token": tok}, nil); err != nil {
			s.log.Debug("client refused a progress token", "err", err)
			return p
		}
		p.token, _ = json.Marshal(tok)
		p.key = string(p.token)
	}
	zero := uint32(0)
	p.send(ctx, progressValue{Kind: "begin", Title: title, Cancellable: true, Percentage: &zero})
	return p
}

func (p *askProgress) row(ctx context.Context, r wire.ToolRow) {
	if p.key == "" {
		return
	}
	p.flush(ctx)
	status := "ok"
	if !r.OK {
		status = "failed"
		if r.Code != "" {
			status = r.Code
		}
	}
	p.message(ctx, fmt.Sprintf("%s %s %s %d ms", r.Tool, r.Summary, status, r.MS))
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if !ended {
		if err := p.s.conn.Notify(ctx, wire.MethodAskProgress, wire.AskProgressRow{Token: p.token, Row: r}); err != nil {
			p.s.log.Debug("ask progress not sent", "err", err)
		}
	}
}

// delta passes on a piece of streamed reply text, coalesced: the pieces
// go out as quire/askProgress {token, delta, round} and the text so far as
// a $/progress report, each at most every deltaReportEvery (pieces that
// come sooner wait for the next one, or for flush). A model streaming
// megabytes a word at a time must not become hundreds of thousands of
// notifications.
func (p *askProgress) delta(ctx context.Context, round int, text string) {
	if p.key == "" || text == "" {
		return
	}
	p.mu.Lock()
	if p.ended {
		p.mu.Unlock()
		return
	}
	var flushed string
	var flushedRound int
	if round != p.round {
		// A new round: what waits of the last one goes first.
		flushed, flushedRound = p.pending.String(), p.round
		p.pending.Reset()
		p.round = round
		p.text.Reset()
	}
	p.text.WriteString(text)
	p.pending.WriteString(text)
	var piece, report string
	if time.Since(p.reported) >= deltaReportEvery {
		p.reported = time.Now()
		piece, report = p.pending.String(), p.text.String()
		p.pending.Reset()
	}
	p.mu.Unlock()
	p.sendDelta(ctx, flushedRound, flushed)
	p.sendDelta(ctx, round, piece)
	if report != "" {
		p.message(ctx, report)
	}
}

// flush sends the streamed text still waiting, before a row, the answer
// or the end.
func (p *askProgress) flush(ctx context.Context) {
	if p.key == "" {
		return
	}
	p.mu.Lock()
	piece, round := p.pending.String(), p.round
	p.pending.Reset()
	ended := p.ended
	p.mu.Unlock()
	if !ended {
		p.sendDelta(ctx, round, piece)
	}
}

func (p *askProgress) sendDelta(ctx context.Context, round int, text string) {
	if text == "" {
		return
	}
	if err := p.s.conn.Notify(ctx, wire.MethodAskProgress, wire.AskProgressDelta{Token: p.token, Delta: text, Round: round}); err != nil {
		p.s.log.Debug("ask progress not sent", "err", err)
	}
}

func (p *askProgress) message(ctx context.Context, msg string) {
	p.send(ctx, progressValue{Kind: "report", Message: msg})
}

func (p *askProgress) end(ctx context.Context, msg string) {
	p.flush(ctx)
	p.send(ctx, progressValue{Kind: "end", Message: msg})
}

func (p *askProgress) send(ctx context.Context, v progressValue) {
	if p.key == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = v.Kind == "end"
	// The progress outlives a cancelled request: its end still goes out.
	if err := p.s.conn.Notify(context.WithoutCancel(ctx), protocol.MethodProgress, map[string]any{"token": p.token, "value": v}); err != nil {
		p.s.log.Debug("progress not sent", "err", err)
	}
}
