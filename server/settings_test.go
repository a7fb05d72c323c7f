package server

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/llm"
)

func TestParseClientSettings(t *testing.T) {
	cs := parseClientSettings([]byte(`{"quire": {"persona": "writing-coach", "provider": {
		"baseUrl": "http://localhost:11434/v1", "api_key_env": "OLLAMA_KEY", "api_key": "sk-never",
		"tools": false, "retries": 0, "rounds": "many", "quirks": ["content_tool_call_tags"]}}}`))
	assert.Equal(t, "writing-coach", cs.Persona)
	p := cs.Provider
	assert.Equal(t, "http://localhost:11434/v1", p.BaseURL)
	assert.Equal(t, "OLLAMA_KEY", p.APIKeyEnv)
	assert.Equal(t, false, *p.Tools)
	assert.Equal(t, 0, *p.Retries)
	assert.Zero(t, p.Rounds, "a bad value is dropped alone")
	assert.Equal(t, []string{"content_tool_call_tags"}, p.Quirks)

	assert.Equal(t, clientSettings{}, parseClientSettings([]byte(`"junk"`)))
	assert.Equal(t, "x", parseClientSettings([]byte(`{"persona":"x"}`)).Persona, "no quire wrapper")
}

func TestClientProviderOverFile(t *testing.T) {
	file := llm.ProviderSettings{BaseURL: "http://a/v1", Model: "m", APIKeyEnv: "A_KEY", Rounds: 3}
	got := clientProvider{Model: "n"}.onto(file)
	assert.Equal(t, llm.ProviderSettings{BaseURL: "http://a/v1", Model: "n", APIKeyEnv: "A_KEY", Rounds: 3}, got)
	// Another endpoint does not inherit the file's key variable.
	got = clientProvider{BaseURL: "http://b/v1"}.onto(file)
	assert.Equal(t, "", got.APIKeyEnv)
	assert.Equal(t, 3, got.Rounds)

	merged := clientSettings{Persona: "a", Provider: clientProvider{Model: "x"}}.over(clientSettings{Provider: clientProvider{BaseURL: "u"}})
	assert.Equal(t, "a", merged.Persona)
	assert.Equal(t, clientProvider{Model: "x", BaseURL: "u"}, merged.Provider)
}
