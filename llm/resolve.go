package llm

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/provider"
)

// ErrNoProvider says no provider is configured: no base URL, and no key
// for OpenAI's own endpoint.
var ErrNoProvider = errors.New("no provider is configured")

// ErrNoModel says a server other than OpenAI's has no model named.
var ErrNoModel = errors.New("name the model")

// ResolveProvider turns provider settings (quire.yaml's section, with any
// client overrides already merged in) into a provider configuration.
// The key is the one k finds for the provider's own base URL (see
// KeyFinder), so a key is never sent to a server it does not belong to,
// nor to one an untrusted book named. With needKey false (a peek), a
// missing key is no error, and no keychain is asked. found says where
// the key came from, never holding it.
func ResolveProvider(ctx context.Context, ps endpoint.ProviderSettings, k KeyFinder, needKey bool) (cfg provider.Config, found FoundKey, err error) {
	cfg = provider.Config{BaseURL: ps.BaseURL, Model: ps.Model, API: ps.API,
		ServiceTier: ps.ServiceTier, FlexFallback: ps.FlexFallback != nil && *ps.FlexFallback, Defaults: ps.Options,
		Stream: ps.Stream != nil && *ps.Stream}
	d, err := ps.TimeoutDuration()
	if err != nil {
		return cfg, found, err
	}
	cfg.Timeout = d
	if r := ps.Retries; r != nil {
		// In settings, 0 means no retries; the library reads 0 as its default.
		cfg.Retries = *r
		if *r == 0 {
			cfg.Retries = -1
		}
	}
	official := trust.IsOpenAI(ps.BaseURL)
	found = k.Find(ctx, ps, needKey)
	cfg.APIKey = found.Key
	if cfg.APIKey == "" && needKey && found.Withheld.Kind == keys.None {
		switch {
		case !ps.Named():
			openAI, _ := keys.Normalize("")
			return cfg, found, fmt.Errorf("%w: set provider.base_url (e.g. http://localhost:11434/v1 for Ollama) and provider.model, or give quire your OpenAI key%s: %s", ErrNoProvider, found.storedNote(), keys.Advice(openAI, "OPENAI_API_KEY", found.Stored))
		case ps.APIKeyEnv != "" || official:
			keyEnv := ps.APIKeyEnv
			if keyEnv == "" {
				keyEnv = "OPENAI_API_KEY"
			}
			at, _ := keys.Normalize(ps.BaseURL)
			return cfg, found, fmt.Errorf("%w: no API key for %s: %s is not set and no key is stored for it%s; %s", ErrNoProvider, at, keyEnv, found.storedNote(), keys.Advice(at, keyEnv, found.Stored))
		}
	}
	if cfg.Model == "" {
		if !official {
			return cfg, found, fmt.Errorf("%w with provider.model", ErrNoModel)
		}
		cfg.Model = "gpt-4.1-mini"
	}
	switch {
	case ps.Tools != nil:
		cfg.Tools = *ps.Tools
	default:
		cfg.Tools = !LooksLikeOllama(ps.BaseURL)
	}
	// The model's own quirks, and the writer's ("none" leaves out the
	// model's).
	q, err := provider.QuirksFor(cfg.Model, ps.Quirks...)
	if err != nil {
		return cfg, found, err
	}
	cfg.Quirks = q
	return cfg, found, nil
}

// WithheldKey is the key variable quire does not send because the server
// it would go to was named by a book the writer has not trusted (a key
// goes only to a server a trusted source configured); "" when none is
// withheld.
func WithheldKey(ps endpoint.ProviderSettings) string {
	if !sendsNoKey(ps) {
		return ""
	}
	return ps.APIKeyEnv
}

// sendsNoKey says ps's server was named by a book the writer has not
// trusted: no key goes there, from any source (OpenAI's own endpoint
// excepted, where the writer's OpenAI key goes anyway).
func sendsNoKey(ps endpoint.ProviderSettings) bool {
	return ps.UntrustedBaseURL && !trust.IsOpenAI(ps.BaseURL)
}

// LooksLikeOllama guesses from its URL whether base is an Ollama server,
// which calls tools poorly.
func LooksLikeOllama(base string) bool {
	u, err := url.Parse(base)
	return err == nil && (u.Port() == "11434" || strings.Contains(u.Host, "ollama"))
}
