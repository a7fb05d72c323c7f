package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
)

func TestNewTurn(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	_, err := NewTurn(t.Context(), TurnOptions{NeedKey: true})
	require.ErrorIs(t, err, ErrNoProvider)

	place := manuscript.Place{Current: "manuscript/01-storm.md"}
	turn, err := NewTurn(t.Context(), TurnOptions{
		Request:  Request{Persona: ResolvePersona("writing-coach"), Message: "Hello?", Loop: toolloop.Options{MaxRounds: 3}},
		Place:    place,
		Provider: endpoint.ProviderSettings{BaseURL: "http://127.0.0.1:9/v1", Model: "m"},
	})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:9/v1", turn.Config.BaseURL)
	assert.Equal(t, place, turn.In.Sources.Place)
	assert.Equal(t, "writing-coach", turn.In.Persona.ID)
	assert.Equal(t, 3, turn.In.Loop.MaxRounds)
	assert.NotNil(t, turn.In.Provider)
}

func TestProviderSettingsOver(t *testing.T) {
	yes, no := true, false
	base := endpoint.ProviderSettings{BaseURL: "http://a/v1", Model: "a", FlexFallback: &yes, Rounds: 2, UntrustedBaseURL: true}
	got := base.Over(endpoint.ProviderSettings{Model: "b", FlexFallback: &no})
	assert.Equal(t, endpoint.ProviderSettings{BaseURL: "http://a/v1", Model: "b", FlexFallback: &no, Rounds: 2, UntrustedBaseURL: true}, got,
		"what the top sets wins, false included; trust stays the base's")
	// Between the files, flex_fallback adds up as it always has.
	assert.True(t, *endpoint.ProviderSettings{FlexFallback: &yes}.Under(endpoint.ProviderSettings{FlexFallback: &no}).FlexFallback)
}
