package provider

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// echoKey is a key shaped like none of the credential patterns, so only
// its being the key in use can take it out.
const echoKey = "quireEchoKey2718281828"

// chatSSEText is a Chat Completions stream of text split into pieces of
// n characters, in the shape of OpenAI's streamed chunks
// (https://platform.openai.com/docs/api-reference/chat-streaming).
func chatSSEText(text string, n int) string {
	var chunks []string
	runes := []rune(text)
	for i := 0; i < len(runes); i += n {
		piece, _ := json.Marshal(string(runes[i:min(i+n, len(runes))]))
		chunks = append(chunks, `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":`+string(piece)+`},"finish_reason":null}]}`)
	}
	chunks = append(chunks, `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	return providertest.ChatSSE(chunks...)
}

// TestAnswerNeverCarriesTheKey: a provider answering 200 with the
// Authorization header it was sent gets the key taken out of the answer,
// whole or streamed in pieces that split the key anywhere.
func TestAnswerNeverCarriesTheKey(t *testing.T) {
	answer := "Your key is Bearer " + echoKey + ". Séverine’s eyes are green."
	tests := []struct {
		name  string
		step  providertest.Step
		piece int
	}{
		{name: "whole", step: providertest.TextStep(answer)},
		{name: "streamed 1", step: providertest.Step{SSE: chatSSEText(answer, 1)}, piece: 1},
		{name: "streamed 3", step: providertest.Step{SSE: chatSSEText(answer, 3)}, piece: 3},
		{name: "streamed 7", step: providertest.Step{SSE: chatSSEText(answer, 7)}, piece: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.step)
			p := scriptedProvider(t, s, func(c *Config) { c.APIKey = echoKey; c.Stream = tt.piece > 0 })
			var pieces []string
			c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(),
				OnDelta: func(s string) { pieces = append(pieces, s) }})
			require.NoError(t, err)
			assert.Equal(t, "Bearer "+echoKey, s.Requests()[0].Header.Get("Authorization"))
			want := "Your key is Bearer [redacted]. Séverine’s eyes are green."
			assert.Equal(t, want, c.Message.Content)
			if tt.piece > 0 {
				assert.Equal(t, want, strings.Join(pieces, ""))
				for _, piece := range pieces {
					assert.True(t, utf8.ValidString(piece), "pieces end on whole characters")
				}
			}
		})
	}
}
