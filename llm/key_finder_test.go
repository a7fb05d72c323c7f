package llm

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"

	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
)

// TestKeyFinderOrder runs the search for a key against go-keyring's mock
// keychain: the editor's key, then the variable, then the keychain, each
// only for its own provider, and nothing to a server an untrusted book
// named.
func TestKeyFinderOrder(t *testing.T) {
	keyring.MockInit()
	store := &keys.Store{Keychain: keys.OSKeychain{}, File: filepath.Join(t.TempDir(), "keys.json")}
	for base, key := range map[string]string{
		"https://api.openai.com/v1":    "sk-chain-openai",
		"https://openrouter.ai/api/v1": "sk-chain-router",
		"http://evil.example/v1":       "sk-chain-evil",
	} {
		_, err := store.Set(t.Context(), base, key, false)
		require.NoError(t, err)
	}
	router := "https://openrouter.ai/api/v1/"
	tests := []struct {
		name     string
		ps       endpoint.ProviderSettings
		env      map[string]string
		peek     bool
		key      string
		source   string
		withheld string
	}{
		{name: "the editor's key first", ps: endpoint.ProviderSettings{BaseURL: router, APIKeyEnv: "ROUTER_KEY"},
			env: map[string]string{"QUIRE_EDITOR_API_KEY": "sk-editor", "QUIRE_EDITOR_API_BASE_URL": "https://OpenRouter.ai/api/v1", "ROUTER_KEY": "sk-var"},
			key: "sk-editor", source: "from your editor"},
		{name: "the editor's key for another provider stays out", ps: endpoint.ProviderSettings{BaseURL: router, APIKeyEnv: "ROUTER_KEY"},
			env: map[string]string{"QUIRE_EDITOR_API_KEY": "sk-editor", "ROUTER_KEY": "sk-var"},
			key: "sk-var", source: "from the ROUTER_KEY variable"},
		{name: "the editor's key with no provider named is OpenAI's", ps: endpoint.ProviderSettings{},
			env: map[string]string{"QUIRE_EDITOR_API_KEY": "sk-editor", "OPENAI_API_KEY": "sk-var"},
			key: "sk-editor", source: "from your editor"},
		{name: "the variable before the keychain", ps: endpoint.ProviderSettings{},
			env: map[string]string{"OPENAI_API_KEY": "sk-var"}, key: "sk-var", source: "from the OPENAI_API_KEY variable"},
		{name: "the keychain when no variable holds one", ps: endpoint.ProviderSettings{BaseURL: router, APIKeyEnv: "ROUTER_KEY"},
			key: "sk-chain-router", source: "from your keychain"},
		{name: "the keychain needs no api_key_env", ps: endpoint.ProviderSettings{BaseURL: router},
			key: "sk-chain-router", source: "from your keychain"},
		{name: "OPENAI_API_KEY never goes to another provider", ps: endpoint.ProviderSettings{BaseURL: "http://localhost:8080/v1"},
			env: map[string]string{"OPENAI_API_KEY": "sk-var"}},
		{name: "no provider's keychain key goes to another", ps: endpoint.ProviderSettings{BaseURL: "https://openrouter.ai/v1"}},
		{name: "a peek asks no keychain", ps: endpoint.ProviderSettings{BaseURL: router}, peek: true},
		{name: "an untrusted book's server gets not its own keychain key", ps: endpoint.ProviderSettings{BaseURL: "http://evil.example/v1", UntrustedBaseURL: true},
			withheld: "from your keychain"},
		{name: "an untrusted book's server gets not the writer's variable", ps: endpoint.ProviderSettings{BaseURL: "http://evil.example/v1", APIKeyEnv: "OPENAI_API_KEY", UntrustedBaseURL: true},
			env: map[string]string{"OPENAI_API_KEY": "sk-var"}, withheld: "from the OPENAI_API_KEY variable"},
		{name: "an untrusted book's server gets not the editor's key", ps: endpoint.ProviderSettings{BaseURL: "http://evil.example/v1", UntrustedBaseURL: true},
			env: map[string]string{"QUIRE_EDITOR_API_KEY": "sk-editor", "QUIRE_EDITOR_API_BASE_URL": "http://evil.example/v1"}, withheld: "from your keychain"},
		{name: "a trusted book's server gets its keychain key", ps: endpoint.ProviderSettings{BaseURL: "http://evil.example/v1"},
			key: "sk-chain-evil", source: "from your keychain"},
		{name: "OpenAI named by an untrusted book is still OpenAI", ps: endpoint.ProviderSettings{BaseURL: "https://api.openai.com/v1", UntrustedBaseURL: true},
			key: "sk-chain-openai", source: "from your keychain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := KeyFinder{Getenv: func(v string) string { return tt.env[v] }, Stored: store}
			f := k.Find(t.Context(), tt.ps, !tt.peek)
			assert.Equal(t, tt.key, f.Key)
			if tt.source != "" {
				assert.Equal(t, tt.source, f.Source.String())
			} else {
				assert.Equal(t, keys.None, f.Source.Kind)
			}
			if tt.withheld != "" {
				assert.Equal(t, tt.withheld, f.Withheld.String())
			} else {
				assert.Equal(t, keys.None, f.Withheld.Kind)
			}
		})
	}
}

// TestResolveProviderSaysWhereToPutAKey: with no key anywhere, the error
// names the variable, the keychain and the command that stores a key;
// a keychain that did not answer is said too.
func TestResolveProviderSaysWhereToPutAKey(t *testing.T) {
	noEnv := func(string) string { return "" }
	tests := []struct {
		name  string
		ps    endpoint.ProviderSettings
		chain error
		says  []string
		never []string
	}{
		{name: "OpenAI by default", ps: endpoint.ProviderSettings{},
			says: []string{"store it in your keychain with quire key set openai", "or set OPENAI_API_KEY", "quire: Set API Key"}},
		{name: "a named variable", ps: endpoint.ProviderSettings{BaseURL: "https://openrouter.ai/api/v1/", Model: "m", APIKeyEnv: "ROUTER_KEY"},
			says: []string{"no API key for https://openrouter.ai/api/v1", "ROUTER_KEY is not set and no key is stored for it",
				"quire key set openrouter"}},
		{name: "no keychain", ps: endpoint.ProviderSettings{BaseURL: "https://openrouter.ai/api/v1", Model: "m", APIKeyEnv: "ROUTER_KEY"},
			chain: errors.New("dbus: couldn't determine address of session bus"),
			says:  []string{"(no keychain answered on this computer)", "set ROUTER_KEY in your shell", "quire key set --file openrouter", "VS Code's secret storage"},
			never: []string{"store it in your keychain"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.chain != nil {
				keyring.MockInitWithError(tt.chain)
			} else {
				keyring.MockInit()
			}
			t.Cleanup(keyring.MockInit)
			k := KeyFinder{Getenv: noEnv, Stored: &keys.Store{Keychain: keys.OSKeychain{}}}
			_, _, err := ResolveProvider(t.Context(), tt.ps, k, true)
			require.ErrorIs(t, err, ErrNoProvider)
			for _, s := range tt.says {
				assert.ErrorContains(t, err, s)
			}
			for _, s := range tt.never {
				assert.NotContains(t, err.Error(), s, "advice that cannot work here")
			}
			assert.NotContains(t, err.Error(), "dbus", "the system's words are not the writer's")
		})
	}
}
