package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

func providerTestTools() []Tool {
	return []Tool{{
		Name:        "get_character_context",
		Description: "Look up a character.",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}},
			"required":   []any{"name"},
		},
		Run: func(context.Context, json.RawMessage) (any, []string, error) { return nil, nil, nil },
	}}
}

func providerTestMessages() []Message {
	return []Message{
		{Role: RoleSystem, Content: "You are an editor."},
		{Role: RoleUser, Content: "Who is Mara?"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Name: "get_character_context", Arguments: `{"name":"Mara"}`}}},
		{Role: RoleTool, ToolCallID: "call_1", Content: `{"ok":true}`},
	}
}

func TestProviderRequestShape(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("Mara is a smuggler."))
	p := scriptedProvider(t, s)

	c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(), Tools: providerTestTools()})
	require.NoError(t, err)
	assert.Equal(t, "Mara is a smuggler.", c.Message.Content)
	assert.Equal(t, RoleAssistant, c.Message.Role)
	assert.Equal(t, "stop", c.FinishReason)
	assert.Equal(t, "test-model", c.Model)
	assert.Equal(t, Usage{PromptTokens: 10, CompletionTokens: 5}, c.Usage)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	body := reqs[0].Decoded(t)
	assert.Equal(t, "test-model", body["model"])
	assert.Equal(t, false, body["parallel_tool_calls"])
	assert.Equal(t, "auto", body["tool_choice"])

	tools := body["tools"].([]any)
	require.Len(t, tools, 1)
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, "function", tools[0].(map[string]any)["type"])
	assert.Equal(t, "get_character_context", fn["name"])
	assert.Equal(t, "Look up a character.", fn["description"])
	assert.Equal(t, "object", fn["parameters"].(map[string]any)["type"])

	msgs := body["messages"].([]any)
	require.Len(t, msgs, 4)
	assert.Equal(t, map[string]any{"role": "system", "content": "You are an editor."}, msgs[0])
	assert.Equal(t, map[string]any{"role": "user", "content": "Who is Mara?"}, msgs[1])
	asst := msgs[2].(map[string]any)
	assert.Equal(t, "assistant", asst["role"])
	assert.NotContains(t, asst, "content", "a tool-calling assistant message carries no content")
	call := asst["tool_calls"].([]any)[0].(map[string]any)
	assert.Equal(t, "call_1", call["id"])
	assert.Equal(t, "function", call["type"])
	assert.Equal(t, map[string]any{"name": "get_character_context", "arguments": `{"name":"Mara"}`}, call["function"])
	assert.Equal(t, map[string]any{"role": "tool", "content": `{"ok":true}`, "tool_call_id": "call_1"}, msgs[3])
}

func TestProviderToolChoice(t *testing.T) {
	for _, choice := range []string{"auto", "none", "required"} {
		t.Run(choice, func(t *testing.T) {
			s := providertest.New(t, providertest.TextStep("ok"))
			p := scriptedProvider(t, s)
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2], Tools: providerTestTools(), ToolChoice: choice})
			require.NoError(t, err)
			body := s.Requests()[0].Decoded(t)
			assert.Equal(t, choice, body["tool_choice"])
			assert.Equal(t, false, body["parallel_tool_calls"])
		})
	}
	p := scriptedProvider(t, providertest.New(t))
	_, err := p.PeekRequest(CompletionRequest{Tools: providerTestTools(), ToolChoice: "sometimes"})
	assert.ErrorContains(t, err, `tool choice "sometimes"`)
}

func TestProviderWithoutToolsSendsNoToolFields(t *testing.T) {
	cases := map[string]struct {
		supports bool
		tools    []Tool
	}{
		"no tools given":            {supports: true},
		"provider without tools":    {supports: false, tools: providerTestTools()},
		"neither tools nor support": {},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := providertest.New(t, providertest.TextStep("ok"))
			p := scriptedProvider(t, s, func(c *Config) { c.Tools = tc.supports })
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2], Tools: tc.tools, ToolChoice: "required"})
			require.NoError(t, err)
			body := s.Requests()[0].Decoded(t)
			assert.NotContains(t, body, "tools")
			assert.NotContains(t, body, "tool_choice")
			assert.NotContains(t, body, "parallel_tool_calls")
		})
	}
}

func TestPeekRequestEqualsSentBody(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := scriptedProvider(t, s, func(c *Config) {
		c.Defaults = map[string]any{"temperature": 0.7, "top_p": 0.9, "max_tokens": 512, "seed": 7}
		c.ServiceTier = ServiceTierPriority
	})
	req := CompletionRequest{
		Messages: providerTestMessages(), Tools: providerTestTools(), ToolChoice: "none",
		Overrides: map[string]any{"temperature": 0.2, "top_p": nil, "model": "other", "provider": map[string]any{"order": []string{"a", "b"}}},
	}

	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, string(s.Requests()[0].Body), string(peek))
	assert.Zero(t, s.Remaining())
	// The merged options are in what was peeked and sent.
	body := s.Requests()[0].Decoded(t)
	assert.Equal(t, 0.2, body["temperature"])
	assert.NotContains(t, body, "top_p")
	assert.Equal(t, "test-model", body["model"])
	assert.Equal(t, "priority", body["service_tier"])
	assert.Contains(t, string(peek), `"max_tokens":512`)
	assert.Contains(t, string(peek), `"seed":7`)
	assert.Contains(t, string(peek), `"provider":{"order":["a","b"]}`)
}

func TestProviderRetriesAfter429(t *testing.T) {
	s := providertest.New(t,
		providertest.ErrorStep(http.StatusTooManyRequests, "rate_limit_exceeded", "slow down", map[string]string{"Retry-After": "1"}),
		providertest.TextStep("after the wait"),
	)
	p := scriptedProvider(t, s, func(c *Config) { c.Retries = 0 }) // default: 2
	start := time.Now()
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	assert.Equal(t, "after the wait", c.Message.Content)
	assert.Len(t, s.Requests(), 2)
	assert.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond, "Retry-After must be honoured")
}

func TestProviderErrorsAreReadable(t *testing.T) {
	cases := []struct {
		name   string
		step   providertest.Step
		want   string
		status int
	}{
		{
			name:   "429 with retry-after",
			step:   providertest.ErrorStep(http.StatusTooManyRequests, "rate_limit_exceeded", "slow down", map[string]string{"Retry-After": "2"}),
			want:   "provider returned 429 rate_limit_exceeded: slow down (retry after 2s)",
			status: 429,
		},
		{
			name:   "500 with message",
			step:   providertest.ErrorStep(http.StatusInternalServerError, "server_error", "the model is overloaded", nil),
			want:   "provider returned 500 server_error: the model is overloaded",
			status: 500,
		},
		{
			name:   "401 without code",
			step:   providertest.Step{Status: 401, Body: `{"error":{"message":"invalid api key","type":"invalid_request_error"}}`},
			want:   "provider returned 401 invalid_request_error: invalid api key",
			status: 401,
		},
		{
			name:   "502 not JSON",
			step:   providertest.Step{Status: 502, Body: "<html>bad gateway</html>"},
			want:   "provider returned 502: Bad Gateway",
			status: 502,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.New(t, tc.step)
			p := scriptedProvider(t, s) // no retries
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			var pe *Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.status, pe.Status)
			assert.NotContains(t, err.Error(), "sk-test")
		})
	}
}

func TestProviderTimeoutIsReadable(t *testing.T) {
	s := providertest.New(t, providertest.Step{Delay: 5 * time.Second, Reply: &providertest.Reply{}})
	p := scriptedProvider(t, s, func(c *Config) { c.Timeout = 100 * time.Millisecond })
	start := time.Now()
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Equal(t, "provider request timed out after 100ms", err.Error())
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "provider request timed out after 120s", (&TimeoutError{After: DefaultTimeout}).Error())
}

// The client does not retry an attempt that ran out of time: the writer
// waits Timeout, not (Retries+1) × Timeout.
func TestProviderTimeoutIsNotRetried(t *testing.T) {
	slow := providertest.Step{Delay: 5 * time.Second, Reply: &providertest.Reply{}}
	s := providertest.New(t, slow, slow)
	p := scriptedProvider(t, s, func(c *Config) {
		c.Timeout = 100 * time.Millisecond
		c.Retries = 1
	})
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.Equal(t, "provider request timed out after 100ms", err.Error())
	assert.Len(t, s.Requests(), 1)
}

func TestProviderCancelled(t *testing.T) {
	s := providertest.New(t, providertest.Step{Delay: 5 * time.Second, Reply: &providertest.Reply{}})
	p := scriptedProvider(t, s)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := p.Complete(ctx, CompletionRequest{Messages: providerTestMessages()[:2]})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "cancelled")
}

func TestProviderIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/never")
	t.Setenv("OPENAI_ORG_ID", "org-from-environment")
	t.Setenv("OPENAI_PROJECT_ID", "proj-from-environment")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: yes")

	t.Run("no key", func(t *testing.T) {
		s := providertest.New(t, providertest.TextStep("ok"))
		p := scriptedProvider(t, s, func(c *Config) { c.APIKey = "" })
		_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
		require.NoError(t, err, "the request must reach the configured base URL, not OPENAI_BASE_URL")
		h := s.Requests()[0].Header
		assert.Empty(t, h.Get("Authorization"))
		assert.Empty(t, h.Get("OpenAI-Organization"))
		assert.Empty(t, h.Get("OpenAI-Project"))
		assert.Empty(t, h.Get("X-Leak"))
		for name, values := range h {
			for _, v := range values {
				assert.NotContains(t, v, "environment", "header %s", name)
			}
		}
	})
	t.Run("explicit key", func(t *testing.T) {
		s := providertest.New(t, providertest.TextStep("ok"))
		p := scriptedProvider(t, s, func(c *Config) { c.APIKey = "sk-explicit" })
		_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
		require.NoError(t, err)
		assert.Equal(t, []string{"Bearer sk-explicit"}, s.Requests()[0].Header.Values("Authorization"))
	})
}

// roundTripFunc lets a test see requests without a network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestProviderDefaultBaseURL(t *testing.T) {
	var got string
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.URL.String()
		return &http.Response{
			StatusCode: 200,
			Header:     http.Header{"Content-Type": []string{"application/json"}},
			Body:       io.NopCloser(bytes.NewBufferString(providertest.CompletionBody(map[string]any{"role": "assistant", "content": "hi"}, "stop"))),
			Request:    r,
		}, nil
	})}
	p, err := New(Config{Model: "gpt-test", APIKey: "sk-x", HTTPClient: client})
	require.NoError(t, err)
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "hi", c.Message.Content)
	assert.Equal(t, "https://api.openai.com/v1/chat/completions", got)
}

func TestNewProviderValidates(t *testing.T) {
	_, err := New(Config{})
	assert.ErrorContains(t, err, "model is required")
	_, err = New(Config{Model: "m", BaseURL: "localhost:11434"})
	assert.ErrorContains(t, err, "must be an http or https URL")
	_, err = New(Config{Model: "m", Quirks: []Quirk{"sparkles"}})
	assert.ErrorContains(t, err, `unknown quirk "sparkles"`)
	p, err := New(Config{Model: "m", Tools: true})
	require.NoError(t, err)
	assert.Equal(t, "m", p.Model())
	assert.True(t, p.SupportsTools())
}

func TestProviderRejectsBadMessages(t *testing.T) {
	p := scriptedProvider(t, providertest.New(t))
	_, err := p.PeekRequest(CompletionRequest{Messages: []Message{{Role: "narrator", Content: "x"}}})
	assert.ErrorContains(t, err, `unknown role "narrator"`)
	_, err = p.PeekRequest(CompletionRequest{Messages: []Message{{Role: RoleTool, Content: "x"}}})
	assert.ErrorContains(t, err, "without tool call id")
}

func TestProviderDecodesResponses(t *testing.T) {
	cases := []struct {
		name    string
		message string
		want    Message
		err     string
	}{
		{
			name:    "content parts",
			message: `{"role":"assistant","content":[{"type":"text","text":"one "},{"type":"text","text":"two"}]}`,
			want:    Message{Role: RoleAssistant, Content: "one two"},
		},
		{
			name:    "null content with calls",
			message: `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]}`,
			want:    Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "t", Arguments: "{}"}}},
		},
		{
			name:    "arguments object without quirk",
			message: `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":{"a":1}}}]}`,
			err:     "arguments are not a JSON string (quirk arguments_object may help)",
		},
		{
			name:    "tool_calls object without quirk",
			message: `{"role":"assistant","tool_calls":{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}}`,
			err:     "tool_calls is not an array of tool calls (quirk tool_calls_object may help)",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.New(t, providertest.Step{Body: providertest.RawMessageBody(tc.message)})
			p := scriptedProvider(t, s)
			c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Message)
		})
	}

	for name, body := range map[string]string{
		"no choices": `{"id":"x","choices":[]}`,
		"not JSON":   `{"id":`,
	} {
		t.Run(name, func(t *testing.T) {
			p := scriptedProvider(t, providertest.New(t, providertest.Step{Body: body}))
			_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "provider"), err.Error())
			assert.False(t, errors.Is(err, context.Canceled))
		})
	}
}
