package toolloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// loopTools is a registry of two tools that record what they ran.
type loopTools struct {
	mu  sync.Mutex
	ran []string
	reg *Registry
}

func newLoopTools(t testing.TB) *loopTools {
	t.Helper()
	lt := &loopTools{}
	record := func(tool string) func(context.Context, json.RawMessage) (any, []string, error) {
		return func(_ context.Context, args json.RawMessage) (any, []string, error) {
			var a map[string]any
			_ = json.Unmarshal(args, &a)
			lt.mu.Lock()
			lt.ran = append(lt.ran, fmt.Sprintf("%s %s", tool, args))
			lt.mu.Unlock()
			return map[string]any{"tool": tool, "args": a}, nil, nil
		}
	}
	schema := func(prop string) map[string]any {
		return map[string]any{
			"type":       "object",
			"properties": map[string]any{prop: map[string]any{"type": "string"}},
			"required":   []any{prop},
		}
	}
	reg, err := NewRegistry(
		provider.Tool{Name: "get_character_context", Description: "Character canon.", Parameters: schema("name"), Run: record("get_character_context")},
		provider.Tool{Name: "search_codex", Description: "Search canon.", Parameters: schema("query"), Run: record("search_codex")},
	)
	require.NoError(t, err)
	lt.reg = reg
	return lt
}

func (lt *loopTools) Ran() []string {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return append([]string(nil), lt.ran...)
}

func loopMessages() []provider.Message {
	return []provider.Message{
		{Role: provider.RoleSystem, Content: "You are the continuity editor."},
		{Role: provider.RoleUser, Content: "Is Mara older than Ilse?"},
	}
}

// sentMessages decodes the messages of a recorded request.
func sentMessages(t testing.TB, r providertest.Request) []map[string]any {
	t.Helper()
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body))
	return body.Messages
}

func toolEnvelope(t testing.TB, content string) Envelope {
	t.Helper()
	var env Envelope
	require.NoError(t, json.Unmarshal([]byte(content), &env), content)
	return env
}

func TestLoopHappyPath(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`}),
		providertest.TextStep("Mara is older."),
	)
	p := scriptedProvider(t, s)
	var seen []TraceRow
	res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{OnTrace: func(r TraceRow) { seen = append(seen, r) }})
	require.NoError(t, err)

	assert.Equal(t, "Mara is older.", res.Answer)
	assert.Equal(t, 2, res.Rounds)
	assert.Empty(t, res.Stopped)
	assert.Equal(t, provider.Usage{PromptTokens: 20, CompletionTokens: 10}, res.Usage)
	assert.Equal(t, []string{`get_character_context {"name":"Mara"}`}, lt.Ran())

	require.Len(t, res.Trace, 1)
	row := res.Trace[0]
	assert.Equal(t, 1, row.Round)
	assert.Equal(t, "get_character_context", row.Tool)
	assert.Equal(t, `name="Mara"`, row.ArgsSummary)
	assert.True(t, row.OK)
	assert.Empty(t, row.Code)
	assert.Positive(t, row.OutputBytes)
	assert.Equal(t, res.Trace, seen)

	require.Len(t, res.Messages, 5)
	assert.Equal(t, loopMessages(), res.Messages[:2])
	assert.Equal(t, provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_a", Name: "get_character_context", Arguments: `{"name":"Mara"}`}}}, res.Messages[2])
	assert.Equal(t, provider.RoleTool, res.Messages[3].Role)
	assert.Equal(t, "call_a", res.Messages[3].ToolCallID)
	assert.Equal(t, row.OutputBytes, len(res.Messages[3].Content))
	env := toolEnvelope(t, res.Messages[3].Content)
	assert.True(t, env.OK)
	assert.Equal(t, provider.Message{Role: provider.RoleAssistant, Content: "Mara is older."}, res.Messages[4])

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		body := r.Decoded(t)
		assert.Equal(t, false, body["parallel_tool_calls"], "request %d", i)
		assert.Equal(t, "auto", body["tool_choice"], "request %d", i)
		assert.Len(t, body["tools"], 2, "request %d", i)
	}
	second := sentMessages(t, reqs[1])
	require.Len(t, second, 4)
	assert.Equal(t, "tool", second[3]["role"])
	assert.Equal(t, "call_a", second[3]["tool_call_id"])
	assert.Equal(t, res.Messages[3].Content, second[3]["content"])
}

func TestLoopRunsToolsInOrder(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"harbor"}`},
			providertest.Call{ID: "c2", Name: "get_character_context", Args: `{"name":"Ilse"}`},
			providertest.Call{ID: "c3", Name: "get_character_context", Args: `{"name":"Mara"}`},
		),
		providertest.TextStep("done"),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{
		`search_codex {"query":"harbor"}`,
		`get_character_context {"name":"Ilse"}`,
		`get_character_context {"name":"Mara"}`,
	}, lt.Ran())

	sent := sentMessages(t, s.Requests()[1])
	require.Len(t, sent, 6)
	for i, id := range []string{"c1", "c2", "c3"} {
		assert.Equal(t, "tool", sent[3+i]["role"])
		assert.Equal(t, id, sent[3+i]["tool_call_id"])
	}
	var tools []string
	for _, r := range res.Trace {
		tools = append(tools, r.Tool)
	}
	assert.Equal(t, []string{"search_codex", "get_character_context", "get_character_context"}, tools)
}

func TestLoopMaxRounds(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "r1", Name: "search_codex", Args: `{"query":"a"}`}),
		providertest.CallsStep(providertest.Call{ID: "r2", Name: "search_codex", Args: `{"query":"b"}`}),
		// The final request: tool calls are ignored, the text is taken.
		providertest.Step{Reply: &providertest.Reply{
			Content: new("Here is what I found."),
			Calls:   []providertest.Call{{ID: "r3", Name: "search_codex", Args: `{"query":"c"}`}},
		}},
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{MaxRounds: 2})
	require.NoError(t, err)
	assert.Equal(t, StoppedMaxRounds, res.Stopped)
	assert.Equal(t, "Here is what I found.", res.Answer)
	assert.Equal(t, 3, res.Rounds)
	assert.Len(t, lt.Ran(), 2, "the third round's calls never run")

	reqs := s.Requests()
	require.Len(t, reqs, 3)
	final := reqs[2].Decoded(t)
	assert.Equal(t, "none", final["tool_choice"])
	sent := sentMessages(t, reqs[2])
	last := sent[len(sent)-1]
	assert.Equal(t, "user", last["role"])
	assert.Equal(t, finalAnswerPrompt, last["content"])
	assert.Equal(t, provider.Message{Role: provider.RoleAssistant, Content: "Here is what I found."}, res.Messages[len(res.Messages)-1])
}

func TestLoopDefaultMaxRounds(t *testing.T) {
	lt := newLoopTools(t)
	var steps []providertest.Step
	for i := range DefaultMaxRounds {
		steps = append(steps, providertest.CallsStep(providertest.Call{ID: fmt.Sprint(i), Name: "search_codex", Args: `{"query":"x"}`}))
	}
	steps = append(steps, providertest.TextStep("enough"))
	s := providertest.New(t, steps...)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, StoppedMaxRounds, res.Stopped)
	assert.Len(t, lt.Ran(), DefaultMaxRounds)
	assert.Equal(t, DefaultMaxRounds+1, res.Rounds)
}

func TestLoopEmptyFinalRetry(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"a"}`}),
		providertest.TextStep("  \n"),
		providertest.TextStep("The answer."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "The answer.", res.Answer)
	assert.Equal(t, 3, res.Rounds)

	retry := s.Requests()[2].Decoded(t)
	assert.NotContains(t, retry, "tools", "the retry is sent without tools")
	assert.NotContains(t, retry, "tool_choice")
	assert.NotContains(t, retry, "parallel_tool_calls")
	sent := sentMessages(t, s.Requests()[2])
	assert.Equal(t, emptyAnswerPrompt, sent[len(sent)-1]["content"])
}

func TestLoopNoAnswer(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t, providertest.TextStep(""), providertest.Step{Reply: &providertest.Reply{}})
	_, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	require.ErrorIs(t, err, ErrNoAnswer)
	assert.Equal(t, "the model returned no answer", err.Error())
	assert.Len(t, s.Requests(), 2)
}

func TestLoopDuplicateToolCallIDs(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "dup", Name: "get_character_context", Args: `{"name":"Mara"}`},
			providertest.Call{ID: "dup", Name: "get_character_context", Args: `{"name":"Ilse"}`},
			providertest.Call{ID: "", Name: "search_codex", Args: `{"query":"harbor"}`},
		),
		providertest.TextStep("ok"),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	require.Len(t, res.Trace, 3)
	assert.Empty(t, res.Trace[0].Warning)
	assert.Contains(t, res.Trace[1].Warning, "duplicate tool call id dup")
	assert.Contains(t, res.Trace[2].Warning, "without id")

	calls := res.Messages[2].ToolCalls
	require.Len(t, calls, 3)
	ids := map[string]bool{}
	for i, c := range calls {
		assert.NotEmpty(t, c.ID)
		assert.False(t, ids[c.ID], "id %s used twice", c.ID)
		ids[c.ID] = true
		assert.Equal(t, c.ID, res.Messages[3+i].ToolCallID)
	}
	assert.Equal(t, "dup", calls[0].ID)

	// What the server saw next agrees with the repaired ids.
	sent := sentMessages(t, s.Requests()[1])
	sentCalls := sent[2]["tool_calls"].([]any)
	for i, c := range calls {
		assert.Equal(t, c.ID, sentCalls[i].(map[string]any)["id"])
		assert.Equal(t, c.ID, sent[3+i]["tool_call_id"])
	}
}

func TestLoopRecoversFromToolErrors(t *testing.T) {
	lt := newLoopTools(t)
	narrow := lt.reg.Only([]string{"get_character_context"}, nil)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Mara"`}),
		providertest.CallsStep(
			providertest.Call{ID: "c2", Name: "get_map", Args: `{}`},
			providertest.Call{ID: "c3", Name: "search_codex", Args: `{"query":"x"}`},
		),
		providertest.CallsStep(providertest.Call{ID: "c4", Name: "get_character_context", Args: `{"name":"Mara"}`}),
		providertest.TextStep("Recovered."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), narrow, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "Recovered.", res.Answer)
	assert.Equal(t, []string{`get_character_context {"name":"Mara"}`}, lt.Ran())

	codes := []string{}
	for _, r := range res.Trace {
		codes = append(codes, r.Code)
	}
	assert.Equal(t, []string{CodeInvalidJSON, CodeUnknownTool, CodeToolDenied, ""}, codes)
	assert.False(t, res.Trace[0].OK)
	assert.True(t, res.Trace[3].OK)

	// The model saw the error envelope of its bad call.
	sent := sentMessages(t, s.Requests()[1])
	env := toolEnvelope(t, sent[len(sent)-1]["content"].(string))
	assert.False(t, env.OK)
	require.Len(t, env.Errors, 1)
	assert.Equal(t, CodeInvalidJSON, env.Errors[0].Code)

	// Only the persona's tools were offered.
	tools := s.Requests()[0].Decoded(t)["tools"].([]any)
	require.Len(t, tools, 1)
	assert.Equal(t, "get_character_context", tools[0].(map[string]any)["function"].(map[string]any)["name"])
}

func TestLoopToolChoiceRequiredFirstRoundOnly(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"a"}`}),
		providertest.TextStep("ok"),
	)
	_, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{ToolChoice: "required"})
	require.NoError(t, err)
	assert.Equal(t, "required", s.Requests()[0].Decoded(t)["tool_choice"])
	assert.Equal(t, "auto", s.Requests()[1].Decoded(t)["tool_choice"])

	_, err = Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{ToolChoice: "always"})
	assert.ErrorContains(t, err, `tool choice "always"`)
	_, err = Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{Quirks: []provider.Quirk{"nope"}})
	assert.ErrorContains(t, err, `unknown quirk "nope"`)
}

func TestLoopInlineMode(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t, providertest.TextStep("inline answer"))
	p := scriptedProvider(t, s, func(c *provider.Config) { c.Tools = false })
	res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "inline answer", res.Answer)
	assert.NotContains(t, s.Requests()[0].Decoded(t), "tools")
}

func TestLoopProviderError(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"a"}`}),
		providertest.ErrorStep(http.StatusInternalServerError, "server_error", "boom", nil),
	)
	_, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{})
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "provider returned 500 server_error: boom", err.Error())
}

func TestLoopCancelledBetweenTools(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	ran := 0
	reg, err := NewRegistry(provider.Tool{
		Name:       "search_codex",
		Parameters: map[string]any{"type": "object"},
		Run: func(context.Context, json.RawMessage) (any, []string, error) {
			ran++
			cancel()
			return "x", nil, nil
		},
	})
	require.NoError(t, err)
	s := providertest.New(t, providertest.CallsStep(
		providertest.Call{ID: "c1", Name: "search_codex", Args: `{}`},
		providertest.Call{ID: "c2", Name: "search_codex", Args: `{}`},
	))
	_, err = Run(ctx, scriptedProvider(t, s), reg, loopMessages(), Options{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Equal(t, 1, ran)
}

func TestLoopDoesNotModifyInput(t *testing.T) {
	lt := newLoopTools(t)
	in := loopMessages()
	in = in[:2:2]
	s := providertest.New(t, providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"a"}`}), providertest.TextStep("ok"))
	_, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, in, Options{})
	require.NoError(t, err)
	assert.Equal(t, loopMessages(), in)
}

func BenchmarkLoopOverhead(b *testing.B) {
	lt := newLoopTools(b)
	s := providertest.New(b,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Mara"}`}),
		providertest.TextStep("Mara is older."),
	)
	s.Repeat()
	p := scriptedProvider(b, s)
	msgs := loopMessages()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), p, lt.reg, msgs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
