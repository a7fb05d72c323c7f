package health

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
)

func TestModelLineSaysWhatTheServersAnswerMeans(t *testing.T) {
	withKey := llm.FoundKey{Key: "sk-x", Source: keys.Source{Kind: keys.Variable, Name: "MY_KEY"}}
	tests := []struct {
		name   string
		p      probe
		model  string
		found  llm.FoundKey
		status Status
		says   string
		fix    string
	}{
		{"not running", probe{Refused: true}, "m", withKey, Problem, "the server is not running", "ollama serve"},
		{"too slow", probe{Timeout: true}, "m", withKey, Problem, "did not answer within 5s", "network"},
		{"key refused", probe{Status: 401}, "m", withKey, Problem, "refused the key from the MY_KEY variable (HTTP 401)", "quire key set http://h/v1"},
		{"key wanted", probe{Status: 403}, "m", llm.FoundKey{}, Problem, "wants a key (HTTP 403)", "quire key set http://h/v1"},
		{"no list", probe{Status: 404}, "m", withKey, Warning, "HTTP 404", "/v1"},
		{"model listed", probe{Status: 200, Models: []string{"a", "m"}}, "m", withKey, OK, "model m is there", ""},
		{"model not listed", probe{Status: 200, Models: []string{"a", "b"}}, "m", withKey, Warning, "lists no model m", "a, b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			detail, status, fix := modelLine(tt.p, "http://h/v1", tt.model, tt.found, keys.Advice("http://h/v1", "H_KEY", nil), ProbeTimeout)
			assert.Equal(t, tt.status, status)
			assert.Contains(t, detail, tt.says)
			assert.Contains(t, fix, tt.fix)
			assert.NotContains(t, detail+fix, "sk-x")
		})
	}
}

func TestWorstFirstKeepsTheOrderWithinAStatus(t *testing.T) {
	r := Report{Checks: []Check{{Name: "a", Status: OK}, {Name: "b", Status: Warning}, {Name: "c", Status: Problem}, {Name: "d", Status: Problem}, {Name: "e", Status: OK}}}
	var names []string
	for _, c := range r.WorstFirst().Checks {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"c", "d", "b", "a", "e"}, names)
	assert.True(t, r.HasProblem())
	assert.Equal(t, "problem  c: x — do y", Check{Name: "c", Status: Problem, Detail: "x", Fix: "do y"}.Line())
}

func TestAReportWithNoProviderNamesTheLocalModels(t *testing.T) {
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`))
	}))
	t.Cleanup(ollama.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	root := t.TempDir()
	// A book with no settings files, and no config.yaml of the writer's.
	loaded, err := settings.Load(settings.Sources{Book: os.DirFS(root)})
	require.NoError(t, err)
	tests := []struct {
		name    string
		servers []localmodel.Server
		fix     string
	}{
		{"one runs", []localmodel.Server{{Name: "Ollama", URL: ollama.URL, Ollama: true}}, "these models run on this computer and need no key: llama3.2:latest (Ollama)"},
		{"none runs", []localmodel.Server{{Name: "Ollama", URL: closed, Ollama: true}}, "run quire models"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(t.Context(), Options{Root: root, Settings: loaded, Keys: llm.KeyFinder{Getenv: func(string) string { return "" }},
				LocalModels: &localmodel.Options{Servers: tt.servers, Timeout: time.Second}})
			var prov Check
			for _, c := range r.Checks {
				if c.Name == "provider" {
					prov = c
				}
			}
			assert.Equal(t, Warning, prov.Status, "no model is a choice: only the advisor needs one")
			assert.False(t, r.HasProblem(), "quire doctor exits 0 on a book with no model yet")
			assert.True(t, strings.HasPrefix(prov.Fix, tt.fix), prov.Fix)
		})
	}
}

// TestModelListNeverCarriesThePieceOfAKey: a server that lists a "model"
// named after the key it was sent (here without the key's sk- prefix)
// gets that piece taken out before the list reaches the writer (the fix
// of a model not listed names some of them). A real model's name, mixed
// case and digits as it may be, stays as it is.
func TestModelListNeverCarriesThePieceOfAKey(t *testing.T) {
	const key = "sk-4f0c2b9e8d7a61534e2f0a9b8c7d6e5f"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echo := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer sk-")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8","object":"model"},{"id":"` + echo + `","object":"model"}]}`))
	}))
	t.Cleanup(srv.Close)
	p := listModels(t.Context(), srv.Client(), srv.URL+"/v1", key, ProbeTimeout)
	require.Equal(t, http.StatusOK, p.Status)
	assert.Equal(t, []string{"Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", "[redacted]"}, p.Models)
}
