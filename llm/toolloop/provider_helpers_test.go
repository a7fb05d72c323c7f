package toolloop

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// scriptedProvider is a provider with tools on, pointed at s.
func scriptedProvider(t testing.TB, s *providertest.Server, edit ...func(*provider.Config)) *provider.Provider {
	t.Helper()
	cfg := provider.Config{BaseURL: s.BaseURL(), Model: "test-model", APIKey: "sk-test", Tools: true, Retries: -1}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := provider.New(cfg)
	if err != nil {
		t.Fatalf("NewProvider: %v", err)
	}
	return p
}

// responsesProvider is a Responses API provider with tools on, pointed at s.
func responsesProvider(t testing.TB, s *providertest.Server, edit ...func(*provider.Config)) *provider.Provider {
	t.Helper()
	return scriptedProvider(t, s, append([]func(*provider.Config){func(c *provider.Config) { c.API = provider.APIResponses }}, edit...)...)
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
