package server

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"

	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/server/wire"
)

// TestAskKeychainKeyGoesOnlyToAServerTheWriterChose: the language server
// sends the key stored for the provider the editor's settings name, and
// none to a server the book names while the writer has not trusted it.
func TestAskKeychainKeyGoesOnlyToAServerTheWriterChose(t *testing.T) {
	keyring.MockInit()
	t.Setenv(keys.EditorKeyEnv, "")
	mine := newFakeLLM(t, answerStep(t, "From my server."))
	theirs := newFakeLLM(t, answerStep(t, "From the book's server."))
	store := &keys.Store{Keychain: keys.OSKeychain{}, File: filepath.Join(t.TempDir(), "keys.json")}
	for base, key := range map[string]string{mine.baseURL(): "sk-mine-secret", theirs.baseURL(): "sk-their-secret"} {
		_, err := store.Set(t.Context(), base, key, false)
		require.NoError(t, err)
	}
	t.Cleanup(func() {
		// t.Context is done by now.
		for _, base := range []string{mine.baseURL(), theirs.baseURL()} {
			_, _ = store.Remove(context.Background(), base)
		}
	})
	opts := Options{Keys: store, TrustFile: filepath.Join(t.TempDir(), "trust.json")}

	c := advisorClientWith(t, opts, writeProject(t, bookFiles),
		map[string]any{"provider": map[string]any{"baseUrl": mine.baseURL() + "/", "model": "m"}})
	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"message": "Hello?"}))
	assert.Equal(t, "From my server.", r.Answer)
	require.Len(t, mine.auth, 1)
	assert.Equal(t, "Bearer sk-mine-secret", mine.auth[0], "the editor named the server: its stored key goes with it")

	files := maps.Clone(bookFiles)
	files["quire.yaml"] = "provider:\n  base_url: " + theirs.baseURL() + "\n  model: theirs\n"
	c = advisorClientWith(t, opts, writeProject(t, files), map[string]any{})
	r = decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"message": "Hello?"}))
	assert.Equal(t, "From the book's server.", r.Answer)
	require.Len(t, theirs.auth, 1)
	assert.Empty(t, theirs.auth[0], "a server an untrusted book names gets no stored key")
	assert.Len(t, mine.auth, 1)
}
