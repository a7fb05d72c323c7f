package provider

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestFailedResponseIsToldInWords: a Responses API response can fail
// after the request was taken: 200, "status":"failed" and an error object
// (https://platform.openai.com/docs/api-reference/responses/object, error
// codes such as server_error, rate_limit_exceeded; insufficient_quota when
// the account has no credit). The writer reads what happened and what to
// do, never "provider returned 200".
func TestFailedResponseIsToldInWords(t *testing.T) {
	failed := func(code, msg string) string {
		return `{"id":"resp_f","object":"response","created_at":1,"status":"failed","error":{"code":"` + code + `","message":"` + msg + `"},"incomplete_details":null,"model":"gpt-5.1","output":[],"usage":null}`
	}
	tests := []struct {
		name string
		body string
		want string
	}{
		{name: "out of credit", body: failed("insufficient_quota", "You exceeded your current quota, please check your plan and billing details."),
			want: "out of credit (insufficient_quota), so no answer came; add credit or check the account's plan and billing"},
		{name: "server error", body: failed("server_error", "The model failed to generate a response."),
			want: "could not finish the answer (it said server_error: The model failed to generate a response.); ask again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				step := providertest.Step{Body: tt.body}
				if stream {
					step = providertest.Step{SSE: "event: response.failed\ndata: {\"type\":\"response.failed\",\"sequence_number\":0,\"response\":" + tt.body + "}\n\n"}
				}
				s := providertest.New(t, step)
				p := scriptedProvider(t, s, func(c *Config) { c.API = APIResponses; c.Stream = stream })
				_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()})
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				assert.NotContains(t, err.Error(), "provider returned 200")
			}
		})
	}
}
