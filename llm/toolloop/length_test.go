package toolloop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestAnswerCutAtTheTokenLimitIsTold: a reply that ends because the model
// reached its output-token limit is told as such in a warning, with the
// setting to raise, never retried with a nudge to answer (a thinking
// model would spend the retry thinking too). The answer is the model's
// text alone: what quire says goes in the warnings.
//
// Chat Completions: finish_reason "length"
// (https://platform.openai.com/docs/api-reference/chat/object);
// DeepSeek's thinking models spend max_tokens on reasoning_content first
// (https://api-docs.deepseek.com/guides/thinking_mode). Responses API:
// status "incomplete", incomplete_details.reason "max_output_tokens"
// (https://platform.openai.com/docs/api-reference/responses/object).
func TestAnswerCutAtTheTokenLimitIsTold(t *testing.T) {
	tests := []struct {
		name      string
		responses bool
		body      string
		// answer is "" when the turn fails for want of one.
		answer  string
		setting string
	}{
		{name: "chat, reasoning only", setting: "provider.options.max_tokens",
			body: providertest.CompletionBody(map[string]any{"role": "assistant", "content": "", "reasoning_content": "Let me think about Mara at length…"}, "length")},
		{name: "chat, cut answer", setting: "provider.options.max_tokens", answer: "Mara is older, because",
			body: providertest.CompletionBody(map[string]any{"role": "assistant", "content": "Mara is older, because"}, "length")},
		{name: "responses, reasoning only", responses: true, setting: "provider.options.max_output_tokens",
			body: `{"id":"resp_1","object":"response","created_at":1,"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"model":"o4-mini","output":[{"type":"reasoning","id":"rs_1","summary":[]}],"usage":{"input_tokens":50,"output_tokens":64,"output_tokens_details":{"reasoning_tokens":64}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, providertest.Step{Body: tt.body}, providertest.TextStep("a nudged answer"))
			p := scriptedProvider(t, s)
			if tt.responses {
				p = responsesProvider(t, s)
			}
			res, err := Run(t.Context(), p, nil, loopMessages(), Options{})
			assert.Len(t, s.Requests(), 1, "not retried")
			if tt.answer == "" {
				require.Error(t, err)
				var cut *OutOfTokensError
				require.ErrorAs(t, err, &cut)
				assert.Contains(t, err.Error(), "output-token limit")
				assert.Contains(t, err.Error(), tt.setting)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.answer, res.Answer)
			require.Len(t, res.Warnings, 1)
			assert.Contains(t, res.Warnings[0], "output-token limit")
			assert.Contains(t, res.Warnings[0], tt.setting)
		})
	}
}
