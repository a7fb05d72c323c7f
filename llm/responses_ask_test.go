package llm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/toolloop"
)

func TestResponsesAskContinuesConversation(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t,
		providertest.Step{Reply: &providertest.Reply{Content: new("First answer."), ResponseID: "resp_turn1"}},
		providertest.Step{Reply: &providertest.Reply{Content: new("Second answer."), ResponseID: "resp_turn2"}},
	)
	p := responsesProvider(t, s)
	in := AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Is chapter 2 consistent?", Loop: toolloop.Options{ToolUseMode: toolloop.ToolUseRelaxed}}, Sources: b, Provider: p}
	first, err := Ask(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, "resp_turn1", first.ResponseID)

	next := in
	next.Message = "And chapter 3?"
	next.History = first.Messages
	next.PreviousResponseID = first.ResponseID
	peek, err := Peek(context.Background(), next)
	require.NoError(t, err)
	second, err := Ask(context.Background(), next)
	require.NoError(t, err)
	assert.Equal(t, "Second answer.", second.Answer)
	assert.Equal(t, "resp_turn2", second.ResponseID)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.JSONEq(t, string(peek), string(reqs[1].Body), "peek is exactly what the continued turn sends")
	body := reqs[1].Decoded(t)
	assert.Equal(t, "resp_turn1", body["previous_response_id"])
	assert.Contains(t, body["instructions"], "continuity editor")
	input := inputOf(t, body)
	require.NotEmpty(t, input)
	assert.LessOrEqual(t, len(input), 2, "at most the context message and the writer's message: %v", input)
	assert.Equal(t, "And chapter 3?", input[len(input)-1]["content"])
	for _, it := range input {
		assert.NotEqual(t, "assistant", it["role"], "no history is resent")
		assert.NotEqual(t, "Is chapter 2 consistent?", it["content"])
	}
	firstInput := inputOf(t, reqs[0].Decoded(t))
	assert.Len(t, firstInput, len(input), "the first turn sent the same shape, without history")
}

func TestResponsesAskChatProviderSendsHistory(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t, providertest.TextStep("Second answer."))
	in := AskInput{
		Request:  Request{Persona: ResolvePersona("continuity-editor"), Message: "And chapter 3?", History: []provider.Message{{Role: provider.RoleUser, Content: "Is chapter 2 consistent?"}, {Role: provider.RoleAssistant, Content: "First answer."}}, PreviousResponseID: "resp_turn1", Loop: toolloop.Options{ToolUseMode: toolloop.ToolUseRelaxed}},
		Sources:  b,
		Provider: scriptedProvider(t, s),
	}
	res, err := Ask(context.Background(), in)
	require.NoError(t, err)
	assert.Empty(t, res.ResponseID)
	body := s.Requests()[0].Decoded(t)
	assert.NotContains(t, body, "previous_response_id")
	assert.Contains(t, string(s.Requests()[0].Body), "First answer.")
}
