package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

func TestResolveToolUseMode(t *testing.T) {
	tests := []struct {
		mode, calling, want string
	}{
		{"", "", ToolUseRelaxed},
		{"", ToolCallingReliable, ToolUseEnforced},
		{"", ToolCallingBestEffort, ToolUseRelaxed},
		{"", ToolCallingNone, ToolUseDisabled},
		{ToolUseRelaxed, ToolCallingReliable, ToolUseRelaxed},
		{ToolUseEnforced, ToolCallingBestEffort, ToolUseEnforced},
		{ToolUseDisabled, "", ToolUseDisabled},
	}
	for _, tt := range tests {
		got, err := ResolveToolUseMode(tt.mode, tt.calling)
		require.NoError(t, err, "%q %q", tt.mode, tt.calling)
		assert.Equal(t, tt.want, got, "%q %q", tt.mode, tt.calling)
	}
}

func TestLoopModeValidation(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"mode", Options{ToolUseMode: "strict"}, `tool loop: tool use mode "strict": want enforced, relaxed or disabled`},
		{"calling", Options{ToolCalling: "good"}, `tool loop: tool calling "good": want reliable, best_effort or none`},
		{"calling with mode", Options{ToolUseMode: ToolUseRelaxed, ToolCalling: "good"}, `tool calling "good"`},
		{"policy", Options{ToolFailurePolicy: "fatal"}, `tool loop: tool failure policy "fatal": want continue or stop_after_n`},
		{"max failures", Options{ToolFailurePolicy: ToolFailureStopAfterN, MaxToolFailures: -1}, `max tool failures -1`},
		{"enforced with none", Options{ToolUseMode: ToolUseEnforced, ToolChoice: provider.ToolChoiceNone}, `tool use mode enforced cannot go with tool choice none`},
		{"reliable with none", Options{ToolCalling: ToolCallingReliable, ToolChoice: provider.ToolChoiceNone}, `tool use mode enforced cannot go with tool choice none`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t)
			_, err := Run(t.Context(), scriptedProvider(t, s), newLoopTools(t).reg, loopMessages(), tt.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, s.Requests(), "nothing is sent")
		})
	}
}

func TestLoopEnforcedSteersOnce(t *testing.T) {
	for _, opt := range []Options{{ToolUseMode: ToolUseEnforced}, {ToolCalling: ToolCallingReliable}} {
		lt := newLoopTools(t)
		s := providertest.New(t,
			providertest.TextStep("Mara is older, I think."),
			providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Mara"}`}),
			providertest.TextStep("Mara is older: born 1870."),
		)
		res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), opt)
		require.NoError(t, err)
		assert.Equal(t, "Mara is older: born 1870.", res.Answer)
		assert.Empty(t, res.Warnings)
		assert.Empty(t, res.Stopped)
		assert.Equal(t, 3, res.Rounds)
		require.Len(t, res.Trace, 1)
		assert.Equal(t, 1, res.Trace[0].Round, "the steering request is not a round of tools")

		reqs := s.Requests()
		require.Len(t, reqs, 3)
		assert.Equal(t, "auto", reqs[0].Decoded(t)["tool_choice"])
		assert.Equal(t, "required", reqs[1].Decoded(t)["tool_choice"])
		assert.Equal(t, "auto", reqs[2].Decoded(t)["tool_choice"])
		sent := sentMessages(t, reqs[1])
		require.Len(t, sent, 4)
		assert.Equal(t, "assistant", sent[2]["role"])
		assert.Equal(t, "Mara is older, I think.", sent[2]["content"])
		assert.Equal(t, "user", sent[3]["role"])
		assert.Equal(t, consultToolsPrompt, sent[3]["content"])
		assert.Equal(t, provider.Message{Role: provider.RoleAssistant, Content: "Mara is older: born 1870."}, res.Messages[len(res.Messages)-1])
	}
}

func TestLoopEnforcedAcceptsSecondAnswerWithWarning(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t, providertest.TextStep("First."), providertest.TextStep("Second."))
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{ToolCalling: ToolCallingReliable})
	require.NoError(t, err)
	assert.Equal(t, "Second.", res.Answer)
	assert.Equal(t, []string{WarningNoToolUse}, res.Warnings)
	assert.Equal(t, 2, res.Rounds)
	assert.Empty(t, lt.Ran())
	assert.Equal(t, "required", s.Requests()[1].Decoded(t)["tool_choice"])
}

func TestLoopEnforcedEmptyFirstReply(t *testing.T) {
	// An empty reply takes the usual empty-answer retry, and an answer
	// that never used the tools is still flagged.
	lt := newLoopTools(t)
	s := providertest.New(t, providertest.TextStep(""), providertest.TextStep("Answer."))
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "Answer.", res.Answer)
	assert.Equal(t, []string{WarningNoToolUse}, res.Warnings)
	sent := sentMessages(t, s.Requests()[1])
	assert.Equal(t, emptyAnswerPrompt, sent[len(sent)-1]["content"])
}

func TestLoopEnforcedToolsFirst(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"harbor"}`}),
		providertest.TextStep("Done."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "Done.", res.Answer)
	assert.Nil(t, res.Warnings)
	assert.Equal(t, 2, res.Rounds)
}

func TestLoopEnforcedWithoutTools(t *testing.T) {
	// No tools to use (inline provider, empty registry): nothing to enforce.
	lt := newLoopTools(t)
	s := providertest.New(t, providertest.TextStep("inline"))
	p := scriptedProvider(t, s, func(c *provider.Config) { c.Tools = false })
	res, err := Run(t.Context(), p, lt.reg, loopMessages(), Options{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "inline", res.Answer)
	assert.Nil(t, res.Warnings)
	assert.Len(t, s.Requests(), 1)

	s = providertest.New(t, providertest.TextStep("no tools"))
	res, err = Run(t.Context(), scriptedProvider(t, s), lt.reg.Only(nil, []string{"get_character_context", "search_codex"}), loopMessages(), Options{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "no tools", res.Answer)
	assert.Nil(t, res.Warnings)
	assert.Len(t, s.Requests(), 1)
}

func TestLoopRelaxedAcceptsFirstAnswer(t *testing.T) {
	for _, opt := range []Options{
		{},
		{ToolUseMode: ToolUseRelaxed},
		{ToolCalling: ToolCallingBestEffort},
		{ToolUseMode: ToolUseRelaxed, ToolCalling: ToolCallingReliable},
	} {
		lt := newLoopTools(t)
		s := providertest.New(t, providertest.TextStep("Straight away."))
		res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), opt)
		require.NoError(t, err, "%+v", opt)
		assert.Equal(t, "Straight away.", res.Answer)
		assert.Nil(t, res.Warnings)
		require.Len(t, s.Requests(), 1)
		body := s.Requests()[0].Decoded(t)
		assert.Len(t, body["tools"], 2)
		assert.Equal(t, "auto", body["tool_choice"])
	}
}

func TestLoopDisabledSendsNoTools(t *testing.T) {
	for _, opt := range []Options{
		{ToolUseMode: ToolUseDisabled},
		{ToolCalling: ToolCallingNone},
		{ToolUseMode: ToolUseDisabled, ToolChoice: provider.ToolChoiceRequired, ToolCalling: ToolCallingReliable},
	} {
		lt := newLoopTools(t)
		s := providertest.New(t, providertest.TextStep("From memory."))
		res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), opt)
		require.NoError(t, err, "%+v", opt)
		assert.Equal(t, "From memory.", res.Answer)
		assert.Nil(t, res.Warnings)
		require.Len(t, s.Requests(), 1)
		body := s.Requests()[0].Decoded(t)
		assert.NotContains(t, body, "tools")
		assert.NotContains(t, body, "tool_choice")
		assert.NotContains(t, body, "parallel_tool_calls")
	}
}

func TestLoopStopAfterNFailures(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_map", Args: `{}`}),
		providertest.CallsStep(
			providertest.Call{ID: "c2", Name: "search_codex", Args: `{"query":`},
			providertest.Call{ID: "c3", Name: "search_codex", Args: `{"query":"harbor"}`},
			providertest.Call{ID: "c4", Name: "get_character_context", Args: `{"name":"Mara"}`},
		),
		providertest.Step{Reply: &providertest.Reply{
			Content: new("I could not check the harbor."),
			Calls:   []providertest.Call{{ID: "c5", Name: "search_codex", Args: `{"query":"again"}`}},
		}},
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(),
		Options{ToolFailurePolicy: ToolFailureStopAfterN, MaxToolFailures: 2})
	require.NoError(t, err)
	assert.Equal(t, StoppedToolFailures, res.Stopped)
	assert.Equal(t, "I could not check the harbor.", res.Answer)
	assert.Equal(t, 3, res.Rounds)
	assert.Empty(t, lt.Ran(), "no call runs once the limit is reached")
	assert.Equal(t, []string{"stopped calling tools after 2 failed tool calls"}, res.Warnings)

	require.Len(t, res.Trace, 4)
	codes := []string{}
	for _, r := range res.Trace {
		codes = append(codes, r.Code)
		assert.False(t, r.OK)
	}
	assert.Equal(t, []string{CodeUnknownTool, CodeInvalidJSON, CodeToolFailed, CodeToolFailed}, codes)
	assert.Empty(t, res.Trace[1].Warning)
	assert.Contains(t, res.Trace[2].Warning, "not run")
	assert.Equal(t, `query="harbor"`, res.Trace[2].ArgsSummary)
	assert.Contains(t, res.Trace[3].Warning, "not run")

	reqs := s.Requests()
	require.Len(t, reqs, 3)
	final := reqs[2].Decoded(t)
	assert.Equal(t, "none", final["tool_choice"])
	sent := sentMessages(t, reqs[2])
	// Every call of the second reply has its tool message.
	for i, id := range []string{"c2", "c3", "c4"} {
		m := sent[len(sent)-4+i]
		assert.Equal(t, "tool", m["role"])
		assert.Equal(t, id, m["tool_call_id"])
		assert.False(t, toolEnvelope(t, m["content"].(string)).OK)
	}
	skipped := toolEnvelope(t, sent[len(sent)-2]["content"].(string))
	assert.Contains(t, skipped.Errors[0].Message, "not run")
	assert.Equal(t, "user", sent[len(sent)-1]["role"])
	assert.Equal(t, toolFailuresPrompt, sent[len(sent)-1]["content"])
}

func TestLoopStopAfterNDefault(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_map", Args: `{}`}),
		providertest.CallsStep(providertest.Call{ID: "c2", Name: "search_codex", Args: `{"query":"ok"}`}),
		providertest.CallsStep(providertest.Call{ID: "c3", Name: "get_map", Args: `{}`}),
		providertest.CallsStep(providertest.Call{ID: "c4", Name: "get_map", Args: `{}`}),
		providertest.TextStep("Partial answer."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(),
		Options{ToolFailurePolicy: ToolFailureStopAfterN, MaxRounds: 10})
	require.NoError(t, err)
	assert.Equal(t, StoppedToolFailures, res.Stopped, "successes do not count")
	assert.Equal(t, "Partial answer.", res.Answer)
	assert.Equal(t, []string{`search_codex {"query":"ok"}`}, lt.Ran())
	assert.Equal(t, "none", s.Requests()[4].Decoded(t)["tool_choice"])
}

func TestLoopStopAfterNUnderLimit(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_map", Args: `{}`}),
		providertest.CallsStep(providertest.Call{ID: "c2", Name: "search_codex", Args: `{"query":"ok"}`}),
		providertest.TextStep("Fine."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(),
		Options{ToolFailurePolicy: ToolFailureStopAfterN, MaxToolFailures: 2})
	require.NoError(t, err)
	assert.Empty(t, res.Stopped)
	assert.Nil(t, res.Warnings)
	assert.Equal(t, "Fine.", res.Answer)
}

func TestLoopContinuePolicyKeepsGoing(t *testing.T) {
	for _, policy := range []string{"", ToolFailureContinue} {
		lt := newLoopTools(t)
		var steps []providertest.Step
		for range 5 {
			steps = append(steps, providertest.CallsStep(providertest.Call{ID: "x", Name: "get_map", Args: `{}`}))
		}
		steps = append(steps, providertest.TextStep("Gave up on the map."))
		s := providertest.New(t, steps...)
		res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(),
			Options{ToolFailurePolicy: policy, MaxToolFailures: 1, MaxRounds: 5})
		require.NoError(t, err)
		assert.Equal(t, StoppedMaxRounds, res.Stopped, "policy %q", policy)
		assert.Len(t, res.Trace, 5)
		assert.Nil(t, res.Warnings)
	}
}

func TestLoopEnforcedThenStopAfterN(t *testing.T) {
	// Steered to the tools, the model's calls fail until the limit.
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.TextStep("Guess."),
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_map", Args: `{}`}),
		providertest.TextStep("Could not look it up."),
	)
	res, err := Run(t.Context(), scriptedProvider(t, s), lt.reg, loopMessages(), Options{
		ToolCalling: ToolCallingReliable, ToolFailurePolicy: ToolFailureStopAfterN, MaxToolFailures: 1,
	})
	require.NoError(t, err)
	assert.Equal(t, StoppedToolFailures, res.Stopped)
	assert.Equal(t, "Could not look it up.", res.Answer)
	assert.Equal(t, []string{"stopped calling tools after 1 failed tool call"}, res.Warnings)
	reqs := s.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "required", reqs[1].Decoded(t)["tool_choice"])
	assert.Equal(t, "none", reqs[2].Decoded(t)["tool_choice"])
}
