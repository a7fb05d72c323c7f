package llm

import (
	"errors"
	"testing"
)

func TestResolveProviderKeepsKeysWithTheirEndpoint(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "LOCAL_KEY": "local"}
	getenv := func(k string) string { return env[k] }

	cfg, err := ResolveProvider(ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m"}, getenv, true)
	if err != nil || cfg.APIKey != "" {
		t.Fatalf("a local server gets no key unless named: %q, %v", cfg.APIKey, err)
	}
	cfg, err = ResolveProvider(ProviderSettings{BaseURL: "http://localhost:8080/v1", Model: "m", APIKeyEnv: "LOCAL_KEY"}, getenv, true)
	if err != nil || cfg.APIKey != "local" {
		t.Fatalf("named key: %q, %v", cfg.APIKey, err)
	}
	cfg, err = ResolveProvider(ProviderSettings{}, getenv, true)
	if err != nil || cfg.APIKey != "sk-openai" || cfg.Model == "" || !cfg.Tools {
		t.Fatalf("OpenAI's own endpoint: %+v, %v", cfg, err)
	}
	_, err = ResolveProvider(ProviderSettings{}, func(string) string { return "" }, true)
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("no provider: %v", err)
	}
	if _, err = ResolveProvider(ProviderSettings{}, func(string) string { return "" }, false); err != nil {
		t.Fatalf("a peek needs no key: %v", err)
	}
	if _, err = ResolveProvider(ProviderSettings{BaseURL: "http://x/v1"}, getenv, true); !errors.Is(err, ErrNoModel) {
		t.Fatalf("no model: %v", err)
	}
	cfg, _ = ResolveProvider(ProviderSettings{BaseURL: "http://localhost:11434/v1", Model: "llama"}, getenv, true)
	if cfg.Tools {
		t.Fatal("Ollama defaults to inline context")
	}
}
