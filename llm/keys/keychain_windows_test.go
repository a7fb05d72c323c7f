package keys

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWindowsCredentialManager stores, finds and removes a key in the
// real Windows Credential Manager (under Wine here), under an account of
// the test's own that it removes again.
func TestWindowsCredentialManager(t *testing.T) {
	s := &Store{Keychain: OSKeychain{}}
	base := fmt.Sprintf("http://127.0.0.1:1/quire-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { _, _ = s.Remove(context.Background(), base) })

	src, err := s.Set(t.Context(), base, "sk-wincred-test", false)
	require.NoError(t, err)
	assert.Equal(t, Source{Kind: Keychain}, src)
	key, src, err := s.Get(t.Context(), base+"/")
	require.NoError(t, err)
	assert.Equal(t, "sk-wincred-test", key)
	assert.Equal(t, Source{Kind: Keychain}, src)
	_, _, err = s.Get(t.Context(), base+"/other")
	require.ErrorIs(t, err, ErrNotFound, "a key is found only for its own provider")

	removed, err := s.Remove(t.Context(), base)
	require.NoError(t, err)
	assert.Equal(t, []Source{{Kind: Keychain}}, removed)
	_, _, err = s.Get(t.Context(), base)
	require.ErrorIs(t, err, ErrNotFound)
}
