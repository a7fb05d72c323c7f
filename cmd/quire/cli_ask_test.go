package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// fakeModel is an OpenAI-compatible endpoint that answers every chat
// completion with the same text and records what it was sent.
type fakeModel struct {
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
	answer string
	// finish is the chat completions' finish reason; "" is "stop".
	finish   string
	endpoint *httptest.Server
}

func newFakeModel(t *testing.T, answer string) *fakeModel {
	f := &fakeModel{answer: answer}
	f.endpoint = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/responses") {
			reply, _ := json.Marshal(map[string]any{
				"id": "resp_next", "object": "response", "created_at": 1, "model": "fake", "status": "completed",
				"output": []any{map[string]any{"type": "message", "id": "m1", "role": "assistant", "status": "completed",
					"content": []any{map[string]any{"type": "output_text", "text": f.answer, "annotations": []any{}}}}},
				"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
			})
			_, _ = w.Write(reply)
			return
		}
		finish := f.finish
		if finish == "" {
			finish = "stop"
		}
		reply, _ := json.Marshal(map[string]any{
			"id": "x", "object": "chat.completion", "created": 1, "model": "fake", "service_tier": "default",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
				"message": map[string]any{"role": "assistant", "content": f.answer}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		})
		_, _ = w.Write(reply)
	}))
	t.Cleanup(f.endpoint.Close)
	return f
}

func TestAskAgainstAnOpenAICompatibleServer(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "Her eyes are green in the codex and brown in chapter 5.")
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	out, _, err := run(t, "ask", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake",
		"--persona", "continuity-editor", "--doc", "manuscript/05-salt-debt.md", "Are her eyes consistent?")
	require.NoError(t, err)
	assert.Contains(t, out, "Continuity Editor")
	assert.Contains(t, out, "brown in chapter 5")
	require.Len(t, model.bodies, 1)
	assert.Empty(t, model.auth[0], "an OpenAI key is never sent to another endpoint")
	assert.Equal(t, false, model.bodies[0]["parallel_tool_calls"])

	t.Setenv("LOCAL_KEY", "sk-local")
	_, _, err = run(t, "ask", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake", "--api-key-env", "LOCAL_KEY", "Hello?")
	require.NoError(t, err)
	assert.Equal(t, "Bearer sk-local", model.auth[1], "the named variable's key, to this endpoint")
}

func TestAskPeekSendsNothing(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "unused")
	out, _, err := run(t, "ask", "--peek", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake",
		"--doc", "manuscript/05-salt-debt.md", "--selection", "0:200", "What do you think?")
	require.NoError(t, err)
	assert.Empty(t, model.bodies, "peek sends nothing")
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &body))
	assert.Equal(t, "fake", body["model"])
	msgs := body["messages"].([]any)
	assert.Contains(t, msgs[1].(map[string]any)["content"], "sha256:", "the context message carries the selection's hash")
	assert.NotContains(t, out, "Séverine Aubrac read Jory", "and no prose")
}

func TestAskNeedsAKeyForOpenAI(t *testing.T) {
	book, cache := sampleProject(t)
	t.Setenv("OPENAI_API_KEY", "")
	_, _, err := run(t, "ask", "--project", book, cache, "Hello?")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OPENAI_API_KEY")
}

func TestAskRecordsProvenanceInTheCacheAndEvidenceInJSON(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "Brown in chapter 5.")
	t.Setenv("LOCAL_KEY", "sk-provenance-must-not-leak")
	out, _, err := run(t, "ask", "--project", book, cache, "--json", "--base-url", model.endpoint.URL+"/v1", "--model", "fake",
		"--api-key-env", "LOCAL_KEY", "Are her eyes consistent?")
	require.NoError(t, err)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Contains(t, res, "evidence")

	dir := strings.TrimPrefix(cache, "--cache-dir=")
	raw, err := os.ReadFile(filepath.Join(dir, "provenance.jsonl"))
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "sk-provenance-must-not-leak")
	assert.NotContains(t, string(raw), "Are her eyes consistent")
	assert.NotContains(t, string(raw), "Brown in chapter 5")
	var rec map[string]any
	require.NoError(t, json.Unmarshal(raw, &rec))
	assert.Equal(t, "fake", rec["model"])
	_, err = os.Stat(filepath.Join(book, "provenance.jsonl"))
	assert.True(t, os.IsNotExist(err), "nothing is written in the project")
}

func TestAskContinuesAConversationWithTheResponsesAPI(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "As I said, green.")
	out, errOut, err := run(t, "ask", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake",
		"--api", "responses", "--continue", "resp_first", "And in chapter 5?")
	require.NoError(t, err)
	assert.Contains(t, out, "As I said, green.")
	assert.Contains(t, errOut, "--continue resp_next", "the id to continue with is printed")
	require.Len(t, model.bodies, 1)
	assert.Equal(t, "resp_first", model.bodies[0]["previous_response_id"])
	assert.NotEmpty(t, model.bodies[0]["instructions"], "the persona goes in instructions")
}

func TestAskReadsTheProviderFromQuireYAML(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "From the file.")
	cfg, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	cfg = append(cfg, []byte("provider:\n  base_url: "+model.endpoint.URL+"/v1\n  model: from-file\n  api_key_env: FILE_KEY\n  options: {temperature: 0.25}\n")...)
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), cfg, 0o644))
	t.Setenv("FILE_KEY", "sk-file")
	// The book names a key to send: it applies once trusted.
	testhome.ConfigDir(t)
	_, _, err = run(t, "trust", book)
	require.NoError(t, err)

	out, _, err := run(t, "ask", "--project", book, cache, "Hello?")
	require.NoError(t, err)
	assert.Contains(t, out, "From the file.")
	require.Len(t, model.bodies, 1)
	assert.Equal(t, "from-file", model.bodies[0]["model"])
	assert.Equal(t, 0.25, model.bodies[0]["temperature"], "request options from the file")
	assert.Equal(t, "Bearer sk-file", model.auth[0])

	_, _, err = run(t, "ask", "--project", book, cache, "--model", "from-flag", "Hello?")
	require.NoError(t, err)
	assert.Equal(t, "from-flag", model.bodies[1]["model"], "a flag overrides the file")

	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("provider:\n  api_key: sk-oops\n"), 0o644))
	_, _, err = run(t, "ask", "--project", book, cache, "Hello?")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "never put an API key")
}

func TestAskReportsTheServiceTier(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "Fine.")
	out, _, err := run(t, "ask", "--json", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake", "Hello?")
	require.NoError(t, err)
	var got struct {
		ServiceTier string `json:"serviceTier"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "default", got.ServiceTier)
}

func TestAskStreamsTheAnswerToTheTerminal(t *testing.T) {
	book, cache := sampleProject(t)
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	answer := "Her eyes are green in the codex and brown in chapter 5, which is the slip."
	body, err := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}}})
	require.NoError(t, err)
	tests := []struct {
		name   string
		args   []string
		stream bool
	}{
		{name: "--stream", args: []string{"--stream"}, stream: true},
		{name: "off by default", stream: false},
		{name: "--json never streams", args: []string{"--stream", "--json"}, stream: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model.Load([]evalserver.Step{{Body: string(body)}})
			args := append([]string{"ask", "--project", book, cache, "--base-url", model.BaseURL(), "--model", "fake",
				"--persona", "continuity-editor", "Eyes?"}, tt.args...)
			out, _, err := run(t, args...)
			require.NoError(t, err)
			reqs := model.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, tt.stream, evalserver.WantsStream(reqs[0].Body))
			if strings.Contains(strings.Join(tt.args, " "), "--json") {
				assert.Contains(t, out, `"answer": "Her eyes`)
				return
			}
			assert.Equal(t, "Continuity Editor:\n\n"+answer+"\n", out, "the answer printed once, streamed or not")
		})
	}
}

// TestAskErrorNeverShowsTheKey: a provider whose 401 echoes the key gets
// the refusal told on stderr, without the key.
func TestAskErrorNeverShowsTheKey(t *testing.T) {
	book, cache := sampleProject(t)
	const key = "qk9Zt7LmW2xR4vB8nP6cH3"
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	model.Load([]evalserver.Step{{Status: http.StatusUnauthorized,
		Body: `{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error","code":"invalid_api_key"}}`}})
	t.Setenv("HOSTILE_TEST_KEY", key)
	stdout, stderr, err := run(t, "ask", "--project", book, cache, "--base-url", model.BaseURL(), "--model", "fake",
		"--api-key-env", "HOSTILE_TEST_KEY", "-v", "Eyes?")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "401")
	for _, text := range []string{err.Error(), stdout, stderr} {
		assert.NotContains(t, text, key)
		assert.NotContains(t, text, key[:8])
	}
}

// TestAskCutStreamFails: a streamed answer that stops before the model
// finished exits with an error, the partial text marked as such.
func TestAskCutStreamFails(t *testing.T) {
	book, cache := sampleProject(t)
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	partial := "Her eyes are green in the codex and in chapter five they are"
	body, err := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "", "message": map[string]any{"role": "assistant", "content": partial}}}})
	require.NoError(t, err)
	model.Load([]evalserver.Step{{Body: string(body), Cut: true}})
	out, _, err := run(t, "ask", "--project", book, cache, "--base-url", model.BaseURL(), "--model", "fake",
		"--persona", "continuity-editor", "--stream", "Eyes?")
	require.Error(t, err, "a cut answer is not an answer")
	assert.Contains(t, err.Error(), "the model's answer was cut off")
	assert.Contains(t, out, partial)
	assert.Contains(t, out, "[partial: the model's answer was cut off here]")
}

// TestAskVerboseBoundsModelStrings: a model's 10,000-character tool name
// is cut to 200 characters in every -v line (trace rows, logged bodies).
func TestAskVerboseBoundsModelStrings(t *testing.T) {
	book, cache := sampleProject(t)
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	name := strings.Repeat("n", 10_000)
	call, err := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{"role": "assistant", "content": nil,
			"tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": name, "arguments": "{}"}}}}}}})
	require.NoError(t, err)
	answer, err := json.Marshal(map[string]any{"id": "y", "object": "chat.completion", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": "Done."}}}})
	require.NoError(t, err)
	model.Load([]evalserver.Step{{Body: string(call)}, {Body: string(answer)}})
	_, stderr, err := run(t, "ask", "--project", book, cache, "--base-url", model.BaseURL(), "--model", "fake",
		"--persona", "continuity-editor", "-v", "Eyes?")
	require.NoError(t, err)
	require.Contains(t, stderr, "round 1")
	// quire's own request (the tool schemas) may make a long line; the
	// model's string may not.
	for _, line := range strings.Split(stderr, "\n") {
		assert.NotContains(t, line, strings.Repeat("n", 201), "a -v line: %.120s…", line)
	}
}

// TestAskTellsTheContinuityEditorTheChecksAsSet: quire ask hands the
// book's checks: settings to the turn, so a check the writer turned off
// in quire.yaml is not put before the continuity editor.
func TestAskTellsTheContinuityEditorTheChecksAsSet(t *testing.T) {
	tests := []struct {
		name, yaml string
		finds      bool
	}{
		{name: "default levels", finds: true},
		{name: "trait check off", yaml: "checks: {trait-contradiction: off}\n", finds: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book, cache := sampleProject(t)
			if tt.yaml != "" {
				f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
				require.NoError(t, err)
				_, err = f.WriteString(tt.yaml)
				require.NoError(t, err)
				require.NoError(t, f.Close())
			}
			model := newFakeModel(t, "unused")
			out, _, err := run(t, "ask", "--peek", "--project", book, cache, "--base-url", model.endpoint.URL+"/v1", "--model", "fake",
				"--persona", "continuity-editor", "--doc", "manuscript/05-salt-debt.md", "Anything off here?")
			require.NoError(t, err)
			if tt.finds {
				assert.Contains(t, out, "trait-contradiction")
			} else {
				assert.NotContains(t, out, "trait-contradiction")
			}
		})
	}
}

// TestAskRefusesAPersonaNobodyHas: `quire ask --persona` with a name no
// advisor has is refused in the words the server refuses it with, and
// nothing is sent; before, the default advisor answered in its place.
func TestAskRefusesAPersonaNobodyHas(t *testing.T) {
	book, cache := sampleProject(t)
	model := newFakeModel(t, "unused")
	for _, peek := range []bool{false, true} {
		args := []string{"ask", "--project", book, cache, "--base-url", model.endpoint.URL + "/v1", "--model", "fake", "--persona", "continuity-edtior", "Hello?"}
		if peek {
			args = append(args, "--peek")
		}
		_, _, err := run(t, args...)
		require.Error(t, err)
		assert.Equal(t, (&llm.UnknownPersonaError{ID: "continuity-edtior"}).Error(), err.Error())
		assert.Contains(t, err.Error(), `There is no persona "continuity-edtior"; the advisors are developmental-editor,`)
	}
	assert.Empty(t, model.bodies, "nothing is sent")
}

// TestAskJSONAnswerIsTheModelsTextOnly: an answer cut by the model's
// output-token limit (finish_reason "length",
// https://platform.openai.com/docs/api-reference/chat/object) or by
// limits.answer_bytes is, in --json, the model's text and nothing else:
// the cut is told in warnings, which a plugin shows as quire's. The
// plain output tells the writer too, on stderr.
func TestAskJSONAnswerIsTheModelsTextOnly(t *testing.T) {
	tests := []struct {
		name, finish, limits string
		answer, want, warn   string
	}{
		{name: "output-token limit", finish: "length", answer: "Mara is older, because",
			want: "Mara is older, because", warn: "provider.options.max_tokens"},
		{name: "answer_bytes", limits: "limits: {answer_bytes: 12}\n", answer: "Mara is older than Ilse.",
			want: "Mara is olde", warn: "limits.answer_bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book, cache := sampleProject(t)
			if tt.limits != "" {
				cfg, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), append(cfg, tt.limits...), 0o644))
			}
			model := newFakeModel(t, tt.answer)
			model.finish = tt.finish
			args := []string{"ask", "--project", book, cache, "--base-url", model.endpoint.URL + "/v1", "--model", "fake", "--tools", "off", "Who is older?"}
			out, _, err := run(t, append(args, "--json")...)
			require.NoError(t, err)
			var res struct {
				Answer   string   `json:"answer"`
				Warnings []string `json:"warnings"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &res))
			assert.Equal(t, tt.want, res.Answer)
			require.Len(t, res.Warnings, 1)
			assert.Contains(t, res.Warnings[0], "cut")
			assert.Contains(t, res.Warnings[0], tt.warn)

			out, stderr, err := run(t, args...)
			require.NoError(t, err)
			assert.Contains(t, out, tt.want)
			assert.NotContains(t, out, "[quire")
			assert.Contains(t, stderr, tt.warn, "the writer is told the answer was cut")
		})
	}
}

// TestAskRunsTheCallAQwenModelWroteInItsReasoning: a Qwen model served
// by vLLM that writes its tool call inside its reasoning, with no
// content (the replay's sources: llm/toolloop's
// TestQwenCallsInTheReasoningRun), has that call run with no quirk set
// by the writer, and answers from it; --quirks none turns the default off,
// and the empty reply is asked again without tools, as before.
func TestAskRunsTheCallAQwenModelWroteInItsReasoning(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		calls int
	}{
		{name: "by default", calls: 1},
		{name: "--quirks none", args: []string{"--quirks", "none"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			book, cache := sampleProject(t)
			s := providertest.New(t, providertest.Replay(t, "qwen3.5-vllm-reasoning-xml.json"), providertest.TextStep("Mara is older."))
			args := append([]string{"ask", "--project", book, cache, "--base-url", s.BaseURL(), "--model", "Qwen/Qwen3.5-35B-A3B",
				"-v", "--json", "Who is older?"}, tt.args...)
			out, _, err := run(t, args...)
			require.NoError(t, err)
			var res struct {
				Answer string `json:"answer"`
				Trace  []struct {
					Tool string `json:"Tool"`
				} `json:"trace"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &res), out)
			assert.Equal(t, "Mara is older.", res.Answer)
			require.Len(t, res.Trace, tt.calls)
			require.Len(t, s.Requests(), 2)
			_, withTools := s.Requests()[1].Decoded(t)["tools"]
			if tt.calls == 1 {
				assert.Equal(t, "get_character_context", res.Trace[0].Tool)
				assert.True(t, withTools, "the second request goes on with the tools")
				assert.Contains(t, string(s.Requests()[1].Body), `"role":"tool"`)
			} else {
				assert.False(t, withTools, "the empty reply's retry, without tools")
			}
		})
	}
}
