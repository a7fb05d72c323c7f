package localmodel

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ollamaTags is GET /api/tags as Ollama answers it
// (https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models).
const ollamaTags = `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-05-04T17:37:44.706015396-07:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"3.2B","quantization_level":"Q4_K_M"}},{"name":"deepseek-r1:latest","model":"deepseek-r1:latest","modified_at":"2025-05-10T08:06:48.639712648-07:00","size":4683075271,"digest":"0a8c266910232fd3291e71e5ba1e058cc5af9d411192cf88b6d30e92b6e73163","details":{"parent_model":"","format":"gguf","family":"qwen2","families":["qwen2"],"parameter_size":"7.6B","quantization_level":"Q4_K_M"}}]}`

// lmStudioModels is GET /v1/models as LM Studio's OpenAI-compatible
// server answers it.
const lmStudioModels = `{"data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}],"object":"list"}`

func fakeServer(t *testing.T, path, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFindListsTheModelsOfTheServersThatAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	ollama := fakeServer(t, "/api/tags", ollamaTags)
	lmStudio := fakeServer(t, "/v1/models", lmStudioModels)

	got := Find(t.Context(), Options{Servers: []Server{
		{Name: "Ollama", URL: ollama, Ollama: true},
		{Name: "nobody", URL: closed},
		{Name: "LM Studio", URL: lmStudio},
	}})
	assert.Equal(t, []Model{
		{Server: "Ollama", BaseURL: ollama + "/v1", Model: "deepseek-r1:latest"},
		{Server: "Ollama", BaseURL: ollama + "/v1", Model: "llama3.2:latest"},
		{Server: "LM Studio", BaseURL: lmStudio + "/v1", Model: "qwen2.5-7b-instruct"},
	}, got)
}

func TestUseWritesTheProviderAndKeepsTheRest(t *testing.T) {
	tests := []struct {
		name, before string
		keeps        []string
		drops        []string
	}{
		{name: "no file", before: ""},
		{name: "other keys and comments",
			before: "# my settings\ntitle: Default title # mine\nprovider:\n  base_url: https://api.openai.com/v1\n  model: gpt-4.1\n  api_key_env: OPENAI_API_KEY\n  timeout: 90s\nrules:\n  - British spelling\n",
			keeps:  []string{"# my settings", "title: Default title # mine", "timeout: 90s", "- British spelling"},
			drops:  []string{"api_key_env", "gpt-4.1", "api.openai.com"}},
		{name: "an empty provider", before: "provider:\n", keeps: []string{"provider:"}},
	}
	m := Model{Server: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2:latest"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "quire", "config.yaml")
			if tt.before != "" {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(tt.before), 0o644))
			}
			require.NoError(t, Use(path, m))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			text := string(data)
			assert.Contains(t, text, "base_url: http://127.0.0.1:11434/v1")
			assert.Contains(t, text, "model: llama3.2:latest")
			for _, k := range tt.keeps {
				assert.Contains(t, text, k)
			}
			for _, d := range tt.drops {
				assert.NotContains(t, text, d)
			}
		})
	}
}

func TestUseLeavesAFileThatDoesNotReadAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(path, []byte("provider: [unclosed\n"), 0o644))
	err := Use(path, Model{BaseURL: "http://127.0.0.1:11434/v1", Model: "m"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leaves it as it is")
	data, _ := os.ReadFile(path)
	assert.Equal(t, "provider: [unclosed\n", string(data))
}

// OLLAMA_HOST moves Ollama, as Ollama's own programs read it.
func TestOllamaURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "http://127.0.0.1:11434",
		"127.0.0.1:5000":         "http://127.0.0.1:5000",
		"0.0.0.0":                "http://127.0.0.1:11434",
		"0.0.0.0:8181":           "http://127.0.0.1:8181",
		"http://box.lan:11500/":  "http://box.lan:11500",
		"https://ollama.example": "https://ollama.example:443",
		"[::]:7000":              "http://127.0.0.1:7000",
		"[::1]:7000":             "http://[::1]:7000",
		"ftp://nowhere:1":        "http://127.0.0.1:11434",
	} {
		assert.Equal(t, want, OllamaURL(in), "OLLAMA_HOST=%q", in)
	}
}

// Find with no servers named asks Ollama where OLLAMA_HOST says.
func TestFindAsksOllamaWhereOllamaHostSays(t *testing.T) {
	ollama := fakeServer(t, "/api/tags", ollamaTags)
	t.Setenv(OllamaHostEnv, strings.TrimPrefix(ollama, "http://"))
	var found []Model
	for _, m := range Find(t.Context(), Options{}) {
		if m.Server == "Ollama" {
			found = append(found, m)
		}
	}
	assert.Equal(t, []Model{
		{Server: "Ollama", BaseURL: ollama + "/v1", Model: "deepseek-r1:latest"},
		{Server: "Ollama", BaseURL: ollama + "/v1", Model: "llama3.2:latest"},
	}, found)
}
