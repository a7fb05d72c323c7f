package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DefaultMaxRounds is how many rounds of tool calls a turn may take before
// the model is asked to answer with what it has.
const DefaultMaxRounds = 4

// Stopped values of a LoopResult.
const (
	// StoppedMaxRounds: the model still wanted tools after MaxRounds and
	// was made to answer without them.
	StoppedMaxRounds = "max_rounds"
)

// Texts the loop adds to the conversation when it must steer the model.
const (
	finalAnswerPrompt = "You have used all the tool calls available for this turn. " +
		"Answer now from the tool results above, without calling tools."
	emptyAnswerPrompt = "Your last reply was empty. Please write your answer to the writer now."
)

// ErrNoAnswer is returned when the model gives an empty answer twice.
var ErrNoAnswer = errors.New("the model returned no answer")

// LoopOptions tune one tool loop.
type LoopOptions struct {
	// MaxRounds bounds the rounds of tool calls; zero means 4.
	MaxRounds int
	// ToolChoice is sent with the tools: "" or "auto", "none", "required".
	// A "required" choice applies to the first round only, so the model
	// can still answer once it has read the results.
	ToolChoice string
	// Limits bound each tool call (see Dispatcher).
	Limits Limits
	// Quirks are response transforms, added to the provider's own.
	Quirks []Quirk
	// OnTrace, when set, sees every trace row as it happens.
	OnTrace func(TraceRow)
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

// LoopResult is a finished turn.
type LoopResult struct {
	Answer string
	// Messages is the whole exchange: the messages passed in, then every
	// assistant, tool and steering message.
	Messages []Message
	Trace    []TraceRow
	// Rounds counts the completions requested.
	Rounds int
	Usage  Usage
	// Stopped is "" for a natural answer or "max_rounds".
	Stopped string
}

// RunLoop runs one advisor turn: it sends messages and the registry's
// tools, runs the tools the model asks for one at a time in the order
// given, sends the results back and repeats until the model answers.
func RunLoop(ctx context.Context, p *Provider, reg *Registry, messages []Message, opt LoopOptions) (*LoopResult, error) {
	if p == nil {
		return nil, errors.New("tool loop: no provider")
	}
	if opt.MaxRounds <= 0 {
		opt.MaxRounds = DefaultMaxRounds
	}
	switch opt.ToolChoice {
	case "", ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
	default:
		return nil, fmt.Errorf("tool loop: tool choice %q: want auto, none or required", opt.ToolChoice)
	}
	for _, q := range opt.Quirks {
		if !q.valid() {
			return nil, fmt.Errorf("tool loop: unknown quirk %q", q)
		}
	}
	l := &loop{
		p:     p,
		disp:  NewDispatcher(reg, opt.Limits),
		opt:   opt,
		res:   &LoopResult{Messages: slices.Clone(messages)},
		tools: nil,
	}
	if p.SupportsTools() {
		l.tools = reg.Tools()
	}
	return l.run(ctx)
}

type loop struct {
	p     *Provider
	disp  *Dispatcher
	opt   LoopOptions
	res   *LoopResult
	tools []Tool
}

func (l *loop) run(ctx context.Context) (*LoopResult, error) {
	choice := l.opt.ToolChoice
	for round := 1; ; round++ {
		if round > l.opt.MaxRounds {
			// Still calling tools: one last request that may not.
			l.res.Stopped = StoppedMaxRounds
			l.res.Messages = append(l.res.Messages, Message{Role: RoleUser, Content: finalAnswerPrompt})
			return l.finish(ctx, l.tools, ToolChoiceNone)
		}
		c, err := l.complete(ctx, l.tools, choice)
		if err != nil {
			return nil, err
		}
		if len(c.Message.ToolCalls) == 0 {
			return l.answer(ctx, c)
		}
		if choice == ToolChoiceRequired {
			choice = ToolChoiceAuto
		}
		msg := c.Message
		var warnings []string
		msg.ToolCalls, warnings = uniqueIDs(round, msg.ToolCalls)
		l.res.Messages = append(l.res.Messages, msg)
		for i, call := range msg.ToolCalls {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("tool loop cancelled: %w", err)
			}
			r := l.disp.Call(ctx, call.Name, call.Arguments)
			row := TraceRow{
				Round:       round,
				Tool:        call.Name,
				ArgsSummary: r.ArgsSummary,
				OK:          r.Envelope.OK,
				Duration:    r.Duration,
				OutputBytes: len(r.JSON),
				Warning:     warnings[i],
			}
			if len(r.Envelope.Errors) > 0 {
				row.Code = r.Envelope.Errors[0].Code
			}
			l.trace(row)
			l.res.Messages = append(l.res.Messages, Message{Role: RoleTool, Content: r.JSON, ToolCallID: call.ID})
		}
	}
}

// finish sends the last request of a turn and takes its text, whatever
// tool calls come with it.
func (l *loop) finish(ctx context.Context, tools []Tool, choice string) (*LoopResult, error) {
	c, err := l.complete(ctx, tools, choice)
	if err != nil {
		return nil, err
	}
	c.Message.ToolCalls = nil
	return l.answer(ctx, c)
}

// answer records a text reply; an empty one is retried once without tools.
func (l *loop) answer(ctx context.Context, c *Completion) (*LoopResult, error) {
	if strings.TrimSpace(c.Message.Content) == "" {
		l.res.Messages = append(l.res.Messages, Message{Role: RoleUser, Content: emptyAnswerPrompt})
		retry, err := l.complete(ctx, nil, "")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(retry.Message.Content) == "" {
			return nil, ErrNoAnswer
		}
		c = retry
	}
	msg := Message{Role: RoleAssistant, Content: c.Message.Content}
	l.res.Messages = append(l.res.Messages, msg)
	l.res.Answer = strings.TrimSpace(msg.Content)
	return l.res, nil
}

func (l *loop) complete(ctx context.Context, tools []Tool, choice string) (*Completion, error) {
	if len(tools) == 0 {
		choice = ""
	}
	l.res.Rounds++
	c, err := l.p.Complete(ctx, CompletionRequest{
		Messages:   l.res.Messages,
		Tools:      tools,
		ToolChoice: choice,
		Quirks:     l.opt.Quirks,
	})
	if err != nil {
		return nil, err
	}
	l.res.Usage.add(c.Usage)
	return c, nil
}

// uniqueIDs gives every call of one reply an id of its own: a blank id or
// one already used in the reply is replaced, with a warning in the trace,
// so each tool message answers exactly one call. warnings[i] says what
// was changed for call i, "" when nothing was.
func uniqueIDs(round int, calls []ToolCall) (out []ToolCall, warnings []string) {
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
