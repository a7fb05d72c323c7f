package provider

import (
	"testing"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// scriptedProvider is a provider with tools on, pointed at s.
func scriptedProvider(t testing.TB, s *providertest.Server, edit ...func(*Config)) *Provider {
	t.Helper()
	cfg := Config{BaseURL: s.BaseURL(), Model: "test-model", APIKey: "sk-test", Tools: true, Retries: -1}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("NewProvider: %v", err)
	}
	return p
}
