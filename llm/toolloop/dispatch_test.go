package toolloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
)

// testRegistry holds one tool per behaviour the dispatcher must handle.
func testRegistry(t testing.TB) *Registry {
	t.Helper()
	refSchema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"ref":  map[string]any{"type": "string"},
			"refs": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"additionalProperties": false,
		exactlyOneOfKey:        []string{"ref", "refs"},
	}
	empty := map[string]any{"type": "object", "properties": map[string]any{}}
	sizeSchema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": 1 << 20}},
		"required":   []string{"n"},
	}
	reg, err := NewRegistry(
		provider.Tool{Name: "echo", Parameters: refSchema, Run: func(_ context.Context, args json.RawMessage) (any, []string, error) {
			var in struct {
				Ref  string   `json:"ref"`
				Refs []string `json:"refs"`
			}
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, nil, fmt.Errorf("decode echo args: %w", err)
			}
			return in, []string{"echoed"}, nil
		}},
		provider.Tool{Name: "ping", Parameters: empty, Run: func(_ context.Context, args json.RawMessage) (any, []string, error) {
			return map[string]string{"args": string(args)}, nil, nil
		}},
		provider.Tool{Name: "missing", Parameters: empty, Run: func(context.Context, json.RawMessage) (any, []string, error) {
			return nil, []string{"looked everywhere"}, &ToolError{Code: CodeNotFound, Message: "no such chapter", Candidates: []string{"3", "4"}}
		}},
		provider.Tool{Name: "broken", Parameters: empty, Run: func(context.Context, json.RawMessage) (any, []string, error) {
			return nil, nil, errors.New("index unreadable")
		}},
		provider.Tool{Name: "panics", Parameters: empty, Run: func(context.Context, json.RawMessage) (any, []string, error) {
			var m map[string]int
			m["boom"] = 1
			return nil, nil, nil
		}},
		provider.Tool{Name: "waits", Parameters: empty, Run: func(ctx context.Context, _ json.RawMessage) (any, []string, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		}},
		provider.Tool{Name: "big", Parameters: sizeSchema, Run: func(_ context.Context, args json.RawMessage) (any, []string, error) {
			var in struct{ N int }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, nil, fmt.Errorf("decode big args: %w", err)
			}
			return strings.Repeat("x", in.N), nil, nil
		}},
		provider.Tool{Name: "unencodable", Parameters: empty, Run: func(context.Context, json.RawMessage) (any, []string, error) {
			return math.Inf(1), nil, nil
		}},
		provider.Tool{Name: "html", Parameters: empty, Run: func(context.Context, json.RawMessage) (any, []string, error) {
			return "<b>&</b>", nil, nil
		}},
	)
	require.NoError(t, err)
	return reg
}

// decodedEnvelope is the wire shape, decoded without the Go types so that
// missing keys and nulls show.
type decodedEnvelope map[string]json.RawMessage

func requireWireEnvelope(t testing.TB, text string) decodedEnvelope {
	t.Helper()
	var env decodedEnvelope
	require.NoError(t, json.Unmarshal([]byte(text), &env), text)
	for _, key := range []string{"ok", "data", "warnings", "errors"} {
		require.Contains(t, env, key, text)
	}
	require.True(t, strings.HasPrefix(string(env["warnings"]), "["), "warnings is an array: %s", text)
	require.True(t, strings.HasPrefix(string(env["errors"]), "["), "errors is an array: %s", text)
	return env
}

func TestDispatcherCall(t *testing.T) {
	d := NewDispatcher(testRegistry(t), Limits{MaxArgumentBytes: 200, MaxOutputBytes: 300})
	tests := []struct {
		name, tool, args string
		wantOK           bool
		wantCode         string
		wantMsg          []string
		wantData         string
		wantWarnings     []string
	}{
		{name: "ok", tool: "echo", args: `{"ref":"3"}`, wantOK: true,
			wantData: `{"ref":"3","refs":null}`, wantWarnings: []string{"echoed"}},
		{name: "unknown tool lists names", tool: "get_everything", args: `{}`, wantCode: CodeUnknownTool,
			wantMsg: []string{`"get_everything"`, "echo, ping, missing"}},
		{name: "unknown tool before size", tool: "nope", args: strings.Repeat(" ", 500), wantCode: CodeUnknownTool},
		{name: "too large before parsing", tool: "echo", args: `{"ref":"` + strings.Repeat("a", 300), wantCode: CodeArgumentsTooLarge,
			wantMsg: []string{"308 bytes", "limit of 200 bytes"}},
		{name: "blank is empty object", tool: "ping", args: " \n\t", wantOK: true, wantData: `{"args":"{}"}`},
		{name: "empty is empty object", tool: "ping", args: "", wantOK: true, wantData: `{"args":"{}"}`},
		{name: "invalid json", tool: "echo", args: `{"ref":`, wantCode: CodeInvalidJSON, wantMsg: []string{"one JSON object"}},
		{name: "json array", tool: "echo", args: `["3"]`, wantCode: CodeInvalidJSON, wantMsg: []string{"got an array"}},
		{name: "json string", tool: "echo", args: `"3"`, wantCode: CodeInvalidJSON, wantMsg: []string{"got a string"}},
		{name: "json null", tool: "echo", args: `null`, wantCode: CodeInvalidJSON, wantMsg: []string{"got null"}},
		{name: "json number", tool: "echo", args: `3`, wantCode: CodeInvalidJSON, wantMsg: []string{"got a number"}},
		{name: "two objects", tool: "echo", args: `{"ref":"1"}{"ref":"2"}`, wantCode: CodeInvalidJSON},
		{name: "schema", tool: "echo", args: `{"refs":"3"}`, wantCode: CodeInvalidArguments,
			wantMsg: []string{"refs: expected an array of strings, got a string"}},
		{name: "exactly one", tool: "echo", args: `{}`, wantCode: CodeInvalidArguments, wantMsg: []string{"exactly one of ref, refs"}},
		{name: "tool error keeps code and warnings", tool: "missing", args: `{}`, wantCode: CodeNotFound,
			wantMsg: []string{"no such chapter"}, wantWarnings: []string{"looked everywhere"}},
		{name: "plain error is tool failed", tool: "broken", args: `{}`, wantCode: CodeToolFailed, wantMsg: []string{"index unreadable"}},
		{name: "panic is tool failed", tool: "panics", args: `{}`, wantCode: CodeToolFailed,
			wantMsg: []string{"panics failed unexpectedly", "nil map"}},
		{name: "output too large", tool: "big", args: `{"n":1000}`, wantCode: CodeToolOutputTooLarge,
			wantMsg: []string{"limit of 300 bytes", "narrower arguments"}},
		{name: "output just fits", tool: "big", args: `{"n":200}`, wantOK: true},
		{name: "unencodable result", tool: "unencodable", args: `{}`, wantCode: CodeToolFailed, wantMsg: []string{"could not be encoded"}},
		{name: "no html escaping", tool: "html", args: `{}`, wantOK: true, wantData: `"<b>&</b>"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := d.Call(context.Background(), tt.tool, tt.args)
			took := time.Since(start)
			wire := requireWireEnvelope(t, res.JSON)
			assert.Equal(t, tt.wantOK, res.Envelope.OK)
			assert.Equal(t, fmt.Sprint(tt.wantOK), string(wire["ok"]))
			assert.LessOrEqual(t, len(res.JSON), 300)
			if tt.wantOK {
				assert.Empty(t, res.Envelope.Errors)
				assert.Equal(t, "[]", string(wire["errors"]))
				if tt.wantData != "" {
					assert.JSONEq(t, tt.wantData, string(wire["data"]))
				}
			} else {
				require.Len(t, res.Envelope.Errors, 1, res.JSON)
				assert.Equal(t, tt.wantCode, res.Envelope.Errors[0].Code)
				assert.Equal(t, "null", string(wire["data"]))
				for _, want := range tt.wantMsg {
					assert.Contains(t, res.Envelope.Errors[0].Message, want)
				}
			}
			if tt.wantWarnings == nil {
				assert.Equal(t, "[]", string(wire["warnings"]))
			} else {
				assert.Equal(t, tt.wantWarnings, res.Envelope.Warnings)
			}
			// Measured, within the call as seen from outside. Not asked to be
			// positive: Windows' clock ticks every 0.5 to 15.6 ms, so a quick
			// call there often measures 0.
			assert.GreaterOrEqual(t, res.Duration, time.Duration(0))
			assert.LessOrEqual(t, res.Duration, took)
		})
	}
}

func TestDispatcherCandidatesReachTheModel(t *testing.T) {
	d := NewDispatcher(testRegistry(t), Limits{})
	res := d.Call(context.Background(), "missing", "{}")
	assert.Contains(t, res.JSON, `"candidates":["3","4"]`)
}

func TestDispatcherScope(t *testing.T) {
	reg := testRegistry(t).Only([]string{"echo", "ping"}, []string{"ping"})
	d := NewDispatcher(reg, Limits{})

	res := d.Call(context.Background(), "ping", "{}")
	require.Len(t, res.Envelope.Errors, 1)
	assert.Equal(t, CodeToolDenied, res.Envelope.Errors[0].Code)
	assert.Contains(t, res.Envelope.Errors[0].Message, "available tools: echo")

	res = d.Call(context.Background(), "invented", "{}")
	assert.Equal(t, CodeUnknownTool, res.Envelope.Errors[0].Code)

	res = d.Call(context.Background(), "echo", `{"ref":"1"}`)
	assert.True(t, res.Envelope.OK)
}

func TestDispatcherEmptyRegistry(t *testing.T) {
	d := NewDispatcher(nil, Limits{})
	res := d.Call(context.Background(), "echo", "{}")
	assert.Equal(t, CodeUnknownTool, res.Envelope.Errors[0].Code)
	assert.Contains(t, res.Envelope.Errors[0].Message, "(none)")
}

func TestDispatcherCancellation(t *testing.T) {
	d := NewDispatcher(testRegistry(t), Limits{})

	t.Run("before the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res := d.Call(ctx, "ping", "{}")
		require.Len(t, res.Envelope.Errors, 1)
		assert.Equal(t, CodeToolFailed, res.Envelope.Errors[0].Code)
		assert.Contains(t, res.Envelope.Errors[0].Message, "cancelled before it ran")
	})
	t.Run("during the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan CallResult)
		go func() { done <- d.Call(ctx, "waits", "{}") }()
		cancel()
		res := <-done
		require.Len(t, res.Envelope.Errors, 1)
		assert.Equal(t, CodeToolFailed, res.Envelope.Errors[0].Code)
		assert.Contains(t, res.Envelope.Errors[0].Message, "cancelled")
	})
}

func TestDispatcherDefaults(t *testing.T) {
	d := NewDispatcher(testRegistry(t), Limits{})
	assert.Equal(t, DefaultMaxArgumentBytes, d.lim.MaxArgumentBytes)
	assert.Equal(t, DefaultMaxOutputBytes, d.lim.MaxOutputBytes)

	res := d.Call(context.Background(), "big", fmt.Sprintf(`{"n":%d}`, DefaultMaxOutputBytes))
	assert.Equal(t, CodeToolOutputTooLarge, res.Envelope.Errors[0].Code)

	res = d.Call(context.Background(), "echo", `{"ref":"`+strings.Repeat("a", DefaultMaxArgumentBytes)+`"}`)
	assert.Equal(t, CodeArgumentsTooLarge, res.Envelope.Errors[0].Code)
}

func TestSummarizeArgs(t *testing.T) {
	long := strings.Repeat("word ", 100)
	tests := []struct {
		name, args, want string
	}{
		{"empty", "", ""},
		{"one ref", `{"ref":"3"}`, `ref="3"`},
		{"sorted keys and kinds", `{"refs":["1","2"],"limit":5,"draft":true,"x":null,"fields":{"a":"b"}}`,
			`draft=true fields={1} limit=5 refs=[2] x=null`},
		{"prose is clipped", `{"proposedMarkdown":"` + strings.Repeat("word ", 15) + `"}`, `proposedMarkdown="word word word word word…"`},
		{"invalid", `{"ref":`, "(invalid JSON, 7 bytes)"},
		{"not an object", `[1,2]`, "(invalid JSON, 5 bytes)"},
		{"too large", strings.Repeat("a", 101), "(101 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, summarizeArgs(tt.args, 100))
		})
	}

	many := `{"a":"` + long + `","b":"` + long + `","c":"` + long + `","d":"` + long + `"}`
	got := summarizeArgs(many, 1<<20)
	assert.LessOrEqual(t, utf8.RuneCountInString(got), maxSummaryRunes)
	assert.True(t, strings.HasSuffix(got, "…"))
}

func TestCallResultSummary(t *testing.T) {
	d := NewDispatcher(testRegistry(t), Limits{MaxArgumentBytes: 50})
	assert.Equal(t, `ref="3"`, d.Call(context.Background(), "echo", `{"ref":"3"}`).ArgsSummary)
	assert.Equal(t, "(60 bytes)", d.Call(context.Background(), "echo", strings.Repeat(" ", 60)).ArgsSummary)
	assert.Empty(t, d.Call(context.Background(), "ping", "  ").ArgsSummary)
}
