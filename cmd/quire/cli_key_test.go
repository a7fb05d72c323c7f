package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm/keys"
)

// memKeychain is a keychain in memory, one per test (go-keyring's own
// mock is one for the whole test binary); failing makes every call fail
// as a Linux without a Secret Service does.
type memKeychain struct {
	mu      sync.Mutex
	entries map[string]string
	failing error
}

func (m *memKeychain) Get(service, account string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return "", m.failing
	}
	if v, ok := m.entries[service+"\x00"+account]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}

func (m *memKeychain) Set(service, account, secret string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return m.failing
	}
	if m.entries == nil {
		m.entries = map[string]string{}
	}
	m.entries[service+"\x00"+account] = secret
	return nil
}

func (m *memKeychain) Delete(service, account string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return m.failing
	}
	if _, ok := m.entries[service+"\x00"+account]; !ok {
		return keyring.ErrNotFound
	}
	delete(m.entries, service+"\x00"+account)
	return nil
}

// keyStoreFor is a store over chain with its key file in a folder of
// the test's own.
func keyStoreFor(t *testing.T, chain keys.Backend) *keys.Store {
	t.Helper()
	return &keys.Store{Keychain: chain, File: filepath.Join(t.TempDir(), "quire", "keys.json")}
}

// runKeys runs quire with store as its keychain and stdin as its input.
func runKeys(t *testing.T, store *keys.Store, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runKeysFrom(t, store, strings.NewReader(stdin), args...)
}

// runKeysFrom is runKeys with stdin any reader.
func runKeysFrom(t *testing.T, store *keys.Store, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newRoot(&globalOptions{stdin: stdin, stdout: &out, stderr: &errOut, keys: store})
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(t.Context())
	return out.String(), errOut.String(), err
}

// unreadable is a stdin a test must not read from: the key would be
// asked for there.
type unreadable struct{ t *testing.T }

func (u unreadable) Read([]byte) (int, error) {
	u.t.Error("the key was asked for before quire knew it could keep it")
	return 0, io.EOF
}

func TestKeySetStatusRemove(t *testing.T) {
	testhome.ConfigDir(t)
	chain := &memKeychain{}
	store := keyStoreFor(t, chain)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	dir := t.TempDir()
	t.Chdir(dir)

	steps := []struct {
		args  []string
		stdin string
		out   []string
		err   string
	}{
		{args: []string{"key", "status"}, out: []string{"provider: https://api.openai.com/v1", "key: none: no key was found for it; store it in your keychain with quire key set openai"}},
		{args: []string{"key", "set", "openrouter"}, stdin: "sk-or-secret\n", out: []string{"Stored the key for https://openrouter.ai/api/v1 in your keychain."}},
		{args: []string{"key", "set"}, stdin: "sk-openai-secret\r\n", out: []string{"Stored the key for https://api.openai.com/v1 in your keychain."}},
		{args: []string{"key", "status"}, out: []string{"provider: https://api.openai.com/v1", "key: from your keychain"}},
		{args: []string{"key", "status", "https://OpenRouter.ai/api/v1/"}, out: []string{"provider: https://openrouter.ai/api/v1", "key: from your keychain"}},
		{args: []string{"key", "status", "mistral"}, out: []string{"key: none"}},
		{args: []string{"key", "set", "mistral"}, stdin: "\n", err: "no key was given; nothing was stored"},
		{args: []string{"key", "set", "mistrl"}, stdin: "k", err: `"mistrl" is neither a provider quire knows`},
		{args: []string{"key", "remove", "openrouter"}, out: []string{"Removed the key for https://openrouter.ai/api/v1 in your keychain."}},
		{args: []string{"key", "remove", "openrouter"}, err: "no key is stored for https://openrouter.ai/api/v1, in your keychain or the key file; nothing was removed"},
		{args: []string{"key", "status", "openrouter"}, out: []string{"key: none"}},
		{args: []string{"key", "status"}, out: []string{"key: from your keychain"}},
	}
	for _, st := range steps {
		out, errOut, err := runKeys(t, store, st.stdin, st.args...)
		if st.err != "" {
			require.ErrorContains(t, err, st.err, "%v", st.args)
		} else {
			require.NoError(t, err, "%v: %s", st.args, errOut)
		}
		for _, s := range st.out {
			assert.Contains(t, out, s, "%v", st.args)
		}
		for _, secret := range []string{"sk-or-secret", "sk-openai-secret"} {
			assert.NotContains(t, out+errOut, secret, "%v", st.args)
		}
	}
	assert.Equal(t, map[string]string{"quire\x00https://api.openai.com/v1": "sk-openai-secret"}, chain.entries)

	// The variable comes before the keychain, and status says which.
	t.Setenv("OPENAI_API_KEY", "sk-variable")
	out, _, err := runKeys(t, store, "", "key", "status", "--json")
	require.NoError(t, err)
	var st keyStatus
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Equal(t, keyStatus{Provider: "https://api.openai.com/v1", Source: "variable", From: "from the OPENAI_API_KEY variable"}, st)
	assert.NotContains(t, out, "sk-")
	_, statErr := os.Stat(store.File)
	require.ErrorIs(t, statErr, os.ErrNotExist, "keychain keys are never written to a file")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing is written where quire runs")
}

// TestKeySetWithoutAKeychain is a headless Linux: quire says no
// keychain answered and stores nothing, unless told --file.
func TestKeySetWithoutAKeychain(t *testing.T) {
	testhome.ConfigDir(t)
	store := keyStoreFor(t, &memKeychain{failing: errors.New("dbus: couldn't determine address of session bus")})
	t.Setenv("OPENAI_API_KEY", "")
	t.Chdir(t.TempDir())

	_, _, err := runKeysFrom(t, store, unreadable{t}, "key", "set", "openai")
	require.Error(t, err, "the keychain is asked before the key is")
	for _, s := range []string{"no keychain answered on this computer", "quire stored nothing", "nothing was asked or stored",
		"quire key set --file openai", store.File, "set OPENAI_API_KEY in your shell", "VS Code's secret storage"} {
		assert.ErrorContains(t, err, s)
	}
	assert.NotContains(t, err.Error(), "dbus", "the system's words are not the writer's")
	assert.NotContains(t, err.Error(), "sk-file-secret")
	_, statErr := os.Stat(store.File)
	require.ErrorIs(t, statErr, os.ErrNotExist)

	out, _, err := runKeys(t, store, "", "key", "status")
	require.NoError(t, err)
	assert.Contains(t, out, "key: none: no key was found for it; no keychain answers on this computer, so set OPENAI_API_KEY in your shell, "+
		"or keep the key in a file only you can read with quire key set --file openai; in VS Code, the command quire: Set API Key keeps it in VS Code's secret storage")
	assert.NotContains(t, out, "store it in your keychain", "no advice that cannot work here")

	out, _, err = runKeys(t, store, "sk-file-secret\n", "key", "set", "--file", "openai")
	require.NoError(t, err)
	assert.Contains(t, out, "Stored the key for https://api.openai.com/v1 in the key file "+store.File)
	if runtime.GOOS != "windows" {
		info, err := os.Stat(store.File)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	}
	out, _, err = runKeys(t, store, "", "key", "status")
	require.NoError(t, err)
	assert.Contains(t, out, "key: from the key file "+store.File)
	out, errOut, err := runKeys(t, store, "", "key", "remove")
	require.NoError(t, err, "the file's key is removed")
	assert.Contains(t, out, "Removed the key for https://api.openai.com/v1 in the key file")
	assert.Contains(t, errOut, "no keychain answered on this computer; if your keychain holds a key for https://api.openai.com/v1, run quire key remove again where it answers")
	_, _, err = runKeys(t, store, "", "key", "remove")
	require.ErrorContains(t, err, "no keychain answered on this computer; nothing was removed: run quire key remove again where your keychain answers")
}

func TestAskSendsTheKeychainKeyOnlyToItsProvider(t *testing.T) {
	testhome.ConfigDir(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	book, cache := sampleProject(t)
	model := newFakeModel(t, "Answered.")
	other := newFakeModel(t, "Answered elsewhere.")
	store := keyStoreFor(t, &memKeychain{})
	_, _, err := runKeys(t, store, "sk-chain-secret\n", "key", "set", model.endpoint.URL+"/v1/")
	require.NoError(t, err)

	out, errOut, err := runKeys(t, store, "", "ask", "-v", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake", "Hello?")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "Answered.")
	require.Len(t, model.auth, 1)
	assert.Equal(t, "Bearer sk-chain-secret", model.auth[0])
	assert.NotContains(t, out+errOut, "sk-chain-secret", "the key is in no output, the verbose log included")
	// Nor in the book, nor in the cache with its provenance record.
	provenance := false
	for _, dir := range []string{book, strings.TrimPrefix(cache, "--cache-dir=")} {
		require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotContains(t, string(data), "sk-chain-secret", path)
			provenance = provenance || d.Name() == "provenance.jsonl"
			return nil
		}))
	}
	assert.True(t, provenance, "the provenance record was read too")

	_, errOut, err = runKeys(t, store, "", "ask", "--project", book, cache, "--base-url", other.endpoint.URL+"/v1", "--model", "fake", "Hello?")
	require.NoError(t, err, errOut)
	require.Len(t, other.auth, 1)
	assert.Empty(t, other.auth[0], "a key stored for one provider goes to no other")

	// The editor's key, for this provider, comes first.
	t.Setenv(keys.EditorKeyEnv, "sk-editor-secret")
	t.Setenv(keys.EditorBaseURLEnv, model.endpoint.URL+"/v1")
	_, errOut, err = runKeys(t, store, "", "ask", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake", "Hello?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Bearer sk-editor-secret", model.auth[1])
	out, _, err = runKeys(t, store, "", "key", "status", model.endpoint.URL+"/v1")
	require.NoError(t, err)
	assert.Contains(t, out, "key: from your editor")
	_, errOut, err = runKeys(t, store, "", "ask", "--project", book, cache, "--base-url", other.endpoint.URL+"/v1", "--model", "fake", "Hello?")
	require.NoError(t, err, errOut)
	assert.Empty(t, other.auth[1], "the editor's key goes only to the provider it was given for")
}

// TestAskTrustKeepsKeychainKeysFromABooksServer: a book that names its
// own server gets no stored key sent there, neither the one stored for
// that server nor the writer's own, until the writer trusts the book.
func TestAskTrustKeepsKeychainKeysFromABooksServer(t *testing.T) {
	own := trustSetup(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	t.Setenv("THEIR_KEY", "")
	book, cache := sampleProject(t)
	theirs := newFakeModel(t, "From the book's server.")
	store := keyStoreFor(t, &memKeychain{})
	for url, key := range map[string]string{own.endpoint.URL + "/v1": "sk-own-secret", theirs.endpoint.URL + "/v1": "sk-their-secret"} {
		_, _, err := runKeys(t, store, key, "key", "set", url)
		require.NoError(t, err)
	}
	original, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	ask := func() (string, string) {
		t.Helper()
		out, errOut, err := runKeys(t, store, "", "ask", "--project", book, cache, "Hello?")
		require.NoError(t, err, errOut)
		return out, errOut
	}

	// The book names its server alone: quire asks it, keyless.
	appendConfig(t, book, "provider:\n  base_url: "+theirs.endpoint.URL+"/v1\n  model: theirs\n")
	out, errOut := ask()
	assert.Contains(t, out, "From the book's server.")
	require.Len(t, theirs.auth, 1)
	assert.Empty(t, theirs.auth[0], "no stored key goes to a server an untrusted book names")
	assert.Contains(t, errOut, "the key from your keychain is not sent to "+theirs.endpoint.URL)
	out, _, err = runKeys(t, store, "", "key", "status", "--project", book)
	require.NoError(t, err)
	assert.Contains(t, out, "the key from your keychain is not sent")
	_, _, err = runKeys(t, store, "sk-x", "key", "set", "--project", book)
	require.ErrorContains(t, err, "you have not trusted the book", "no key is stored for the book's server by default")

	// The book asks for a key for its server: until trusted, quire asks
	// the writer's own server with the writer's own key.
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), append(original,
		[]byte("provider:\n  base_url: "+theirs.endpoint.URL+"/v1\n  model: theirs\n  api_key_env: THEIR_KEY\n")...), 0o644))
	out, errOut = ask()
	assert.Contains(t, out, "From your own server.")
	assert.Contains(t, errOut, "quire trust ")
	assert.Len(t, theirs.auth, 1, "nothing more went to the book's server")
	require.Len(t, own.auth, 1)
	assert.Equal(t, "Bearer sk-own-secret", own.auth[0], "the writer's key, to the writer's server")

	_, _, err = run(t, "trust", book)
	require.NoError(t, err)
	out, _ = ask()
	assert.Contains(t, out, "From the book's server.")
	require.Len(t, theirs.auth, 2)
	assert.Equal(t, "Bearer sk-their-secret", theirs.auth[1], "trusted, the key stored for the book's server goes there")
	assert.Len(t, own.auth, 1)
}
