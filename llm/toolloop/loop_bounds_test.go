package toolloop

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/llm/provider"
)

// evalProvider is a provider pointed at an evalserver.Server loaded with steps:
// the real openai-go client over HTTP.
func evalProvider(t *testing.T, stream bool, steps ...evalserver.Step) (*provider.Provider, *evalserver.Server) {
	t.Helper()
	s, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.Load(steps)
	p, err := provider.New(provider.Config{BaseURL: s.BaseURL(), Model: "scripted", Tools: true, Retries: -1, Stream: stream})
	require.NoError(t, err)
	return p, s
}

// TestCutStreamIsAnError: a stream that stops in the middle of the answer
// (no finish reason, no [DONE]) is an error that keeps what arrived.
func TestCutStreamIsAnError(t *testing.T) {
	answer := "Mara's eyes are green in the codex, and in chapter five they are"
	p, _ := evalProvider(t, true, evalserver.Step{Body: evalserver.Body(map[string]any{"role": "assistant", "content": answer}, ""), Cut: true})
	var streamed strings.Builder
	res, err := Run(t.Context(), p, newLoopTools(t).reg, loopMessages(), Options{
		OnDelta: func(_ int, text string) { streamed.WriteString(text) }})
	require.Error(t, err)
	assert.Nil(t, res)
	assert.Contains(t, err.Error(), "the model's answer was cut off")
	var cut *provider.CutOffError
	require.ErrorAs(t, err, &cut)
	assert.Equal(t, answer, cut.Partial, "what arrived is kept")
	assert.Equal(t, answer, streamed.String())
}

// TestCompleteStreamsStillPass: a finish reason without [DONE], or [DONE]
// without a finish reason, ends a stream properly.
func TestCompleteStreamsStillPass(t *testing.T) {
	p, _ := evalProvider(t, true, evalserver.Text("All of it."), evalserver.Step{Body: evalserver.Body(map[string]any{"role": "assistant", "content": "Done, no reason."}, "")})
	c, err := p.Complete(t.Context(), provider.CompletionRequest{Messages: loopMessages()})
	require.NoError(t, err)
	assert.Equal(t, "All of it.", c.Message.Content)
	c, err = p.Complete(t.Context(), provider.CompletionRequest{Messages: loopMessages()})
	require.NoError(t, err)
	assert.Equal(t, "Done, no reason.", c.Message.Content)
}

// TestToolCallsPerRoundAreCapped: of a hundred calls in one reply, only
// the first few run; every other one is answered "not run", and the
// follow-up request stays small.
func TestToolCallsPerRoundAreCapped(t *testing.T) {
	for _, tt := range []struct {
		name string
		lim  Limits
		want int
	}{
		{name: "default", want: DefaultMaxCallsPerRound},
		{name: "configured", lim: Limits{MaxCallsPerRound: 3}, want: 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			calls := make([]evalserver.Call, 100)
			for i := range calls {
				calls[i] = evalserver.Call{ID: fmt.Sprintf("c%d", i), Name: "search_codex", Args: fmt.Sprintf(`{"query":"bell %d"}`, i)}
			}
			p, s := evalProvider(t, false, evalserver.Calls(calls...), evalserver.Text("Done."))
			tools := newLoopTools(t)
			res, err := Run(t.Context(), p, tools.reg, loopMessages(), Options{Limits: tt.lim})
			require.NoError(t, err)
			assert.Len(t, tools.Ran(), tt.want)
			require.Len(t, res.Trace, 100, "every call is traced")
			for i, row := range res.Trace {
				if i < tt.want {
					assert.True(t, row.OK)
					continue
				}
				assert.Equal(t, CodeTooManyCalls, row.Code)
			}
			reqs := s.Requests()
			require.Len(t, reqs, 2)
			var body struct {
				Messages []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
				} `json:"messages"`
			}
			require.NoError(t, json.Unmarshal(reqs[1].Body, &body))
			var notRun int
			for _, m := range body.Messages {
				if m.Role != string(provider.RoleTool) {
					continue
				}
				var env Envelope
				require.NoError(t, json.Unmarshal([]byte(m.Content), &env))
				if !env.OK {
					require.Len(t, env.Errors, 1)
					assert.Equal(t, CodeTooManyCalls, env.Errors[0].Code)
					assert.Contains(t, env.Errors[0].Message, "not run")
					notRun++
				}
			}
			assert.Equal(t, 100-tt.want, notRun, "every call gets its answer")
			assert.Less(t, len(reqs[1].Body), 64<<10, "the follow-up request stays small")
		})
	}
}

// TestAnswerSizeIsCapped: a 1 MB answer is cut at the limit, streamed or
// not, and a warning says so, with the setting that raises the limit; the
// answer is the model's text alone, with no word of quire's in it. (A
// reply body past provider.MaxReplyBytes is refused whole: the
// provider's reply_bounds_test.)
func TestAnswerSizeIsCapped(t *testing.T) {
	// The scripted server splits a streamed answer three words a chunk
	// before it sends any: 1 MB keeps that quick.
	for _, tt := range []struct {
		stream bool
		size   int
	}{{false, 1 << 20}, {true, 1 << 20}} {
		stream := tt.stream
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			p, _ := evalProvider(t, stream, evalserver.Text(strings.Repeat("salt ", tt.size/5)))
			var streamed int
			res, err := Run(t.Context(), p, nil, loopMessages(), Options{Limits: Limits{MaxAnswerBytes: 64 << 10},
				OnDelta: func(_ int, text string) { streamed += len(text) }})
			require.NoError(t, err)
			assert.LessOrEqual(t, len(res.Answer), 64<<10)
			assert.Equal(t, strings.TrimSpace(strings.Repeat("salt ", tt.size/5)[:len(res.Answer)]), res.Answer,
				"the answer is the model's text, cut, and nothing else")
			require.Len(t, res.Warnings, 1)
			assert.Contains(t, res.Warnings[0], "the answer was cut at 64 KB")
			assert.Contains(t, res.Warnings[0], "limits.answer_bytes")
			assert.LessOrEqual(t, streamed, 64<<10, "no more is passed on than is kept")
		})
	}
}
