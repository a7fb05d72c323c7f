package llm

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/provider"
)

func TestResolveProviderKeepsKeysWithTheirEndpoint(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "LOCAL_KEY": "local"}
	getenv := func(k string) string { return env[k] }

	cfg, _, err := ResolveProvider(t.Context(), endpoint.ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m"}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "" {
		t.Fatalf("a local server gets no key unless named: %q, %v", cfg.APIKey, err)
	}
	cfg, _, err = ResolveProvider(t.Context(), endpoint.ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m", APIKeyEnv: "LOCAL_KEY"}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "local" {
		t.Fatalf("named key: %q, %v", cfg.APIKey, err)
	}
	cfg, _, err = ResolveProvider(t.Context(), endpoint.ProviderSettings{}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "sk-openai" || cfg.Model == "" || !cfg.Tools {
		t.Fatalf("OpenAI's own endpoint: %+v, %v", cfg, err)
	}
	_, _, err = ResolveProvider(t.Context(), endpoint.ProviderSettings{}, KeyFinder{Getenv: func(string) string { return "" }}, true)
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("no provider: %v", err)
	}
	if _, _, err = ResolveProvider(t.Context(), endpoint.ProviderSettings{}, KeyFinder{Getenv: func(string) string { return "" }}, false); err != nil {
		t.Fatalf("a peek needs no key: %v", err)
	}
	if _, _, err = ResolveProvider(t.Context(), endpoint.ProviderSettings{BaseURL: "http://x/v1"}, KeyFinder{Getenv: getenv}, true); !errors.Is(err, ErrNoModel) {
		t.Fatalf("no model: %v", err)
	}
	cfg, _, _ = ResolveProvider(t.Context(), endpoint.ProviderSettings{BaseURL: "http://localhost:11434/v1", Model: "llama"}, KeyFinder{Getenv: getenv}, true)
	if cfg.Tools {
		t.Fatal("Ollama defaults to inline context")
	}
}

func TestNoKeyGoesToAServerAnUntrustedBookNames(t *testing.T) {
	env := map[string]string{"MY_KEY": "mine", "OPENAI_API_KEY": "sk-openai"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name     string
		ps       endpoint.ProviderSettings
		key      string
		withheld string
	}{
		{name: "the writer's key to the book's server", ps: endpoint.ProviderSettings{BaseURL: "http://evil/v1", Model: "m", APIKeyEnv: "MY_KEY", UntrustedBaseURL: true}, withheld: "MY_KEY"},
		{name: "OpenAI's key to OpenAI named by the book", ps: endpoint.ProviderSettings{BaseURL: provider.DefaultBaseURL, UntrustedBaseURL: true}, key: "sk-openai"},
		{name: "the writer's own server", ps: endpoint.ProviderSettings{BaseURL: "http://mine/v1", Model: "m", APIKeyEnv: "MY_KEY"}, key: "mine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, err := ResolveProvider(t.Context(), tt.ps, KeyFinder{Getenv: getenv}, true)
			require.NoError(t, err)
			assert.Equal(t, tt.key, cfg.APIKey)
			assert.Equal(t, tt.withheld, WithheldKey(tt.ps))
		})
	}
	user := endpoint.ProviderSettings{BaseURL: "http://evil/v1", APIKeyEnv: "MY_KEY"}
	assert.False(t, user.Under(endpoint.ProviderSettings{BaseURL: "http://evil/v1", UntrustedBaseURL: true}).UntrustedBaseURL,
		"a server the writer's own config names takes the writer's key")
}

// TestQwenGetsItsQuirksByDefault: a Qwen model, whoever serves it, reads
// the tool calls it writes as text (content_tool_call_tags) or in its
// reasoning (reasoning_tool_calls) without the writer asking; the
// writer's quirks add to those, and "none" leaves them out.
func TestQwenGetsItsQuirksByDefault(t *testing.T) {
	qwen := []provider.Quirk{provider.QuirkContentToolCallTags, provider.QuirkReasoningToolCalls}
	tests := []struct {
		name, model string
		quirks      []string
		want        []provider.Quirk
	}{
		{name: "vLLM", model: "Qwen/Qwen3-8B", want: qwen},
		{name: "Ollama", model: "qwen3:8b", want: qwen},
		{name: "Ollama's QwQ", model: "qwq:32b", want: qwen},
		{name: "DashScope", model: "qwen-plus", want: qwen},
		{name: "OpenRouter", model: "qwen/qwen3-coder", want: qwen},
		{name: "another model", model: "deepseek-v4-flash"},
		{name: "another model, a quirk asked for", model: "llama3.1", quirks: []string{"function_call"}, want: []provider.Quirk{provider.QuirkFunctionCall}},
		{name: "Qwen, a quirk added", model: "qwen3:8b", quirks: []string{"blank_arguments"}, want: append(qwen, provider.QuirkBlankArguments)},
		{name: "Qwen, none", model: "qwen3:8b", quirks: []string{"none"}},
		{name: "Qwen, none but one", model: "qwen3:8b", quirks: []string{"none, function_call"}, want: []provider.Quirk{provider.QuirkFunctionCall}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := endpoint.ProviderSettings{BaseURL: "http://localhost:8000/v1", Model: tt.model, Quirks: tt.quirks}
			cfg, _, err := ResolveProvider(t.Context(), ps, KeyFinder{Getenv: func(string) string { return "" }}, true)
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.Quirks)
		})
	}
	_, _, err := ResolveProvider(t.Context(), endpoint.ProviderSettings{BaseURL: "http://localhost:8000/v1", Model: "qwen3:8b", Quirks: []string{"sparkles"}},
		KeyFinder{Getenv: func(string) string { return "" }}, true)
	assert.ErrorContains(t, err, `unknown quirk "sparkles"`)
}
