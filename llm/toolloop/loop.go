package toolloop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider"
)

// DefaultMaxRounds is how many rounds of tool calls a turn may take before
// the model is asked to answer with what it has.
const DefaultMaxRounds = 4

// Stopped values of a Result.
const (
	// StoppedMaxRounds: the model still wanted tools after MaxRounds and
	// was made to answer without them.
	StoppedMaxRounds = "max_rounds"
	// StoppedToolFailures: under ToolFailureStopAfterN, MaxToolFailures
	// tool calls failed and the model was made to answer without tools.
	StoppedToolFailures = "tool_failures"
)

// Tool use modes (Options.ToolUseMode).
const (
	// ToolUseEnforced: when tools are offered, an answer given before any
	// tool call is sent back once with a request to consult the tools
	// (tool choice "required"); a second answer without tools is accepted
	// with a warning.
	ToolUseEnforced = "enforced"
	// ToolUseRelaxed: tools are offered and the model decides.
	ToolUseRelaxed = "relaxed"
	// ToolUseDisabled: no tools are sent at all, as in inline mode.
	ToolUseDisabled = "disabled"
)

// How well a model calls tools (Options.ToolCalling); it picks the
// default tool use mode.
const (
	ToolCallingReliable   = "reliable"    // enforced
	ToolCallingBestEffort = "best_effort" // relaxed
	ToolCallingNone       = "none"        // disabled
)

// Tool failure policies (Options.ToolFailurePolicy).
const (
	// ToolFailureContinue: failed calls go back to the model as error
	// envelopes and the loop goes on.
	ToolFailureContinue = "continue"
	// ToolFailureStopAfterN: after MaxToolFailures failed calls in a turn
	// no more tools run and the model must answer from what it has.
	ToolFailureStopAfterN = "stop_after_n"
)

// DefaultMaxToolFailures is MaxToolFailures when left zero.
const DefaultMaxToolFailures = 3

// Warnings of a Result.
const (
	WarningNoToolUse = "answered without consulting the book"
)

// Texts the loop adds to the conversation when it must steer the model.
const (
	finalAnswerPrompt = "You have used all the tool calls available for this turn. " +
		"Answer now from the tool results above, without calling tools."
	emptyAnswerPrompt  = "Your last reply was empty. Please write your answer to the writer now."
	consultToolsPrompt = "Before answering, check the book: call the tools available to you " +
		"to look up what your answer depends on, then answer from what they return."
	toolFailuresPrompt = "Too many tool calls failed in this turn, so no more tools will run. " +
		"Answer now from what you have, without calling tools, and say what you could not check."
)

// answerCutWarning tells that an answer was cut at the answer size
// limit (its size, as byteSize gives it).
const answerCutWarning = "the answer was cut at %s: the model wrote more than an answer may hold; ask a narrower question, or raise limits.answer_bytes in quire.yaml"

// byteSize is n bytes as a writer reads it: in KB when it is whole KB.
func byteSize(n int) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ErrNoAnswer is returned when the model gives an empty answer twice.
var ErrNoAnswer = errors.New("the model returned no answer")

// Options tune one tool loop.
type Options struct {
	// MaxRounds bounds the rounds of tool calls; zero means 4.
	MaxRounds int
	// ToolChoice is sent with the tools: "" or "auto", "none", "required".
	// A "required" choice applies to the first round only, so the model
	// can still answer once it has read the results.
	ToolChoice string
	// Limits bound each tool call (see Dispatcher).
	Limits Limits
	// Quirks are response transforms, added to the provider's own.
	Quirks []provider.Quirk
	// OnTrace, when set, sees every trace row as it happens.
	OnTrace func(TraceRow)
	// OnDelta, when set and the provider streams, sees the reply text of
	// each round as it arrives. Text that comes before tool calls belongs
	// to a round that is not the answer; the round number tells them apart,
	// and OnInterim says when a round turned out not to be the answer.
	OnDelta func(round int, text string)
	// OnInterim, when set, sees the interim text of a round (see
	// Result.Interim) once the round is known not to be the answer.
	OnInterim func(round int, text string)

	// ToolUseMode is "enforced", "relaxed" or "disabled"; "" takes the
	// default of ToolCalling (relaxed when that is empty too).
	ToolUseMode string
	// ToolCalling says how well the model calls tools: "reliable",
	// "best_effort" or "none". It only picks the default ToolUseMode:
	// enforced, relaxed and disabled respectively.
	ToolCalling string
	// ToolFailurePolicy is "continue" (the default) or "stop_after_n".
	ToolFailurePolicy string
	// MaxToolFailures is the N of "stop_after_n": how many failed tool
	// calls a turn tolerates; zero means 3.
	MaxToolFailures int

	// PreviousResponseID continues a stored conversation (Responses API
	// providers only; ignored with a chat provider): the messages passed
	// to Run are then only the new ones (system messages and what
	// follows the previous response), see
	// CompletionRequest.PreviousResponseID.
	PreviousResponseID string
}

// ResolveToolUseMode is the tool use mode a loop runs in: mode when set,
// else the default of the model's tool calling reliability. Both are
// checked.
func ResolveToolUseMode(mode, calling string) (string, error) {
	var def string
	switch calling {
	case "", ToolCallingBestEffort:
		def = ToolUseRelaxed
	case ToolCallingReliable:
		def = ToolUseEnforced
	case ToolCallingNone:
		def = ToolUseDisabled
	default:
		return "", fmt.Errorf("tool calling %q: want %s, %s or %s",
			calling, ToolCallingReliable, ToolCallingBestEffort, ToolCallingNone)
	}
	switch mode {
	case "":
		return def, nil
	case ToolUseEnforced, ToolUseRelaxed, ToolUseDisabled:
		return mode, nil
	default:
		return "", fmt.Errorf("tool use mode %q: want %s, %s or %s",
			mode, ToolUseEnforced, ToolUseRelaxed, ToolUseDisabled)
	}
}

// TraceRow is one tool call of a turn.
type TraceRow struct {
	Round       int
	Tool        string
	ArgsSummary string
	OK          bool
	// Code is the first error code of the envelope, "" when OK.
	Code        string
	Duration    time.Duration
	OutputBytes int
	// Warning notes something the loop repaired in the call, e.g. a
	// duplicate id.
	Warning string
}

// Result is a finished turn.
type Result struct {
	Answer string
	// Interim is what the model said on the way that is not the answer,
	// in order: the text of a reply that also called tools, an answer
	// the loop sent back to have the book consulted first, a Responses
	// API commentary message. It is never part of Answer.
	Interim []string
	// Messages is the whole exchange: the messages passed in, then every
	// assistant, tool and steering message.
	Messages []provider.Message
	Trace    []TraceRow
	// Rounds counts the completions requested.
	Rounds int
	Usage  provider.Usage
	// Stopped is "" for a natural answer, "max_rounds" or
	// "tool_failures".
	Stopped string
	// Warnings are notes on how the answer came about, e.g.
	// WarningNoToolUse; nil when there are none.
	Warnings []string
	// ResponseID is the id of the last response (Responses API only), to
	// continue the conversation from (Options.PreviousResponseID); ""
	// when that response says it was not stored.
	ResponseID string
	// ServiceTier is the tier the provider says it served the last
	// request on (after any flex fallback); empty when it does not say.
	ServiceTier string
}

// Run runs one advisor turn: it sends messages and the registry's
// tools, runs the tools the model asks for one at a time in the order
// given, sends the results back and repeats until the model answers.
//
// With a Responses API provider the rounds of a turn are chained: each
// request after the first names the previous response and sends only what
// it has not seen (the tool results, a steering message), not the whole
// exchange. When a response comes without an id, says it was not stored
// ("store": false), or the loop had to rename a tool call id (the stored
// response would not know the new one), the rest of the turn resends the
// turn's messages instead.
func Run(ctx context.Context, p *provider.Provider, reg *Registry, messages []provider.Message, opt Options) (*Result, error) {
	if p == nil {
		return nil, errors.New("tool loop: no provider")
	}
	if opt.MaxRounds <= 0 {
		opt.MaxRounds = DefaultMaxRounds
	}
	switch opt.ToolChoice {
	case "", provider.ToolChoiceAuto, provider.ToolChoiceNone, provider.ToolChoiceRequired:
	default:
		return nil, fmt.Errorf("tool loop: tool choice %q: want auto, none or required", opt.ToolChoice)
	}
	for _, q := range opt.Quirks {
		if !q.Valid() {
			return nil, fmt.Errorf("tool loop: unknown quirk %q", q)
		}
	}
	mode, err := ResolveToolUseMode(opt.ToolUseMode, opt.ToolCalling)
	if err != nil {
		return nil, fmt.Errorf("tool loop: %w", err)
	}
	opt.ToolUseMode = mode
	if mode == ToolUseEnforced && opt.ToolChoice == provider.ToolChoiceNone {
		return nil, fmt.Errorf("tool loop: tool use mode %s cannot go with tool choice %s", mode, opt.ToolChoice)
	}
	switch opt.ToolFailurePolicy {
	case "":
		opt.ToolFailurePolicy = ToolFailureContinue
	case ToolFailureContinue, ToolFailureStopAfterN:
	default:
		return nil, fmt.Errorf("tool loop: tool failure policy %q: want %s or %s",
			opt.ToolFailurePolicy, ToolFailureContinue, ToolFailureStopAfterN)
	}
	if opt.MaxToolFailures < 0 {
		return nil, fmt.Errorf("tool loop: max tool failures %d: want 0 (default %d) or more",
			opt.MaxToolFailures, DefaultMaxToolFailures)
	}
	if opt.MaxToolFailures == 0 {
		opt.MaxToolFailures = DefaultMaxToolFailures
	}
	l := &loop{
		p:     p,
		disp:  NewDispatcher(reg, opt.Limits),
		opt:   opt,
		res:   &Result{Messages: slices.Clone(messages)},
		tools: nil,
	}
	if p.API() == provider.APIResponses && !p.StoresResponses() {
		// No response is kept to continue from (store false): every
		// round resends the turn, reasoning items included.
		l.opt.PreviousResponseID = ""
	}
	if p.StoresResponses() {
		l.chain = true
		l.prevID = opt.PreviousResponseID
	}
	if p.SupportsTools() && mode != ToolUseDisabled && reg != nil {
		l.tools = reg.Tools()
	}
	return l.run(ctx)
}

type loop struct {
	p     *provider.Provider
	disp  *Dispatcher
	opt   Options
	res   *Result
	tools []provider.Tool

	// chain is true while rounds are chained by previous_response_id
	// (Responses API); prevID is the response to continue from and sent
	// the number of res.Messages that response has already seen.
	chain  bool
	prevID string
	sent   int
}

// appendReply records the model's own reply: the response it came from
// has seen it, so a chained request does not resend it.
func (l *loop) appendReply(m provider.Message) {
	if l.sent == len(l.res.Messages) {
		l.sent++
	}
	l.res.Messages = append(l.res.Messages, m)
}

// request is the completion request for the exchange so far: with a
// chained Responses API provider, only the system messages and what the
// previous response has not seen; else every message of the turn.
func (l *loop) request(tools []provider.Tool, choice string) provider.CompletionRequest {
	req := provider.CompletionRequest{Messages: l.res.Messages, Tools: tools, ToolChoice: choice, Quirks: l.opt.Quirks}
	if l.p.API() != provider.APIResponses {
		return req
	}
	if !l.chain {
		req.PreviousResponseID = l.opt.PreviousResponseID
		return req
	}
	req.PreviousResponseID = l.prevID
	if l.sent > 0 {
		var msgs []provider.Message
		for _, m := range l.res.Messages[:l.sent] {
			if m.Role == provider.RoleSystem {
				msgs = append(msgs, m)
			}
		}
		req.Messages = append(msgs, l.res.Messages[l.sent:]...)
	}
	return req
}

func (l *loop) run(ctx context.Context) (*Result, error) {
	choice := l.opt.ToolChoice
	// enforce is true until the model has been steered once towards the
	// tools (enforced mode only, and only when there are tools to use).
	enforce := l.opt.ToolUseMode == ToolUseEnforced && len(l.tools) > 0
	failures := 0
	for round := 1; ; round++ {
		if round > l.opt.MaxRounds {
			// Still calling tools: one last request that may not.
			l.res.Stopped = StoppedMaxRounds
			l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleUser, Content: finalAnswerPrompt})
			return l.finish(ctx, l.tools, provider.ToolChoiceNone)
		}
		c, err := l.complete(ctx, l.tools, choice)
		if err != nil {
			return nil, err
		}
		if len(c.Message.ToolCalls) == 0 {
			if enforce && len(l.res.Trace) == 0 && strings.TrimSpace(c.Message.Content) != "" {
				// An answer before any look-up: ask once for the tools.
				// The steering request is not a round of tool calls.
				enforce = false
				l.interim(c.Message.Content)
				l.appendReply(provider.Message{Role: provider.RoleAssistant, Content: c.Message.Content})
				l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleUser, Content: consultToolsPrompt})
				choice = provider.ToolChoiceRequired
				round--
				continue
			}
			return l.answer(ctx, c)
		}
		if choice == provider.ToolChoiceRequired {
			choice = provider.ToolChoiceAuto
		}
		msg := c.Message
		l.interim(msg.Content)
		var warnings []string
		msg.ToolCalls, warnings = uniqueIDs(round, msg.ToolCalls)
		if slices.ContainsFunc(warnings, func(w string) bool { return w != "" }) {
			// The stored response knows the calls by their old ids.
			l.chain = false
		}
		l.appendReply(msg)
		for i, call := range msg.ToolCalls {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("tool loop cancelled: %w", err)
			}
			if most := l.disp.lim.MaxCallsPerRound; i >= most {
				// Every call of the reply needs its tool message, but
				// only the first few run.
				l.notRun(round, call, warnings[i], Errorf(CodeTooManyCalls,
					"call of %s not run: a reply may make at most %d tool calls; call again in the next reply for what you still need",
					clip.Runes(call.Name, provider.MaxLogStringRunes), most), "not run: tool call limit of the round reached")
				continue
			}
			if l.stopOnFailures(failures) {
				// Every call of the reply needs its tool message.
				l.skip(round, call, warnings[i])
				continue
			}
			r := l.disp.Call(ctx, call.Name, call.Arguments)
			row := TraceRow{
				Round: round,
				// The model chose the name: bounded, as it goes to
				// progress rows and -v lines.
				Tool:        clip.Runes(call.Name, provider.MaxLogStringRunes),
				ArgsSummary: r.ArgsSummary,
				OK:          r.Envelope.OK,
				Duration:    r.Duration,
				OutputBytes: len(r.JSON),
				Warning:     warnings[i],
			}
			if len(r.Envelope.Errors) > 0 {
				row.Code = r.Envelope.Errors[0].Code
			}
			if !row.OK {
				failures++
			}
			l.trace(row)
			l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleTool, Content: r.JSON, ToolCallID: call.ID})
		}
		if l.stopOnFailures(failures) {
			l.res.Stopped = StoppedToolFailures
			calls := "calls"
			if failures == 1 {
				calls = "call"
			}
			l.warn(fmt.Sprintf("stopped calling tools after %d failed tool %s", failures, calls))
			l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleUser, Content: toolFailuresPrompt})
			return l.finish(ctx, l.tools, provider.ToolChoiceNone)
		}
	}
}

// stopOnFailures reports whether failures failed calls end the tools of
// the turn.
func (l *loop) stopOnFailures(failures int) bool {
	return l.opt.ToolFailurePolicy == ToolFailureStopAfterN && failures >= l.opt.MaxToolFailures
}

// skip answers a call that is not run because too many calls failed.
func (l *loop) skip(round int, call provider.ToolCall, warning string) {
	l.notRun(round, call, warning, Errorf(CodeToolFailed,
		"call of %s not run: %d tool calls already failed in this turn", clip.Runes(call.Name, provider.MaxLogStringRunes), l.opt.MaxToolFailures),
		"not run: tool failure limit reached")
}

// notRun answers a call that is not run with the error why, and traces it
// with note.
func (l *loop) notRun(round int, call provider.ToolCall, warning string, why *ToolError, note string) {
	text, env := l.disp.encode(failure(why))
	if warning != "" {
		warning += "; "
	}
	row := TraceRow{
		Round:       round,
		Tool:        clip.Runes(call.Name, provider.MaxLogStringRunes),
		ArgsSummary: summarizeArgs(call.Arguments, l.disp.lim.MaxArgumentBytes),
		OK:          false,
		Code:        env.Errors[0].Code,
		OutputBytes: len(text),
		Warning:     warning + note,
	}
	l.trace(row)
	l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleTool, Content: text, ToolCallID: call.ID})
}

func (l *loop) warn(w string) {
	if !slices.Contains(l.res.Warnings, w) {
		l.res.Warnings = append(l.res.Warnings, w)
	}
}

// finish sends the last request of a turn and takes its text, whatever
// tool calls come with it.
func (l *loop) finish(ctx context.Context, tools []provider.Tool, choice string) (*Result, error) {
	c, err := l.complete(ctx, tools, choice)
	if err != nil {
		return nil, err
	}
	c.Message.ToolCalls = nil
	return l.answer(ctx, c)
}

// answer records a text reply; an empty one is retried once without
// tools, unless the model ran out of output tokens, which a retry would
// only do again.
func (l *loop) answer(ctx context.Context, c *provider.Completion) (*Result, error) {
	if strings.TrimSpace(c.Message.Content) == "" && c.FinishReason == finishLength {
		return nil, &OutOfTokensError{Setting: tokenLimitSetting(l.p.API())}
	}
	if strings.TrimSpace(c.Message.Content) == "" {
		l.res.Messages = append(l.res.Messages, provider.Message{Role: provider.RoleUser, Content: emptyAnswerPrompt})
		retry, err := l.complete(ctx, nil, "")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(retry.Message.Content) == "" {
			if retry.FinishReason == finishLength {
				return nil, &OutOfTokensError{Setting: tokenLimitSetting(l.p.API())}
			}
			return nil, ErrNoAnswer
		}
		c = retry
	}
	msg := provider.Message{Role: provider.RoleAssistant, Content: c.Message.Content}
	l.res.Messages = append(l.res.Messages, msg)
	// The answer is the model's text alone: a plugin shows it as the
	// model's words, so what quire has to say of it (that it was cut)
	// goes in the warnings, which the outputs show as quire's.
	l.res.Answer = strings.TrimSpace(msg.Content)
	if c.FinishReason == finishLength && !c.Truncated {
		l.warn(fmt.Sprintf(tokenLimitWarning, tokenLimitSetting(l.p.API())))
	}
	if c.Truncated {
		l.warn(fmt.Sprintf(answerCutWarning, byteSize(l.disp.lim.MaxAnswerBytes)))
	}
	if l.opt.ToolUseMode == ToolUseEnforced && len(l.tools) > 0 && len(l.res.Trace) == 0 {
		l.warn(WarningNoToolUse)
	}
	return l.res, nil
}

func (l *loop) complete(ctx context.Context, tools []provider.Tool, choice string) (*provider.Completion, error) {
	if len(tools) == 0 {
		choice = ""
	}
	l.res.Rounds++
	req := l.request(tools, choice)
	req.MaxAnswerBytes = l.disp.lim.MaxAnswerBytes
	if on := l.opt.OnDelta; on != nil {
		round := l.res.Rounds
		req.OnDelta = func(text string) { on(round, text) }
	}
	// Interim text a stream tells as it comes is not told again.
	told := 0
	req.OnInterim = func(text string) {
		told++
		l.interim(text)
	}
	c, err := l.p.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	l.res.Usage.Add(c.Usage)
	for _, text := range c.Interim[min(told, len(c.Interim)):] {
		l.interim(text)
	}
	l.res.ResponseID = c.ResponseID
	if c.NotStored {
		// The provider kept nothing (DeepSeek's Responses API keeps
		// nothing, whatever was asked): there is nothing to continue
		// from, in this turn or the next.
		l.res.ResponseID = ""
	}
	if c.ServiceTier != "" {
		l.res.ServiceTier = c.ServiceTier
	}
	if l.chain {
		if l.res.ResponseID == "" {
			// The rest of the turn is sent whole.
			l.chain = false
		} else {
			l.prevID = c.ResponseID
			l.sent = len(l.res.Messages)
		}
	}
	return c, nil
}

// uniqueIDs gives every call of one reply an id of its own: a blank id or
// one already used in the reply is replaced, with a warning in the trace,
// so each tool message answers exactly one call. warnings[i] says what
// was changed for call i, "" when nothing was.
func uniqueIDs(round int, calls []provider.ToolCall) (out []provider.ToolCall, warnings []string) {
	calls = slices.Clone(calls)
	warnings = make([]string, len(calls))
	seen := make(map[string]bool, len(calls))
	for i := range calls {
		id := calls[i].ID
		if id != "" && !seen[id] {
			seen[id] = true
			continue
		}
		fresh := fmt.Sprintf("call_r%d_%d", round, i+1)
		for seen[fresh] {
			fresh += "_"
		}
		seen[fresh] = true
		warning := fmt.Sprintf("tool call without id given id %s", fresh)
		if id != "" {
			warning = fmt.Sprintf("duplicate tool call id %s renamed to %s", id, fresh)
		}
		calls[i].ID = fresh
		warnings[i] = warning
	}
	return calls, warnings
}

func (l *loop) trace(row TraceRow) {
	l.res.Trace = append(l.res.Trace, row)
	if l.opt.OnTrace != nil {
		l.opt.OnTrace(row)
	}
}

// interim records text the model said in the round just completed that
// is not the answer, and tells OnInterim.
func (l *loop) interim(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	l.res.Interim = append(l.res.Interim, text)
	if l.opt.OnInterim != nil {
		l.opt.OnInterim(l.res.Rounds, text)
	}
}
