package toolloop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-ink/quire/llm/provider"
)

// Default limits. Arguments are small by nature (refs, names, a proposed
// paragraph); output is what the model reads back, so it is capped to keep
// one tool call from filling the context window.
const (
	DefaultMaxArgumentBytes = 16 << 10
	DefaultMaxOutputBytes   = 64 << 10
	// DefaultMaxCallsPerRound bounds the tool calls of one reply: a model
	// asking for a hundred at once would run them all and send the
	// results back in one huge request.
	DefaultMaxCallsPerRound = 8
	// DefaultMaxAnswerBytes bounds the text of one reply; past it the
	// answer is cut, with a note saying so.
	DefaultMaxAnswerBytes = 256 << 10
)

// maxSummaryRunes bounds CallResult.ArgsSummary: it is shown to the writer
// in progress rows and must never carry more than a glimpse of prose.
const maxSummaryRunes = 80

// maxPanicRunes bounds a panic message passed on to the model.
const maxPanicRunes = 200

// maxSummaryValueRunes bounds one string value inside a summary.
const maxSummaryValueRunes = 24

// Limits bound one tool call. Zero fields take the defaults.
type Limits struct {
	MaxArgumentBytes int
	MaxOutputBytes   int
	// MaxCallsPerRound is the most tool calls of one reply that run; the
	// rest are answered "not run" (TOO_MANY_CALLS). Loop only.
	MaxCallsPerRound int
	// MaxAnswerBytes is the most text kept of one reply. Loop only.
	MaxAnswerBytes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxCallsPerRound <= 0 {
		l.MaxCallsPerRound = DefaultMaxCallsPerRound
	}
	if l.MaxAnswerBytes <= 0 {
		l.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if l.MaxArgumentBytes <= 0 {
		l.MaxArgumentBytes = DefaultMaxArgumentBytes
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	return l
}

// Dispatcher runs the model's tool calls against a registry. Every call ends
// in an envelope the model can read, whatever went wrong: the loop never
// has to handle a Go error from a tool.
type Dispatcher struct {
	reg *Registry
	lim Limits
}

// NewDispatcher returns a dispatcher over reg, which should be the registry
// already narrowed to the persona (Registry.Only), so the scope that was
// sent to the model is also the scope that runs.
func NewDispatcher(reg *Registry, lim Limits) *Dispatcher {
	if reg == nil {
		reg = &Registry{index: map[string]int{}, hidden: map[string]struct{}{}}
	}
	return &Dispatcher{reg: reg, lim: lim.withDefaults()}
}

// Limits are the bounds the dispatcher applies, defaults filled in: an
// MCP server that wraps it bounds what it adds to a reply the same way.
func (d *Dispatcher) Limits() Limits { return d.lim }

// CallResult is one finished tool call.
type CallResult struct {
	// Envelope is what the model receives, after any replacement for size.
	Envelope Envelope
	// JSON is Envelope encoded exactly as sent to the model.
	JSON     string
	Duration time.Duration
	// ArgsSummary is a short, bounded rendering of the arguments for
	// progress rows and logs, e.g. `ref="3"`.
	ArgsSummary string
}

// Call runs one tool call. name and args are what the model sent.
func (d *Dispatcher) Call(ctx context.Context, name string, args string) CallResult {
	start := time.Now()
	env, summary := d.call(ctx, name, args)
	text, env := d.encode(env)
	return CallResult{Envelope: env, JSON: text, Duration: time.Since(start), ArgsSummary: summary}
}

// call performs the checks in the documented order and runs the tool.
func (d *Dispatcher) call(ctx context.Context, name, args string) (Envelope, string) {
	tool, ok := d.reg.Get(name)
	if !ok {
		if d.reg.isHidden(name) {
			return failure(Errorf(CodeToolDenied, "tool %s is not available to this persona; available tools: %s",
				quoteArg(name), d.available())), summarizeArgs(args, d.lim.MaxArgumentBytes)
		}
		return failure(Errorf(CodeUnknownTool, "unknown tool %s; available tools: %s",
			quoteArg(name), d.available())), summarizeArgs(args, d.lim.MaxArgumentBytes)
	}
	if len(args) > d.lim.MaxArgumentBytes {
		return failure(Errorf(CodeArgumentsTooLarge,
			"arguments are %d bytes, over the limit of %d bytes; send shorter values or split the work into several calls",
			len(args), d.lim.MaxArgumentBytes)), fmt.Sprintf("(%d bytes)", len(args))
	}
	if strings.TrimSpace(args) == "" {
		// Models calling a tool without parameters often send nothing.
		args = "{}"
	}
	summary := summarizeArgs(args, d.lim.MaxArgumentBytes)
	raw := json.RawMessage(args)
	if err := checkJSONObject(raw); err != nil {
		return failure(Errorf(CodeInvalidJSON, "arguments must be one JSON object: %v", err)), summary
	}
	if err := validateArgs(tool.Parameters, raw); err != nil {
		return EnvelopeOf(nil, nil, err), summary
	}
	if err := ctx.Err(); err != nil {
		return failure(Errorf(CodeToolFailed, "call of %s cancelled before it ran: %v", tool.Name, err)), summary
	}
	data, warnings, err := runTool(ctx, tool, raw)
	if err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		var te *ToolError
		if !errors.As(err, &te) {
			err = Errorf(CodeToolFailed, "call of %s cancelled: %v", tool.Name, err)
		}
	}
	return EnvelopeOf(data, warnings, err), summary
}

// runTool runs the tool, turning a panic into TOOL_FAILED so one broken tool
// cannot take the language server down with it.
func runTool(ctx context.Context, tool provider.Tool, args json.RawMessage) (data any, warnings []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			data, warnings = nil, nil
			err = Errorf(CodeToolFailed, "tool %s failed unexpectedly: %s", tool.Name, ClipRunes(fmt.Sprint(p), maxPanicRunes))
		}
	}()
	return tool.Run(ctx, args)
}

// encode marshals env, replacing it when it cannot be encoded or is larger
// than the output limit. The replacement envelopes are always small.
func (d *Dispatcher) encode(env Envelope) (string, Envelope) {
	text, err := MarshalEnvelope(env)
	if err != nil {
		env = failure(Errorf(CodeToolFailed, "tool result could not be encoded: %v", err))
		text, _ = MarshalEnvelope(env)
		return text, env
	}
	if len(text) > d.lim.MaxOutputBytes {
		env = failure(Errorf(CodeToolOutputTooLarge,
			"tool output is %d bytes, over the limit of %d bytes; call again with narrower arguments (fewer refs, a more specific name or query)",
			len(text), d.lim.MaxOutputBytes))
		text, _ = MarshalEnvelope(env)
	}
	return text, env
}

// marshalEnvelope encodes without HTML escaping: prose full of < and & would
// otherwise grow by six bytes per character for no reader's benefit.
func MarshalEnvelope(env Envelope) (string, error) {
	if env.Warnings == nil {
		env.Warnings = []string{}
	}
	if env.Errors == nil {
		env.Errors = []ToolError{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(env); err != nil {
		return "", fmt.Errorf("encode envelope: %w", err)
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

func failure(err *ToolError) Envelope { return EnvelopeOf(nil, nil, err) }

func (d *Dispatcher) available() string {
	names := d.reg.Names()
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// checkJSONObject reports why raw is not a single JSON object.
func checkJSONObject(raw json.RawMessage) error {
	if !json.Valid(raw) {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		return errors.New("invalid JSON")
	}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("got " + jsonKind(trimmed))
	}
	return nil
}

func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// summarizeArgs renders arguments as `key=value` pairs in key order, with
// strings clipped and containers reduced to their size, never longer than
// maxSummaryRunes.
func summarizeArgs(args string, maxBytes int) string {
	if len(args) > maxBytes {
		return fmt.Sprintf("(%d bytes)", len(args))
	}
	if strings.TrimSpace(args) == "" {
		return ""
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return fmt.Sprintf("(invalid JSON, %d bytes)", len(args))
	}
	parts := make([]string, 0, len(obj))
	for _, key := range sortedArgKeys(obj) {
		parts = append(parts, ClipRunes(key, maxSummaryValueRunes)+"="+summarizeValue(obj[key]))
	}
	return ClipRunes(strings.Join(parts, " "), maxSummaryRunes-1)
}

func summarizeValue(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "?"
	}
	switch x := v.(type) {
	case string:
		return strconv.Quote(ClipRunes(x, maxSummaryValueRunes))
	case []any:
		return fmt.Sprintf("[%d]", len(x))
	case map[string]any:
		return fmt.Sprintf("{%d}", len(x))
	case nil:
		return "null"
	}
	s := string(bytes.TrimSpace(raw))
	if utf8.RuneCountInString(s) > maxSummaryValueRunes {
		return ClipRunes(s, maxSummaryValueRunes)
	}
	return s
}
