package llm

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// responsesProvider is a Responses API provider with tools on, pointed at s.
func responsesProvider(t testing.TB, s *providertest.Server, edit ...func(*ProviderConfig)) *Provider {
	t.Helper()
	return scriptedProvider(t, s, append([]func(*ProviderConfig){func(c *ProviderConfig) { c.API = APIResponses }}, edit...)...)
}

// inputOf decodes the input items of a recorded Responses API request.
func inputOf(t testing.TB, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["input"].([]any)
	require.True(t, ok, "input is a list of items: %v", body["input"])
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i] = it.(map[string]any)
	}
	return out
}

func TestNewProviderValidatesAPI(t *testing.T) {
	p, err := NewProvider(ProviderConfig{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, APIChat, p.API())
	p, err = NewProvider(ProviderConfig{Model: "m", API: "responses"})
	require.NoError(t, err)
	assert.Equal(t, APIResponses, p.API())
	_, err = NewProvider(ProviderConfig{Model: "m", API: "completions"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown API "completions"`)
	_, err = NewProvider(ProviderConfig{Model: "m", API: APIResponses, Defaults: map[string]any{"instructions": "x"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reserved")
}

func TestResponsesRequestShape(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("Mara is a smuggler."))
	p := responsesProvider(t, s)
	msgs := append(providerTestMessages(), Message{Role: RoleAssistant, Content: "She runs the harbor."}, Message{Role: RoleUser, Content: "And Ilse?"})
	req := CompletionRequest{Messages: msgs, Tools: providerTestTools(), ToolChoice: ToolChoiceRequired}
	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	c, err := p.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "Mara is a smuggler.", c.Message.Content)
	assert.Equal(t, "resp_1", c.ResponseID)
	assert.Equal(t, "stop", c.FinishReason)
	assert.Equal(t, Usage{PromptTokens: 10, CompletionTokens: 5}, c.Usage)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/responses", reqs[0].Path)
	assert.JSONEq(t, string(peek), string(reqs[0].Body), "peek is exactly the sent body")
	body := reqs[0].Decoded(t)
	assert.Equal(t, "test-model", body["model"])
	assert.Equal(t, "You are an editor.", body["instructions"])
	assert.Equal(t, false, body["parallel_tool_calls"])
	assert.Equal(t, "required", body["tool_choice"])
	assert.NotContains(t, body, "previous_response_id")
	assert.NotContains(t, body, "messages")

	input := inputOf(t, body)
	require.Len(t, input, 5)
	assert.Equal(t, "user", input[0]["role"])
	assert.Equal(t, "Who is Mara?", input[0]["content"])
	assert.Equal(t, "function_call", input[1]["type"])
	assert.Equal(t, "call_1", input[1]["call_id"])
	assert.Equal(t, "get_character_context", input[1]["name"])
	assert.Equal(t, `{"name":"Mara"}`, input[1]["arguments"])
	assert.Equal(t, "function_call_output", input[2]["type"])
	assert.Equal(t, "call_1", input[2]["call_id"])
	assert.Equal(t, `{"ok":true}`, input[2]["output"])
	assert.Equal(t, "assistant", input[3]["role"])
	assert.Equal(t, "She runs the harbor.", input[3]["content"])
	assert.Equal(t, "And Ilse?", input[4]["content"])

	tools := body["tools"].([]any)
	require.Len(t, tools, len(providerTestTools()))
	tool := tools[0].(map[string]any)
	assert.Equal(t, "function", tool["type"])
	assert.Equal(t, providerTestTools()[0].Name, tool["name"])
	assert.Equal(t, false, tool["strict"])
	assert.Contains(t, tool, "parameters")
}

func TestResponsesWithoutToolsSendsNoToolFields(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := responsesProvider(t, s, func(c *ProviderConfig) { c.Tools = false })
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2], Tools: providerTestTools()})
	require.NoError(t, err)
	body := s.Requests()[0].Decoded(t)
	for _, k := range []string{"tools", "tool_choice", "parallel_tool_calls"} {
		assert.NotContains(t, body, k)
	}
}

func TestResponsesDecodesFunctionCalls(t *testing.T) {
	s := providertest.New(t, providertest.Step{Reply: &providertest.Reply{
		Content: new("Let me check."),
		Calls: []providertest.Call{
			{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`},
			{ID: "call_b", Name: "search_codex", Args: `{"query":"harbor"}`},
		},
		ResponseID: "resp_abc",
	}})
	p := responsesProvider(t, s)
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	assert.Equal(t, "resp_abc", c.ResponseID)
	assert.Equal(t, "Let me check.", c.Message.Content)
	assert.Equal(t, "tool_calls", c.FinishReason)
	assert.Equal(t, []ToolCall{
		{ID: "call_a", Name: "get_character_context", Arguments: `{"name":"Mara"}`},
		{ID: "call_b", Name: "search_codex", Arguments: `{"query":"harbor"}`},
	}, c.Message.ToolCalls)
}

func TestResponsesPreviousResponseID(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := responsesProvider(t, s)
	req := CompletionRequest{
		Messages:           []Message{{Role: RoleSystem, Content: "You are an editor."}, {Role: RoleUser, Content: "And now?"}},
		PreviousResponseID: "resp_prev",
	}
	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), req)
	require.NoError(t, err)
	body := s.Requests()[0].Decoded(t)
	assert.JSONEq(t, string(peek), string(s.Requests()[0].Body))
	assert.Equal(t, "resp_prev", body["previous_response_id"])
	assert.Equal(t, "You are an editor.", body["instructions"], "instructions are resent with every request")
	input := inputOf(t, body)
	require.Len(t, input, 1)
	assert.Equal(t, "And now?", input[0]["content"])
}

func TestResponsesChatProviderIgnoresPreviousResponseID(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := scriptedProvider(t, s)
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2], PreviousResponseID: "resp_prev"})
	require.NoError(t, err)
	assert.NotContains(t, s.Requests()[0].Decoded(t), "previous_response_id")
}

func TestResponsesErrorsAreReadable(t *testing.T) {
	s := providertest.New(t, providertest.ErrorStep(http.StatusBadRequest, "previous_response_not_found", "Previous response with id 'resp_x' not found.", nil))
	p := responsesProvider(t, s)
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2], PreviousResponseID: "resp_x"})
	require.Error(t, err)
	assert.Equal(t, "provider returned 400 previous_response_not_found: Previous response with id 'resp_x' not found.", err.Error())
	var pe *ProviderError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, http.StatusBadRequest, pe.Status)

	s = providertest.New(t, providertest.Step{Body: `{"id":"resp_1","object":"response","status":"failed","output":[],"error":{"code":"server_error","message":"the model failed"}}`})
	_, err = responsesProvider(t, s).Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "server_error: the model failed")
}

func TestResponsesLoopChainsRounds(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`},
			providertest.Call{ID: "call_b", Name: "search_codex", Args: `{"query":"Ilse"}`},
		),
		providertest.TextStep("Mara is older."),
	)
	p := responsesProvider(t, s)
	res, err := RunLoop(t.Context(), p, lt.reg, loopMessages(), LoopOptions{})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	assert.Equal(t, "resp_2", res.ResponseID)
	assert.Equal(t, 2, res.Rounds)
	require.Len(t, res.Messages, 6, "the result keeps the whole exchange")

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	first := reqs[0].Decoded(t)
	assert.NotContains(t, first, "previous_response_id")
	assert.Equal(t, "You are the continuity editor.", first["instructions"])
	in1 := inputOf(t, first)
	require.Len(t, in1, 1)
	assert.Equal(t, "Is Mara older than Ilse?", in1[0]["content"])

	second := reqs[1].Decoded(t)
	assert.Equal(t, "resp_1", second["previous_response_id"])
	assert.Equal(t, "You are the continuity editor.", second["instructions"])
	assert.Equal(t, false, second["parallel_tool_calls"])
	in2 := inputOf(t, second)
	require.Len(t, in2, 2, "only the tool results are sent: %v", in2)
	for i, id := range []string{"call_a", "call_b"} {
		assert.Equal(t, "function_call_output", in2[i]["type"])
		assert.Equal(t, id, in2[i]["call_id"])
		assert.Equal(t, res.Messages[3+i].Content, in2[i]["output"])
	}
}

func TestResponsesLoopSteeringIsChained(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.TextStep("From memory: Mara."),
		providertest.CallsStep(providertest.Call{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`}),
		providertest.TextStep("Mara is older."),
	)
	p := responsesProvider(t, s)
	res, err := RunLoop(t.Context(), p, lt.reg, loopMessages(), LoopOptions{ToolUseMode: ToolUseEnforced})
	require.NoError(t, err)
	assert.Equal(t, "Mara is older.", res.Answer)
	reqs := s.Requests()
	require.Len(t, reqs, 3)
	second := reqs[1].Decoded(t)
	assert.Equal(t, "resp_1", second["previous_response_id"])
	assert.Equal(t, "required", second["tool_choice"])
	in2 := inputOf(t, second)
	require.Len(t, in2, 1, "only the steering message: %v", in2)
	assert.Equal(t, consultToolsPrompt, in2[0]["content"])
	third := reqs[2].Decoded(t)
	assert.Equal(t, "resp_2", third["previous_response_id"])
	in3 := inputOf(t, third)
	require.Len(t, in3, 1)
	assert.Equal(t, "function_call_output", in3[0]["type"])
}

func TestResponsesLoopWithoutIDResendsTheTurn(t *testing.T) {
	lt := newLoopTools(t)
	s := providertest.New(t,
		providertest.Step{Reply: &providertest.Reply{Calls: []providertest.Call{{ID: "call_a", Name: "get_character_context", Args: `{"name":"Mara"}`}}, ResponseID: "-"}},
		providertest.TextStep("Mara is older."),
	)
	res, err := RunLoop(t.Context(), responsesProvider(t, s), lt.reg, loopMessages(), LoopOptions{})
	require.NoError(t, err)
	assert.Equal(t, "resp_2", res.ResponseID)
	second := s.Requests()[1].Decoded(t)
	assert.NotContains(t, second, "previous_response_id")
	in2 := inputOf(t, second)
	require.Len(t, in2, 3, "user message, function call, its output: %v", in2)
	assert.Equal(t, "function_call", in2[1]["type"])
	assert.Equal(t, "function_call_output", in2[2]["type"])
}

func TestResponsesAskContinuesConversation(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t,
		providertest.Step{Reply: &providertest.Reply{Content: new("First answer."), ResponseID: "resp_turn1"}},
		providertest.Step{Reply: &providertest.Reply{Content: new("Second answer."), ResponseID: "resp_turn2"}},
	)
	p := responsesProvider(t, s)
	in := AskInput{Book: b, PersonaID: "continuity-editor", Message: "Is chapter 2 consistent?", Provider: p, Loop: LoopOptions{ToolUseMode: ToolUseRelaxed}}
	first, err := Ask(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, "resp_turn1", first.ResponseID)

	next := in
	next.Message = "And chapter 3?"
	next.History = first.Messages
	next.PreviousResponseID = first.ResponseID
	peek, err := Peek(context.Background(), next)
	require.NoError(t, err)
	second, err := Ask(context.Background(), next)
	require.NoError(t, err)
	assert.Equal(t, "Second answer.", second.Answer)
	assert.Equal(t, "resp_turn2", second.ResponseID)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.JSONEq(t, string(peek), string(reqs[1].Body), "peek is exactly what the continued turn sends")
	body := reqs[1].Decoded(t)
	assert.Equal(t, "resp_turn1", body["previous_response_id"])
	assert.Contains(t, body["instructions"], "continuity editor")
	input := inputOf(t, body)
	require.NotEmpty(t, input)
	assert.LessOrEqual(t, len(input), 2, "at most the context message and the writer's message: %v", input)
	assert.Equal(t, "And chapter 3?", input[len(input)-1]["content"])
	for _, it := range input {
		assert.NotEqual(t, "assistant", it["role"], "no history is resent")
		assert.NotEqual(t, "Is chapter 2 consistent?", it["content"])
	}
	firstInput := inputOf(t, reqs[0].Decoded(t))
	assert.Len(t, firstInput, len(input), "the first turn sent the same shape, without history")
}

func TestResponsesAskChatProviderSendsHistory(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t, providertest.TextStep("Second answer."))
	in := AskInput{
		Book: b, PersonaID: "continuity-editor", Message: "And chapter 3?", Provider: scriptedProvider(t, s),
		History:            []Message{{Role: RoleUser, Content: "Is chapter 2 consistent?"}, {Role: RoleAssistant, Content: "First answer."}},
		PreviousResponseID: "resp_turn1",
		Loop:               LoopOptions{ToolUseMode: ToolUseRelaxed},
	}
	res, err := Ask(context.Background(), in)
	require.NoError(t, err)
	assert.Empty(t, res.ResponseID)
	body := s.Requests()[0].Decoded(t)
	assert.NotContains(t, body, "previous_response_id")
	assert.Contains(t, string(s.Requests()[0].Body), "First answer.")
}
