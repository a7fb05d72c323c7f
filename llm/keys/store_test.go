package keys

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "", want: "https://api.openai.com/v1"},
		{in: "https://api.openai.com/v1/", want: "https://api.openai.com/v1"},
		{in: "HTTPS://API.OpenAI.com:443/v1", want: "https://api.openai.com/v1"},
		{in: "http://localhost:11434/v1", want: "http://localhost:11434/v1"},
		{in: "http://localhost:80/v1", want: "http://localhost/v1"},
		{in: "https://user:pw@openrouter.ai/api/v1?x=1#frag", want: "https://openrouter.ai/api/v1"},
		{in: "http://[::1]:8080/v1", want: "http://[::1]:8080/v1"},
		{in: "https://api.deepseek.com", want: "https://api.deepseek.com"},
		{in: "ftp://example.com/v1", bad: true},
		{in: "localhost:11434/v1", bad: true},
		{in: "https:///v1", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if tt.bad {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestProviderURL(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "openai", want: "https://api.openai.com/v1"},
		{in: "OpenRouter", want: "https://openrouter.ai/api/v1"},
		{in: "deepseek", want: "https://api.deepseek.com"},
		{in: "mistral", want: "https://api.mistral.ai/v1"},
		{in: "anthropic", want: "https://api.anthropic.com/v1"},
		{in: "http://localhost:1234/v1/", want: "http://localhost:1234/v1"},
		{in: "opnai", err: "neither a provider quire knows (anthropic, deepseek, mistral, openai, openrouter) nor a base URL"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ProviderURL(tt.in)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestStoreKeepsKeysPerProvider stores keys for two providers in
// go-keyring's mock and finds each only under its own base URL, under
// any spelling of it.
func TestStoreKeepsKeysPerProvider(t *testing.T) {
	keyring.MockInit()
	s := &Store{Keychain: OSKeychain{}, File: filepath.Join(t.TempDir(), "keys.json")}
	_, err := s.Set(t.Context(), "openrouter", "sk-or-1\n", false)
	require.Error(t, err, "a short name is no URL: the command turns it into one first")
	router, err := ProviderURL("openrouter")
	require.NoError(t, err)
	src, err := s.Set(t.Context(), router, "  sk-or-1\n", false)
	require.NoError(t, err)
	assert.Equal(t, Source{Kind: Keychain}, src)
	_, err = s.Set(t.Context(), "http://localhost:8080/v1", "local-1", false)
	require.NoError(t, err)

	tests := []struct {
		base, key string
	}{
		{base: "https://openrouter.ai/api/v1", key: "sk-or-1"},
		{base: "https://OpenRouter.ai:443/api/v1/", key: "sk-or-1"},
		{base: "http://localhost:8080/v1", key: "local-1"},
		{base: "http://localhost:8081/v1"},
		{base: "https://openrouter.ai/api"},
		{base: ""},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			key, src, err := s.Get(t.Context(), tt.base)
			if tt.key == "" {
				require.ErrorIs(t, err, ErrNotFound)
				assert.Empty(t, key)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.key, key)
			assert.Equal(t, "from your keychain", src.String())
		})
	}
	removed, err := s.Remove(t.Context(), "https://openrouter.ai/api/v1/")
	require.NoError(t, err)
	assert.Equal(t, []Source{{Kind: Keychain}}, removed)
	_, _, err = s.Get(t.Context(), router)
	require.ErrorIs(t, err, ErrNotFound)
	_, err = s.Remove(t.Context(), router)
	require.ErrorIs(t, err, ErrNotFound)
	key, _, err := s.Get(t.Context(), "http://localhost:8080/v1")
	require.NoError(t, err)
	assert.Equal(t, "local-1", key, "removing one provider's key leaves the others")
	_, statErr := os.Stat(s.File)
	require.ErrorIs(t, statErr, os.ErrNotExist, "a keychain key is never written to the file")
}

// neverAnswers is a keychain that blocks until the test ends, as a
// Secret Service that hangs does.
type neverAnswers struct{ release chan struct{} }

func (n neverAnswers) Get(string, string) (string, error) { <-n.release; return "", nil }
func (n neverAnswers) Set(string, string, string) error   { <-n.release; return nil }
func (n neverAnswers) Delete(string, string) error        { <-n.release; return nil }

func TestStoreGivesUpOnAKeychainThatNeverAnswers(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s := &Store{Keychain: neverAnswers{release}, File: filepath.Join(t.TempDir(), "keys.json"), Timeout: 100 * time.Millisecond}
	ops := map[string]func() error{
		"get": func() error { _, _, err := s.Get(t.Context(), ""); return err },
		"set": func() error { _, err := s.Set(t.Context(), "", "sk-1", false); return err },
		"remove": func() error {
			_, err := s.Remove(t.Context(), "")
			return err
		},
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			err := op()
			require.ErrorIs(t, err, ErrNoKeychain)
			assert.ErrorContains(t, err, "did not answer within 100ms")
			assert.Less(t, time.Since(start), 2*time.Second)
		})
	}
}

// TestStoreWithoutAKeychain is a headless Linux: the keychain fails at
// once. Nothing is stored unless the writer asks for the file, which
// only they can read.
func TestStoreWithoutAKeychain(t *testing.T) {
	keyring.MockInitWithError(errors.New("dbus: couldn't determine address of session bus"))
	t.Cleanup(keyring.MockInit)
	file := filepath.Join(t.TempDir(), "quire", "keys.json")
	s := &Store{Keychain: OSKeychain{}, File: file}

	_, err := s.Set(t.Context(), "", "sk-1", false)
	require.ErrorIs(t, err, ErrNoKeychain)
	for _, says := range []string{"no keychain answered on this computer", "quire stored nothing",
		"gnome-keyring", "quire key set --file", file} {
		assert.ErrorContains(t, err, says)
	}
	// The system's words name D-Bus, which a writer never installed: they
	// are kept for the log, not the message.
	assert.NotContains(t, err.Error(), "dbus")
	assert.Equal(t, "dbus: couldn't determine address of session bus", SystemReason(err))
	assert.NotContains(t, err.Error(), "sk-1")
	_, statErr := os.Stat(file)
	require.ErrorIs(t, statErr, os.ErrNotExist)

	_, _, err = s.Get(t.Context(), "")
	require.ErrorIs(t, err, ErrNoKeychain, "with no key in the file either, the writer learns that no keychain answered")

	src, err := s.Set(t.Context(), "", "sk-1", true)
	require.NoError(t, err)
	assert.Equal(t, "from the key file "+file, src.String())
	if runtime.GOOS != "windows" {
		info, err := os.Stat(file)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	}
	key, src, err := s.Get(t.Context(), "https://api.openai.com/v1/")
	require.NoError(t, err)
	assert.Equal(t, "sk-1", key)
	assert.Equal(t, Source{Kind: File, Name: file}, src)

	removed, err := s.Remove(t.Context(), "")
	require.ErrorIs(t, err, ErrNoKeychain, "the keychain could not be asked")
	assert.Equal(t, []Source{{Kind: File, Name: file}}, removed)
	_, _, err = s.Get(t.Context(), "")
	require.ErrorIs(t, err, ErrNoKeychain)
}

func TestKeyFileOthersCanReadIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no mode bits for others; the file lives in the user's own profile")
	}
	file := filepath.Join(t.TempDir(), "keys.json")
	s := &Store{File: file}
	_, err := s.Set(t.Context(), "", "sk-1", true)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(file, 0o644))
	_, _, err = s.Get(t.Context(), "")
	require.ErrorContains(t, err, "can be read by others")
	assert.ErrorContains(t, err, "chmod 600")
}

func TestCleanKey(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "sk-abc\n", want: "sk-abc"},
		{in: "\r\n  sk-abc \r\n", want: "sk-abc"},
		{in: "\n", err: "no key was given"},
		{in: "sk-a sk-b", err: "spaces or control characters"},
		{in: "sk-a\x1b[2J", err: "spaces or control characters"},
		{in: strings.Repeat("k", 5000), err: "longer than 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.want+tt.err, func(t *testing.T) {
			got, err := CleanKey(tt.in)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				assert.NotContains(t, err.Error(), "sk-")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
