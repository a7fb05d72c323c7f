package provider

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// responsesProvider is a Responses API provider with tools on, pointed at s.
func responsesProvider(t testing.TB, s *providertest.Server, edit ...func(*Config)) *Provider {
	t.Helper()
	return scriptedProvider(t, s, append([]func(*Config){func(c *Config) { c.API = APIResponses }}, edit...)...)
}

// inputOf decodes the input items of a recorded Responses API request.
var inputOf = providertest.InputOf

func TestNewProviderValidatesAPI(t *testing.T) {
	p, err := New(Config{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, APIChat, p.API())
	p, err = New(Config{Model: "m", API: "responses"})
	require.NoError(t, err)
	assert.Equal(t, APIResponses, p.API())
	_, err = New(Config{Model: "m", API: "completions"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown API "completions"`)
	_, err = New(Config{Model: "m", API: APIResponses, Defaults: map[string]any{"instructions": "x"}})
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
	p := responsesProvider(t, s, func(c *Config) { c.Tools = false })
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
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, http.StatusBadRequest, pe.Status)

	s = providertest.New(t, providertest.Step{Body: `{"id":"resp_1","object":"response","status":"failed","output":[],"error":{"code":"server_error","message":"the model failed"}}`})
	_, err = responsesProvider(t, s).Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "server_error: the model failed")
}

// TestResponsesSayWhetherTheyWereStored: a response's "store" field says
// whether a later request may continue from it; DeepSeek's answers
// false whatever was asked (its Responses API is stateless), OpenAI's
// echoes the request's store, true by default
// (https://platform.openai.com/docs/api-reference/responses/object).
func TestResponsesSayWhetherTheyWereStored(t *testing.T) {
	stored := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","store":true,"model":"gpt-4.1-mini","output":[` +
		`{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Green.","annotations":[]}]}],` +
		`"usage":{"input_tokens":5,"output_tokens":1,"total_tokens":6}}`
	tests := []struct {
		name      string
		step      providertest.Step
		notStored bool
	}{
		{name: "DeepSeek, plain", step: providertest.Replay(t, "deepseek-responses-answer.json"), notStored: true},
		{name: "DeepSeek, streamed", step: providertest.ReplayStream(t, "deepseek-responses-answer.json"), notStored: true},
		{name: "stored", step: providertest.Step{Body: stored}},
		{name: "no store field", step: providertest.TextStep("Green.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.step)
			p := responsesProvider(t, s, func(c *Config) { c.Stream = tt.step.SSE != "" })
			c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()})
			require.NoError(t, err)
			assert.NotEmpty(t, c.ResponseID)
			assert.Equal(t, tt.notStored, c.NotStored)
		})
	}
}
