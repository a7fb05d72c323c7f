package main

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm/health"
	"github.com/quire-ink/quire/llm/keys"
)

// modelLister is an OpenAI-compatible server that lists its models and
// records every request: the doctor must send GET /models and nothing
// else, with the key the settings name.
type modelLister struct {
	mu       sync.Mutex
	requests []string
	auth     []string
	status   int
	server   *httptest.Server
}

func newModelLister(t *testing.T, status int, models ...string) *modelLister {
	m := &modelLister{status: status}
	m.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.requests = append(m.requests, r.Method+" "+r.URL.Path)
		m.auth = append(m.auth, r.Header.Get("Authorization"))
		m.mu.Unlock()
		if m.status != http.StatusOK {
			w.WriteHeader(m.status)
			return
		}
		var data []any
		for _, id := range models {
			data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "test"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
	t.Cleanup(m.server.Close)
	return m
}

// writeUserConfig writes the writer's own config.yaml in the test's
// user config folder.
func writeUserConfig(t *testing.T, text string) string {
	t.Helper()
	dir := testhome.ConfigDir(t)
	path := filepath.Join(dir, "quire", "config.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

func doctorChecks(t *testing.T, out string) map[string]health.Check {
	t.Helper()
	var r health.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	byName := map[string]health.Check{}
	for _, c := range r.Checks {
		byName[c.Name] = c
	}
	return byName
}

func TestDoctorNamesEveryProblemOfABrokenSetup(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	t.Setenv("DOCTOR_MISSING_KEY", "")
	writeUserConfig(t, "provider:\n  base_url: http://"+closedPort(t)+"/v1\n  model: fake\n  api_key_env: DOCTOR_MISSING_KEY\n")
	book, cache := sampleProject(t)
	series := filepath.Join(filepath.Dir(book), "series")
	require.NoError(t, os.MkdirAll(filepath.Join(series, "codex", "characters"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(series, "codex", "characters", "elder.md"), []byte("---\ntype: character\nname: The Elder\n---\n"), 0o644))
	settingsText, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), append(settingsText, []byte("series: ../series\n")...), 0o644))
	store := keyStoreFor(t, &memKeychain{})

	for _, tc := range []struct {
		check  string
		status health.Status
		says   string
		fix    string
	}{
		{"key", health.Problem, "DOCTOR_MISSING_KEY is not set", "quire key set"},
		{"model", health.Problem, "the server is not running", "start it"},
		{"trust", health.Warning, "not trusted", "quire trust " + book},
		{"series", health.Warning, "not trusted", "quire trust"},
		{"book", health.OK, book, ""},
	} {
		t.Run(tc.check, func(t *testing.T) {
			out, _, err := runKeys(t, store, "", "doctor", "--project", book, cache, "--json")
			var exit exitError
			require.ErrorAs(t, err, &exit, "a problem ends quire doctor with status 1")
			assert.Equal(t, 1, exit.code)
			c := doctorChecks(t, out)[tc.check]
			assert.Equal(t, tc.status, c.Status, c.Detail)
			assert.Contains(t, c.Detail, tc.says)
			assert.Contains(t, c.Fix, tc.fix)
		})
	}

	text, _, err := runKeys(t, store, "", "doctor", "--project", book, cache)
	require.Error(t, err)
	assert.Contains(t, text, "problem  key: ")
	assert.Contains(t, text, "problem  model: ")
}

func TestDoctorOnAGoodSetupAsksForTheModelsOnlyAndShowsNoKey(t *testing.T) {
	const secret = "sk-doctor-must-not-leak"
	server := newModelLister(t, http.StatusOK, "other", "fake")
	t.Setenv("DOCTOR_KEY", secret)
	t.Setenv(keys.EditorKeyEnv, "")
	writeUserConfig(t, "provider:\n  base_url: "+server.server.URL+"/v1\n  model: fake\n  api_key_env: DOCTOR_KEY\n")
	book, cache := sampleProject(t)
	store := keyStoreFor(t, &memKeychain{})

	out, stderr, err := runKeys(t, store, "", "doctor", "--project", book, cache, "--json")
	require.NoError(t, err, out)
	checks := doctorChecks(t, out)
	for _, name := range []string{"quire", "book", "index", "provider", "model", "key", "trust", "series"} {
		c, ok := checks[name]
		require.True(t, ok, "the report has a %s line", name)
		assert.Equal(t, health.OK, c.Status, "%s: %s %s", name, c.Detail, c.Fix)
	}
	assert.Contains(t, checks["key"].Detail, "DOCTOR_KEY")
	assert.Contains(t, checks["model"].Detail, "model fake is there")
	assert.Contains(t, checks["quire"].Detail, version)

	text, _, err := runKeys(t, store, "", "doctor", "--project", book, cache)
	require.NoError(t, err)
	for _, s := range []string{out, stderr, text} {
		assert.NotContains(t, s, secret)
	}
	server.mu.Lock()
	defer server.mu.Unlock()
	assert.Equal(t, []string{"GET /v1/models", "GET /v1/models"}, server.requests, "one cheap request per run, and no chat")
	assert.Equal(t, "Bearer "+secret, server.auth[0])
}

func TestDoctorSaysARefusedKeyIsRefused(t *testing.T) {
	server := newModelLister(t, http.StatusUnauthorized)
	t.Setenv("DOCTOR_KEY", "sk-wrong")
	t.Setenv(keys.EditorKeyEnv, "")
	writeUserConfig(t, "provider:\n  base_url: "+server.server.URL+"/v1\n  model: fake\n  api_key_env: DOCTOR_KEY\n")
	book, cache := sampleProject(t)
	out, _, err := runKeys(t, keyStoreFor(t, &memKeychain{}), "", "doctor", "--project", book, cache, "--json")
	require.Error(t, err)
	c := doctorChecks(t, out)["model"]
	assert.Equal(t, health.Problem, c.Status)
	assert.Contains(t, c.Detail, "refused the key from the DOCTOR_KEY variable (HTTP 401)")
	assert.Contains(t, c.Fix, "quire key set")
	assert.NotContains(t, out, "sk-wrong")
}

// TestDoctorSaysNoKeychainAnsweredInWords: the key line says no keychain
// answered, in a writer's words; the system's own reason, which names
// D-Bus, is in --json's system field for a bug report and nowhere in
// the text.
func TestDoctorSaysNoKeychainAnsweredInWords(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	book, cache := sampleProject(t)
	store := keyStoreFor(t, &memKeychain{failing: errors.New(`exec: "dbus-launch": executable file not found in $PATH`)})

	out, _, err := runKeys(t, store, "", "doctor", "--project", book, cache, "--json")
	require.NoError(t, err, "a book with no model yet is not a failure")
	key := doctorChecks(t, out)["key"]
	assert.Equal(t, health.Warning, key.Status)
	assert.Contains(t, key.Detail, "(no keychain answered on this computer)")
	assert.NotContains(t, key.Detail, "dbus")
	assert.Equal(t, `exec: "dbus-launch": executable file not found in $PATH`, key.System)
	// The advice names the ways that work without a keychain.
	for _, fix := range []string{key.Fix, doctorChecks(t, out)["provider"].Fix} {
		assert.Contains(t, fix, "quire key set --file openai")
		assert.Contains(t, fix, "set OPENAI_API_KEY in your shell")
		assert.Contains(t, fix, "VS Code's secret storage")
		assert.NotContains(t, fix, "store it in your keychain")
	}

	text, _, err := runKeys(t, store, "", "doctor", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, text, "no keychain answered on this computer")
	assert.NotContains(t, text, "dbus")

	// A provider named, with no key for it: that is a problem.
	writeUserConfig(t, "provider:\n  base_url: https://openrouter.ai/api/v1\n  model: m\n  api_key_env: ROUTER_KEY\n")
	t.Setenv("ROUTER_KEY", "")
	out, _, err = runKeys(t, store, "", "doctor", "--project", book, cache, "--json")
	require.Error(t, err, "a chosen provider without its key is a problem")
	key = doctorChecks(t, out)["key"]
	assert.Equal(t, health.Problem, key.Status)
	assert.Contains(t, key.Fix, "set ROUTER_KEY in your shell, or keep the key in a file only you can read with quire key set --file openrouter")
}
