package server

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/endpoint"
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
	file := endpoint.ProviderSettings{BaseURL: "http://a/v1", Model: "m", APIKeyEnv: "A_KEY", Rounds: 3}
	got := clientProvider{Model: "n"}.onto(file)
	assert.Equal(t, endpoint.ProviderSettings{BaseURL: "http://a/v1", Model: "n", APIKeyEnv: "A_KEY", Rounds: 3}, got)
	// Another endpoint does not inherit the file's key variable.
	got = clientProvider{BaseURL: "http://b/v1"}.onto(file)
	assert.Equal(t, "", got.APIKeyEnv)
	assert.Equal(t, 3, got.Rounds)

	merged := clientSettings{Persona: "a", Provider: clientProvider{Model: "x"}}.over(clientSettings{Provider: clientProvider{BaseURL: "u"}})
	assert.Equal(t, "a", merged.Persona)
	assert.Equal(t, clientProvider{Model: "x", BaseURL: "u"}, merged.Provider)
}

func TestTheClientsKeyGoesOnlyToAServerTheWriterChose(t *testing.T) {
	book := endpoint.ProviderSettings{BaseURL: "http://book-named/v1", Model: "m", UntrustedBaseURL: true}
	tests := []struct {
		name     string
		client   string
		withheld string
	}{
		{name: "a key variable alone", client: `{"provider": {"api_key_env": "MY_KEY"}}`, withheld: "MY_KEY"},
		{name: "with the same server", client: `{"provider": {"api_key_env": "MY_KEY", "base_url": "http://book-named/v1"}}`},
		{name: "with its own server", client: `{"provider": {"api_key_env": "MY_KEY", "baseUrl": "http://mine/v1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := parseClientSettings([]byte(tt.client)).Provider.onto(book)
			assert.Equal(t, tt.withheld, llm.WithheldKey(ps))
		})
	}
}
