// Package clienttest builds the real provider client pointed at the
// fake provider (providertest), for the tests of the packages above the
// client: the tool loop, provenance and the advisor. It is a package of
// its own because it imports the client, which providertest must not:
// the client's own tests import providertest.
package clienttest

import (
	"testing"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// Scripted is a chat-completions provider with tools on, pointed at s;
// each edit adjusts the configuration before the client is built.
func Scripted(t testing.TB, s *providertest.Server, edit ...func(*provider.Config)) *provider.Provider {
	t.Helper()
	cfg := provider.Config{BaseURL: s.BaseURL(), Model: "test-model", APIKey: "sk-test", Tools: true, Retries: -1}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := provider.New(cfg)
	if err != nil {
		t.Fatalf("building the provider: %v", err)
	}
	return p
}

// Responses is Scripted speaking the Responses API.
func Responses(t testing.TB, s *providertest.Server, edit ...func(*provider.Config)) *provider.Provider {
	t.Helper()
	return Scripted(t, s, append([]func(*provider.Config){func(c *provider.Config) { c.API = provider.APIResponses }}, edit...)...)
}
