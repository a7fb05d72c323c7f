package llm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/quire-ink/quire/llm/provider"
)

// ErrNoProvider says no provider is configured: no base URL, and no key
// for OpenAI's own endpoint.
var ErrNoProvider = errors.New("no provider is configured")

// ErrNoModel says a server other than OpenAI's has no model named.
var ErrNoModel = errors.New("name the model")

// ResolveProvider turns provider settings (quire.yaml's section, with any
// client overrides already merged in) into a provider configuration.
// getenv reads the environment. The key comes only from the variable
// ps.APIKeyEnv names, or OPENAI_API_KEY for OpenAI's own endpoint, so a
// key is never sent to a server it does not belong to. With needKey
// false (a peek), a missing key is no error.
func ResolveProvider(ps ProviderSettings, getenv func(string) string, needKey bool) (provider.Config, error) {
	cfg := provider.Config{BaseURL: ps.BaseURL, Model: ps.Model, API: ps.API,
		ServiceTier: ps.ServiceTier, FlexFallback: ps.FlexFallback != nil && *ps.FlexFallback, Defaults: ps.Options,
		Stream: ps.Stream != nil && *ps.Stream}
	d, err := ps.TimeoutDuration()
	if err != nil {
		return cfg, err
	}
	cfg.Timeout = d
	if r := ps.Retries; r != nil {
		// In settings, 0 means no retries; the library reads 0 as its default.
		cfg.Retries = *r
		if *r == 0 {
			cfg.Retries = -1
		}
	}
	official := isOpenAI(ps.BaseURL)
	keyEnv := ps.APIKeyEnv
	if keyEnv == "" && official {
		keyEnv = "OPENAI_API_KEY"
	}
	if WithheldKey(ps) != "" {
		keyEnv = ""
	}
	if keyEnv != "" {
		cfg.APIKey = getenv(keyEnv)
		if cfg.APIKey == "" && needKey {
			if ps.BaseURL == "" && ps.APIKeyEnv == "" {
				return cfg, fmt.Errorf("%w: set provider.base_url (e.g. http://localhost:11434/v1 for Ollama) and provider.model, or set OPENAI_API_KEY for OpenAI", ErrNoProvider)
			}
			return cfg, fmt.Errorf("%w: no API key, %s is not set (name the variable holding the key with provider.api_key_env)", ErrNoProvider, keyEnv)
		}
	}
	if cfg.Model == "" {
		if !official {
			return cfg, fmt.Errorf("%w with provider.model", ErrNoModel)
		}
		cfg.Model = "gpt-4.1-mini"
	}
	switch {
	case ps.Tools != nil:
		cfg.Tools = *ps.Tools
	default:
		cfg.Tools = !LooksLikeOllama(ps.BaseURL)
	}
	if len(ps.Quirks) > 0 {
		q, err := provider.ParseQuirks(strings.Join(ps.Quirks, ","))
		if err != nil {
			return cfg, err
		}
		cfg.Quirks = q
	}
	return cfg, nil
}

// WithheldKey is the key variable quire does not send because the server
// it would go to was named by a book the writer has not trusted (a key
// goes only to a server a trusted source configured); "" when none is
// withheld.
func WithheldKey(ps ProviderSettings) string {
	if !ps.UntrustedBaseURL || isOpenAI(ps.BaseURL) {
		return ""
	}
	return ps.APIKeyEnv
}

// LooksLikeOllama guesses from its URL whether base is an Ollama server,
// which calls tools poorly.
func LooksLikeOllama(base string) bool {
	u, err := url.Parse(base)
	return err == nil && (u.Port() == "11434" || strings.Contains(u.Host, "ollama"))
}
