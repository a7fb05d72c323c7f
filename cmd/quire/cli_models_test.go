package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
)

// fakeOllama is an Ollama server on loopback: GET /api/tags in Ollama's
// shape (https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models)
// and its OpenAI-compatible chat completions, which answer every ask.
type fakeOllama struct {
	mu    sync.Mutex
	paths []string
	auth  []string
	srv   *httptest.Server
}

func newFakeOllama(t *testing.T, answer string) *fakeOllama {
	f := &fakeOllama{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/tags":
			_, _ = w.Write([]byte(`{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-05-04T17:37:44.706015396-07:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"format":"gguf","family":"llama","parameter_size":"3.2B","quantization_level":"Q4_K_M"}}]}`))
		case "/v1/chat/completions":
			reply, _ := json.Marshal(map[string]any{
				"id": "x", "object": "chat.completion", "created": 1, "model": "llama3.2:latest",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
				"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
			})
			_, _ = w.Write(reply)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// fakeLMStudio answers GET /v1/models as LM Studio's server does.
func fakeLMStudio(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}],"object":"list"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// runLocal runs quire with servers as the local model servers it asks.
func runLocal(t *testing.T, servers []localmodel.Server, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newRoot(&globalOptions{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		keys: keyStoreFor(t, &memKeychain{}), localServers: servers})
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(t.Context())
	return out.String(), errOut.String(), err
}

func TestModelsFindsALocalServerAndAChoiceLeadsToAWorkingAsk(t *testing.T) {
	config := testhome.ConfigDir(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	ollama := newFakeOllama(t, "The bell rings thirteen because the ledger says so.")
	lmStudio := fakeLMStudio(t)
	servers := []localmodel.Server{
		{Name: "Ollama", URL: ollama.srv.URL, Ollama: true},
		{Name: "LM Studio", URL: lmStudio},
		{Name: "llama.cpp", URL: "http://" + closedPort(t)},
	}
	book, cache := sampleProject(t)
	bookSettings, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)

	// Before a choice, an ask says what runs here and how to choose.
	_, _, err = runLocal(t, servers, "ask", "--project", book, cache, "Why thirteen?")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "llama3.2:latest")
	assert.Contains(t, err.Error(), "quire models --use N")

	out, _, err := runLocal(t, servers, "models", "--json")
	require.NoError(t, err)
	var found []localmodel.Model
	require.NoError(t, json.Unmarshal([]byte(out), &found))
	assert.Equal(t, []localmodel.Model{
		{Server: "Ollama", BaseURL: ollama.srv.URL + "/v1", Model: "llama3.2:latest"},
		{Server: "LM Studio", BaseURL: lmStudio + "/v1", Model: "qwen2.5-7b-instruct"},
	}, found)

	text, _, err := runLocal(t, servers, "models")
	require.NoError(t, err)
	assert.Contains(t, text, " 1  llama3.2:latest")
	assert.Contains(t, text, " 2  qwen2.5-7b-instruct")

	out, _, err = runLocal(t, servers, "models", "--use", "1")
	require.NoError(t, err)
	assert.Contains(t, out, "llama3.2:latest")
	userConfig, err := os.ReadFile(filepath.Join(config, "quire", "config.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(userConfig), "base_url: "+ollama.srv.URL+"/v1")
	assert.Contains(t, string(userConfig), "model: llama3.2:latest")
	after, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(bookSettings), string(after), "the book is never written")

	out, _, err = runLocal(t, nil, "ask", "--project", book, cache, "Why thirteen?")
	require.NoError(t, err)
	assert.Contains(t, out, "ledger says so")
	ollama.mu.Lock()
	defer ollama.mu.Unlock()
	assert.Contains(t, ollama.paths, "POST /v1/chat/completions")
	for _, a := range ollama.auth {
		assert.Empty(t, a, "a local server is sent no key")
	}
}

func TestModelsUseTakesANameAndRefusesWhatIsNotThere(t *testing.T) {
	config := testhome.ConfigDir(t)
	servers := []localmodel.Server{{Name: "LM Studio", URL: fakeLMStudio(t)}}
	tests := []struct {
		name, use, err string
	}{
		{"a number out of the list", "3", "choose a number from 1 to 1"},
		{"a name no server offers", "gpt-9", `no local server offers a model "gpt-9"`},
		{"a name listed", "qwen2.5-7b-instruct", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runLocal(t, servers, "models", "--use", tt.use)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.NoFileExists(t, filepath.Join(config, "quire", "config.yaml"))
				return
			}
			require.NoError(t, err)
			data, err := os.ReadFile(filepath.Join(config, "quire", "config.yaml"))
			require.NoError(t, err)
			assert.Contains(t, string(data), "model: qwen2.5-7b-instruct")
		})
	}
}

func TestModelsSaysWhatToDoWhenNothingRuns(t *testing.T) {
	out, _, err := runLocal(t, []localmodel.Server{{Name: "Ollama", URL: "http://" + closedPort(t), Ollama: true}}, "models")
	require.NoError(t, err)
	assert.Contains(t, out, "No model server answers on this computer")
	assert.Contains(t, out, "ollama serve")
}

// TestModelsFindsOllamaWhereOllamaHostSays: a writer who moved Ollama
// with OLLAMA_HOST, as Ollama's own client reads it, and one who names
// their servers with QUIRE_LOCAL_MODELS, are asked there and not at the
// usual ports.
func TestModelsFindsOllamaWhereOllamaHostSays(t *testing.T) {
	testhome.ConfigDir(t)
	ollama := newFakeOllama(t, "unused")
	lmStudio := fakeLMStudio(t)
	run := func(t *testing.T) string {
		t.Helper()
		out, _, err := runLocal(t, nil, "models", "--json")
		require.NoError(t, err)
		return out
	}
	t.Run("OLLAMA_HOST", func(t *testing.T) {
		t.Setenv(localmodel.LocalModelsEnv, "")
		t.Setenv(localmodel.OllamaHostEnv, strings.TrimPrefix(ollama.srv.URL, "http://"))
		assert.Contains(t, run(t), `"model": "llama3.2:latest"`)
	})
	t.Run("QUIRE_LOCAL_MODELS", func(t *testing.T) {
		t.Setenv(localmodel.OllamaHostEnv, "")
		t.Setenv(localmodel.LocalModelsEnv, "My Ollama="+ollama.srv.URL+",LM Studio="+lmStudio)
		var found []localmodel.Model
		require.NoError(t, json.Unmarshal([]byte(run(t)), &found))
		assert.Equal(t, []localmodel.Model{
			{Server: "My Ollama", BaseURL: ollama.srv.URL + "/v1", Model: "llama3.2:latest"},
			{Server: "LM Studio", BaseURL: lmStudio + "/v1", Model: "qwen2.5-7b-instruct"},
		}, found)
	})
	t.Run("unreadable", func(t *testing.T) {
		t.Setenv(localmodel.OllamaHostEnv, "")
		t.Setenv(localmodel.LocalModelsEnv, ollama.srv.URL)
		_, errOut, _ := runLocal(t, nil, "models")
		assert.Contains(t, errOut, "QUIRE_LOCAL_MODELS")
		assert.Contains(t, errOut, "the usual ports are asked instead")
	})
}
