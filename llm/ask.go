package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm/advisor"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript"
)

// InlineContextChars bounds the document text put into the prompt for a
// provider without tools, as the reference design's inline fallback does.
const InlineContextChars = 24000

// AskInput is one advisor turn: who is asked, what, about which book.
type AskInput struct {
	Request
	// Sources are what the turn's tools read: the codex, the manuscript
	// and the writer's place.
	Sources  *tools.Sources
	Provider *provider.Provider
}

// Request is what is asked, of whom, and under which settings: the part
// of a turn TurnOptions and AskInput share, given once and passed on.
type Request struct {
	// Persona answers, as ChoosePersona chose it; the zero Persona is
	// the default one.
	Persona   Persona
	Message   string
	History   []provider.Message
	Settings  advisor.Settings
	Proposals *proposal.Store
	Loop      toolloop.Options
	// PreviousResponseID continues a conversation stored by a Responses
	// API provider (an earlier AskResult.ResponseID). History is then not
	// resent: the request holds the system prompt (as instructions), the
	// context message if any and the writer's message. A chat provider
	// ignores it and sends History as usual.
	PreviousResponseID string
	// MCP holds the MCP servers whose tools a persona's scope may name
	// (tools.mcp); they connect when a turn first needs them.
	MCP *mcp.Clients
}

// persona is who answers: the chosen persona, or the default one.
func (r Request) persona() Persona {
	if r.Persona.ID == "" {
		return ResolvePersona("")
	}
	return r.Persona
}

// AskResult is the answer of a turn and how it was reached.
type AskResult struct {
	Persona Persona
	Answer  string
	// Interim is what the model said on the way that is not the answer
	// (toolloop.Result.Interim), in order.
	Interim []string
	Trace   []toolloop.TraceRow
	// Proposals are those the model made during this turn, for review.
	Proposals []proposal.Proposal
	Rounds    int
	Stopped   string
	// Warnings are the loop's, e.g. an answer given without consulting
	// the book when tools were required.
	Warnings []string
	// ServiceTier is the tier the provider served the turn on, when it
	// says (the flex/default routing status).
	ServiceTier string
	Usage       provider.Usage
	// Messages is the whole exchange, for the next turn's history.
	Messages []provider.Message
	// Evidence is what the model looked up this turn: tools, arguments,
	// the files read and their hashes; never prose (see tools.Lookup).
	Evidence []tools.Lookup
	// ResponseID is the last response of the turn (Responses API only):
	// pass it as the next turn's AskInput.PreviousResponseID.
	ResponseID string
}

// prepared is a turn ready to send: the messages and the tools the
// persona may use.
type prepared struct {
	persona  Persona
	messages []provider.Message
	registry *toolloop.Registry
}

// prepare builds the request of a turn. With a provider that calls tools,
// the model gets metadata about the writer's place and reads the book
// through tools; without, the selected text or open document goes
// inline, bounded.
func prepare(ctx context.Context, in AskInput) (*prepared, error) {
	if strings.TrimSpace(in.Message) == "" {
		return nil, fmt.Errorf("ask: the message is empty")
	}
	if in.Sources == nil || in.Sources.Snapshot() == nil || in.Sources.Store == nil {
		return nil, fmt.Errorf("ask: no book is open")
	}
	persona := in.persona().With(in.Settings)
	pin := PromptInput{Persona: persona, Settings: in.Settings, History: in.History, Message: in.Message}
	if continues(in) {
		// The stored conversation already holds the history.
		pin.History = nil
	}
	var tc *manuscript.TurnContext
	if c, ok := in.Sources.Snapshot().TurnContext(in.Sources.Place); ok {
		tc = &c
	}
	if in.Provider != nil && !in.Provider.SupportsTools() {
		messages := BuildMessages(pin)
		if inline := inlineContext(in.Sources); inline != "" {
			// The writer's message stays last; the context goes before it.
			last := messages[len(messages)-1]
			messages = append(messages[:len(messages)-1], provider.Message{Role: provider.RoleUser, Content: inline}, last)
		}
		return &prepared{persona: persona, messages: messages}, nil
	}
	offered := append(tools.Read(in.Sources), tools.Propose(in.Sources, in.Proposals)...)
	mcpNames := map[string][]string{}
	for _, server := range persona.Scope.MCP {
		if in.MCP == nil {
			continue
		}
		// A server that cannot start leaves the persona its other tools;
		// the failure is reported by the pool (OnFailure).
		served, err := in.MCP.Tools(ctx, server)
		if err != nil {
			continue
		}
		for _, t := range served {
			mcpNames[server] = append(mcpNames[server], t.Name)
		}
		offered = append(offered, served...)
	}
	all, err := toolloop.NewRegistry(offered...)
	if err != nil {
		return nil, fmt.Errorf("ask: %w", err)
	}
	reg := all.Only(persona.Scope.Resolve(func(server string) []string { return mcpNames[server] }), nil)
	if in.MCP != nil {
		for _, server := range in.MCP.Servers() {
			if !slices.Contains(persona.Scope.MCP, server) {
				reg.HidePrefix(mcp.ToolPrefix + server + "__")
			}
		}
	}
	pin.Context = tc
	if tc != nil {
		pin.Chapter = in.Sources.Chapter(persona.ChecksContinuity)
	}
	pin.Tools = true
	pin.ToolNames = reg.Names()
	return &prepared{persona: persona, messages: BuildMessages(pin), registry: reg}, nil
}

// continues reports whether the turn continues a stored Responses API
// conversation.
func continues(in AskInput) bool {
	return in.PreviousResponseID != "" && in.Provider != nil && in.Provider.StoresResponses()
}

// inlineContext is the selection, or else the open document, as text for
// a provider that cannot call get_manuscript_context.
func inlineContext(src *tools.Sources) string {
	ref := ""
	switch {
	case src.Place.Selection != nil:
		ref = manuscript.RefSelection
	case src.Place.Current != "":
		ref = manuscript.RefCurrent
	default:
		return ""
	}
	c, err := src.Snapshot().Context([]string{ref}, src.Place, manuscript.Limits{Unit: InlineContextChars, Total: InlineContextChars})
	if err != nil || len(c.Units) == 0 {
		return ""
	}
	u := c.Units[0]
	what := "the document the writer has open"
	if u.Kind == manuscript.KindSelection {
		what = "the text the writer selected"
	}
	return fmt.Sprintf("[Context from quire, not from the writer: %s, from %s (%q, %d words).]\n\n%s", what, u.Path, u.Title, u.Words, u.Text)
}

// Ask runs one advisor turn against the provider.
func Ask(ctx context.Context, in AskInput) (*AskResult, error) {
	res, err := ask(ctx, in)
	var pe *provider.Error
	if err != nil && in.PreviousResponseID != "" && len(in.History) > 0 && ctx.Err() == nil &&
		errors.As(err, &pe) && (pe.Status == http.StatusNotFound || pe.Status == http.StatusBadRequest) {
		// The provider no longer has the stored conversation (expired, or
		// never stored): the history, kept for this, is sent instead.
		in.PreviousResponseID = ""
		return ask(ctx, in)
	}
	return res, err
}

// ask is one attempt at the turn.
func ask(ctx context.Context, in AskInput) (*AskResult, error) {
	if in.Provider == nil {
		return nil, fmt.Errorf("ask: no provider is configured")
	}
	if in.Proposals == nil {
		in.Proposals = &proposal.Store{}
	}
	// The turn's tools read its own copy of the sources, which collects
	// the evidence of what they read as they run.
	evidence := tools.NewEvidence()
	if in.Sources != nil {
		in.Sources = in.Sources.ForTurn(evidence)
	}
	p, err := prepare(ctx, in)
	if err != nil {
		return nil, err
	}
	before := map[string]bool{}
	for _, pr := range in.Proposals.List() {
		before[pr.ID] = true
	}
	reg := p.registry
	if reg == nil {
		reg, _ = toolloop.NewRegistry()
	}
	loopOpt := in.Loop
	if loopOpt.MaxRounds <= 0 {
		loopOpt.MaxRounds = in.Settings.Rounds
	}
	if loopOpt.Limits == (toolloop.Limits{}) {
		loopOpt.Limits = in.Settings.Limits
	}
	if continues(in) {
		loopOpt.PreviousResponseID = in.PreviousResponseID
	}
	onTrace := loopOpt.OnTrace
	loopOpt.OnTrace = func(row toolloop.TraceRow) {
		evidence.Traced(row)
		if onTrace != nil {
			onTrace(row)
		}
	}
	res, err := toolloop.Run(ctx, in.Provider, reg, p.messages, loopOpt)
	if err != nil {
		return nil, err
	}
	out := &AskResult{
		Persona: p.persona, Answer: res.Answer, Interim: res.Interim, Trace: res.Trace, Rounds: res.Rounds,
		Stopped: res.Stopped, Warnings: res.Warnings, ServiceTier: res.ServiceTier, Usage: res.Usage, Messages: res.Messages,
		Evidence:   evidence.Lookups(res.Messages[min(len(p.messages), len(res.Messages)):]),
		ResponseID: res.ResponseID,
	}
	for _, pr := range in.Proposals.List() {
		if !before[pr.ID] {
			out.Proposals = append(out.Proposals, pr)
		}
	}
	return out, nil
}

// Peek is the exact body the first request of a turn would send, with
// nothing sent.
func Peek(ctx context.Context, in AskInput) ([]byte, error) {
	if in.Provider == nil {
		return nil, fmt.Errorf("peek: no provider is configured")
	}
	p, err := prepare(ctx, in)
	if err != nil {
		return nil, err
	}
	req := provider.CompletionRequest{Messages: p.messages, ToolChoice: in.Loop.ToolChoice}
	if continues(in) {
		req.PreviousResponseID = in.PreviousResponseID
	}
	if p.registry != nil {
		req.Tools = p.registry.Tools()
	}
	return in.Provider.PeekRequest(req)
}
