package llm

import (
	"context"
	"errors"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
)

// KeyFinder is where quire looks for a provider's key, in this order:
// the key the editor handed quire (keys.EditorKeyEnv, for the provider
// keys.EditorBaseURLEnv names), the variable provider.api_key_env names
// (OPENAI_API_KEY for OpenAI's own endpoint), the keychain entry (or key
// file entry) stored for the provider's base URL.
type KeyFinder struct {
	Getenv func(string) string
	// Stored is the keychain and key file; nil looks in neither.
	Stored *keys.Store
}

// FoundKey is the outcome of a search for a key. Only Key holds the key;
// every other field may be shown to the writer.
type FoundKey struct {
	Key    string
	Source keys.Source
	// Withheld is a key quire has and does not send: the server was
	// named by a book the writer has not trusted (see WithheldKey).
	Withheld keys.Source
	// Stored is why no stored key was found: keys.ErrNotFound, or an
	// error wrapping keys.ErrNoKeychain; nil when none was looked for.
	Stored error
}

// Find looks for the key of the provider ps resolves to. Stored keys
// are looked up only when stored is true: a peek sends nothing and
// needs no keychain.
func (k KeyFinder) Find(ctx context.Context, ps endpoint.ProviderSettings, stored bool) FoundKey {
	var f FoundKey
	getenv := k.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	official := trust.IsOpenAI(ps.BaseURL)
	// A base URL that is no http(s) URL has no stored or editor key; the
	// provider reports the URL itself.
	base, baseErr := keys.Normalize(ps.BaseURL)
	store := k.Stored
	if !stored || baseErr != nil {
		store = nil
	}
	if sendsNoKey(ps) {
		// A key goes only to a server a trusted source named: whatever
		// quire holds for this one stays here, and is named to the
		// writer so that the missing key is no mystery.
		if ps.APIKeyEnv != "" {
			f.Withheld = keys.Source{Kind: keys.Variable, Name: ps.APIKeyEnv}
		} else if store != nil {
			if _, src, err := store.Get(ctx, base); err == nil {
				f.Withheld = src
			}
		}
		return f
	}
	if key := getenv(keys.EditorKeyEnv); key != "" && baseErr == nil {
		if forURL, err := keys.Normalize(getenv(keys.EditorBaseURLEnv)); err == nil && forURL == base {
			f.Key, f.Source = key, keys.Source{Kind: keys.Editor}
			return f
		}
	}
	keyEnv := ps.APIKeyEnv
	if keyEnv == "" && official {
		keyEnv = "OPENAI_API_KEY"
	}
	if keyEnv != "" {
		if key := getenv(keyEnv); key != "" {
			f.Key, f.Source = key, keys.Source{Kind: keys.Variable, Name: keyEnv}
			return f
		}
	}
	if store != nil {
		key, src, err := store.Get(ctx, base)
		if err == nil {
			f.Key, f.Source = key, src
			return f
		}
		f.Stored = err
	}
	return f
}

// storedNote is what a message about a missing key adds about the
// keychain: that none answered, and why.
func (f FoundKey) storedNote() string {
	if f.Stored != nil && !errors.Is(f.Stored, keys.ErrNotFound) {
		return " (" + f.Stored.Error() + ")"
	}
	return ""
}
