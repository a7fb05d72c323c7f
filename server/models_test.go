package server

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
	"github.com/quire-ink/quire/server/wire"
)

// ollamaTags is GET /api/tags as Ollama answers it
// (https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models).
const ollamaTags = `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-05-04T17:37:44.706015396-07:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"format":"gguf","family":"llama","parameter_size":"3.2B","quantization_level":"Q4_K_M"}}]}`

// fakeOllama lists its one model at /api/tags and answers the chat
// through the scripted provider f.
func fakeOllama(t *testing.T, f *fakeLLM) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/tags" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(ollamaTags))
			return
		}
		f.srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestModelsAndUseModelMakeTheAdvisorAskALocalModelWithoutRestart(t *testing.T) {
	config := testhome.ConfigDir(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	chat := newFakeLLM(t, answerStep(t, "Thirteen strokes, one for each debt."))
	ollama := fakeOllama(t, chat)
	root := writeProject(t, bookFiles)
	c := startServer(t, Options{LocalModels: localmodel.Options{Servers: []localmodel.Server{{Name: "Ollama", URL: ollama, Ollama: true}}}})
	c.initialize(root)
	require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the project has loaded")

	var res wire.AskResult
	err := c.callErr(wire.MethodAsk, wire.AskParams{Message: "Why thirteen?"}, &res)
	require.Error(t, err, "no provider is configured")
	assert.Contains(t, err.Error(), "llama3.2:latest")
	assert.Contains(t, err.Error(), "quire models --use N")

	var models []wire.LocalModel
	c.call(wire.MethodModels, nil, &models)
	want := wire.LocalModel{Server: "Ollama", BaseURL: ollama + "/v1", Model: "llama3.2:latest"}
	assert.Equal(t, []wire.LocalModel{want}, models)

	var used wire.UseModelResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandUseModel,
		"arguments": []any{wire.UseModelParams{BaseURL: want.BaseURL, Model: want.Model}}}, &used)
	assert.Equal(t, filepath.Join(config, "quire", "config.yaml"), used.Path)
	data, err := os.ReadFile(used.Path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "model: llama3.2:latest")
	assert.NoFileExists(t, filepath.Join(root, "quire.yaml"), "the book is never written")
	c.waitMessage("quire now asks llama3.2:latest")

	c.call(wire.MethodAsk, wire.AskParams{Message: "Why thirteen?"}, &res)
	assert.Contains(t, res.Answer, "one for each debt")
	require.Len(t, chat.requests(), 1)
	assert.Equal(t, "llama3.2:latest", chat.requests()[0]["model"])
}

func TestUseModelRefusesAModelNoLocalServerOffers(t *testing.T) {
	config := testhome.ConfigDir(t)
	c := startServer(t, Options{LocalModels: localmodel.Options{Servers: []localmodel.Server{}}})
	c.initialize(writeProject(t, bookFiles))
	var used wire.UseModelResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandUseModel,
		"arguments": []any{wire.UseModelParams{BaseURL: "https://elsewhere.example/v1", Model: "m"}}}, &used)
	c.waitMessage("No server on this computer offers the model")
	assert.NoFileExists(t, filepath.Join(config, "quire", "config.yaml"))
}

// TestLocalModelsAreCodeActionsWhileNoProviderIs: in a book with no
// provider, every chapter offers the local models as code actions (the
// picker of Helix and eglot); choosing one writes the writer's config,
// and the actions are gone once the book has a provider.
func TestLocalModelsAreCodeActionsWhileNoProviderIs(t *testing.T) {
	config := testhome.ConfigDir(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	chat := newFakeLLM(t, answerStep(t, "unused"))
	ollama := fakeOllama(t, chat)
	root := writeProject(t, bookFiles)
	c := startServer(t, Options{LocalModels: localmodel.Options{Servers: []localmodel.Server{{Name: "Ollama", URL: ollama, Ollama: true}}}})
	c.initialize(root)
	const chapter = "manuscript/01-harbor.md"
	require.NotNil(t, c.hoverAt(chapter, 2, 1), "the project has loaded")

	actions := func() map[string]*actionCommand {
		var list []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(chapter)}}, &list)
		byTitle := map[string]*actionCommand{}
		for _, a := range list {
			byTitle[a.Title] = a.Command
		}
		return byTitle
	}
	use := actions()["quire: Use llama3.2:latest (Ollama)"]
	require.NotNil(t, use, "the local model is offered while no provider is configured")
	require.Equal(t, wire.CommandUseModel, use.Command)

	var used wire.UseModelResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": use.Command, "arguments": use.Arguments}, &used)
	assert.Equal(t, filepath.Join(config, "quire", "config.yaml"), used.Path)
	c.waitMessage("quire now asks llama3.2:latest")
	for title := range actions() {
		assert.NotContains(t, title, "quire: Use ", "the book has a provider now")
	}
}

// TestNoLocalModelActionsWhereAProviderIsNamed: a book whose settings
// name a provider offers no local model.
func TestNoLocalModelActionsWhereAProviderIsNamed(t *testing.T) {
	testhome.ConfigDir(t)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv(keys.EditorKeyEnv, "")
	chat := newFakeLLM(t, answerStep(t, "unused"))
	ollama := fakeOllama(t, chat)
	files := maps.Clone(bookFiles)
	files["quire.yaml"] = "provider:\n  base_url: http://127.0.0.1:9/v1\n  model: m\n"
	root := writeProject(t, files)
	c := startServer(t, Options{LocalModels: localmodel.Options{Servers: []localmodel.Server{{Name: "Ollama", URL: ollama, Ollama: true}}}})
	c.initialize(root)
	const chapter = "manuscript/01-harbor.md"
	require.NotNil(t, c.hoverAt(chapter, 2, 1), "the project has loaded")
	var list []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(chapter)}}, &list)
	require.NotEmpty(t, list)
	for _, a := range list {
		assert.NotContains(t, a.Title, "quire: Use ")
	}
}
