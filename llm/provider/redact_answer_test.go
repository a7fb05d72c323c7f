package provider

import (
	"encoding/json"
	"fmt"
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

// deepSeekShapedKey is shaped as DeepSeek's keys are: "sk-" and 32
// lower-case hexadecimal digits, so no lookalike rule (mixed case and
// digits) can take out a piece of it; only its being the key can.
const deepSeekShapedKey = "sk-4f0c2b9e8d7a61534e2f0a9b8c7d6e5f"

// TestAnswerNeverCarriesAPieceOfTheKey: a provider answering 200 with
// the key cut (without its sk- prefix, or its head or tail alone) gets
// every run of keyRunLen or more of its characters taken out of the
// answer, whole or streamed in pieces that split it anywhere, and out of
// the interim text and a cut-off answer's partial text; a shorter run
// is no secret and stays.
func TestAnswerNeverCarriesAPieceOfTheKey(t *testing.T) {
	key := deepSeekShapedKey
	tests := []struct {
		name, answer, want string
	}{
		{name: "without its prefix", answer: "Your key is " + key[3:] + ". Mara’s eyes are green.",
			want: "Your key is [redacted]. Mara’s eyes are green."},
		{name: "its head", answer: "It starts " + key[:keyRunLen] + "…",
			want: "It starts [redacted]…"},
		{name: "a middle piece glued to other text", answer: "x" + key[9:9+keyRunLen+5] + "y",
			want: "x[redacted]y"},
		{name: "twice, the second time whole", answer: key[5:] + " and " + key,
			want: "[redacted] and [redacted]"},
		{name: "a run shorter than the rule", answer: "tail " + key[len(key)-keyRunLen+1:],
			want: "tail " + key[len(key)-keyRunLen+1:]},
	}
	for _, tt := range tests {
		for _, piece := range []int{0, 1, 3, 7} {
			t.Run(fmt.Sprintf("%s, pieces of %d", tt.name, piece), func(t *testing.T) {
				step := providertest.TextStep(tt.answer)
				if piece > 0 {
					step = providertest.Step{SSE: chatSSEText(tt.answer, piece)}
				}
				s := providertest.New(t, step)
				p := scriptedProvider(t, s, func(c *Config) { c.APIKey = key; c.Stream = piece > 0 })
				var pieces []string
				c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(),
					OnDelta: func(s string) { pieces = append(pieces, s) }})
				require.NoError(t, err)
				assert.Equal(t, tt.want, c.Message.Content)
				if piece > 0 {
					assert.Equal(t, tt.want, strings.Join(pieces, ""))
				}
			})
		}
	}
}

// TestInterimAndPartialTextNeverCarryAPieceOfTheKey: the Responses API's
// commentary (interim text) and a stream cut off mid-answer are text the
// writer sees too.
func TestInterimAndPartialTextNeverCarryAPieceOfTheKey(t *testing.T) {
	key := deepSeekShapedKey
	cut := key[3:]
	t.Run("interim", func(t *testing.T) {
		body := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"m","output":[` +
			`{"type":"message","id":"msg_1","role":"assistant","phase":"commentary","content":[{"type":"output_text","text":"Checking ` + cut + `."}]},` +
			`{"type":"message","id":"msg_2","role":"assistant","phase":"final_answer","content":[{"type":"output_text","text":"Green."}]}],` +
			`"usage":{"input_tokens":1,"output_tokens":1}}`
		s := providertest.New(t, providertest.Step{Body: body})
		p := scriptedProvider(t, s, func(c *Config) { c.APIKey = key; c.API = APIResponses })
		c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()})
		require.NoError(t, err)
		assert.Equal(t, []string{"Checking [redacted]."}, c.Interim)
	})
	t.Run("partial", func(t *testing.T) {
		piece, _ := json.Marshal("Your key is " + cut)
		sse := "data: " + `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` + string(piece) + `},"finish_reason":null}]}` + "\n\n"
		s := providertest.New(t, providertest.Step{SSE: sse})
		p := scriptedProvider(t, s, func(c *Config) { c.APIKey = key; c.Stream = true })
		var streamed string
		_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages(), OnDelta: func(s string) { streamed += s }})
		var cutOff *CutOffError
		require.ErrorAs(t, err, &cutOff)
		assert.Equal(t, "Your key is [redacted]", cutOff.Partial)
		assert.Equal(t, "Your key is [redacted]", streamed)
	})
}

// TestRedactKeyRuns: the rule itself, on text no provider sent.
func TestRedactKeyRuns(t *testing.T) {
	key := deepSeekShapedKey
	tests := []struct {
		name string
		keys []string
		in   string
		want string
	}{
		{name: "no key", in: key, want: key},
		{name: "a key too short to look for", keys: []string{"abc"}, in: "abc abc", want: "abc abc"},
		{name: "a short key, whole only", keys: []string{"hunter22"}, in: "hunter22 hunter2", want: "[redacted] hunter2"},
		{name: "the whole key", keys: []string{key}, in: "k=" + key + ";", want: "k=[redacted];"},
		{name: "overlapping runs make one", keys: []string{key}, in: key[:20] + key[10:30], want: "[redacted]"},
		{name: "runs of two keys side by side", keys: []string{key, "ZYXWVUTSRQPONMLKJIHG"}, in: key[3:20] + "ZYXWVUTSRQPONM", want: "[redacted]"},
		{name: "just under the rule", keys: []string{key}, in: key[3 : 3+keyRunLen-1], want: key[3 : 3+keyRunLen-1]},
		{name: "prose around", keys: []string{key}, in: "Séverine’s " + key[4:4+keyRunLen] + " — fin", want: "Séverine’s [redacted] — fin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, redactKeys(tt.in, tt.keys))
		})
	}
}
