package llm

import (
	"errors"
	"testing"
)

func TestResolveProviderKeepsKeysWithTheirEndpoint(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "LOCAL_KEY": "local"}
	getenv := func(k string) string { return env[k] }

	cfg, _, err := ResolveProvider(t.Context(), ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m"}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "" {
		t.Fatalf("a local server gets no key unless named: %q, %v", cfg.APIKey, err)
	}
	cfg, _, err = ResolveProvider(t.Context(), ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m", APIKeyEnv: "LOCAL_KEY"}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "local" {
		t.Fatalf("named key: %q, %v", cfg.APIKey, err)
	}
	cfg, _, err = ResolveProvider(t.Context(), ProviderSettings{}, KeyFinder{Getenv: getenv}, true)
	if err != nil || cfg.APIKey != "sk-openai" || cfg.Model == "" || !cfg.Tools {
		t.Fatalf("OpenAI's own endpoint: %+v, %v", cfg, err)
	}
	_, _, err = ResolveProvider(t.Context(), ProviderSettings{}, KeyFinder{Getenv: func(string) string { return "" }}, true)
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("no provider: %v", err)
	}
	if _, _, err = ResolveProvider(t.Context(), ProviderSettings{}, KeyFinder{Getenv: func(string) string { return "" }}, false); err != nil {
		t.Fatalf("a peek needs no key: %v", err)
	}
	if _, _, err = ResolveProvider(t.Context(), ProviderSettings{BaseURL: "http://x/v1"}, KeyFinder{Getenv: getenv}, true); !errors.Is(err, ErrNoModel) {
		t.Fatalf("no model: %v", err)
	}
	cfg, _, _ = ResolveProvider(t.Context(), ProviderSettings{BaseURL: "http://localhost:11434/v1", Model: "llama"}, KeyFinder{Getenv: getenv}, true)
	if cfg.Tools {
		t.Fatal("Ollama defaults to inline context")
	}
}
