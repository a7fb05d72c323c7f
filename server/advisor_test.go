package server

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
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// fakeStep is one scripted chat completion: its body, and optionally a
// gate it waits on (or the request's end) before answering.
type fakeStep struct {
	body string
	gate chan struct{}
	// status, when set, is an error status sent with body.
	status int
	// cut streams body's content and stops without a finish reason or
	// [DONE].
	cut bool
}

// fakeLLM is an OpenAI-compatible chat completions server replaying a
// script and recording every request body.
type fakeLLM struct {
	srv    *httptest.Server
	mu     sync.Mutex
	steps  []fakeStep
	bodies []map[string]any
	// auth are the requests' Authorization headers.
	auth    []string
	started chan struct{}
}

func newFakeLLM(t *testing.T, steps ...fakeStep) *fakeLLM {
	f := &fakeLLM{steps: steps, started: make(chan struct{}, 16)}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/v1/responses" {
			http.NotFound(w, r)
			return
		}
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		if len(f.steps) == 0 {
			f.mu.Unlock()
			http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusBadRequest)
			return
		}
		step := f.steps[0]
		f.steps = f.steps[1:]
		f.mu.Unlock()
		f.started <- struct{}{}
		if step.gate != nil {
			select {
			case <-step.gate:
			case <-r.Context().Done():
				return
			}
		}
		if step.status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(step.status)
			_, _ = io.WriteString(w, step.body)
			return
		}
		if step.cut {
			evalserver.WriteCutStream(w, step.body)
			return
		}
		evalserver.WriteScriptedReply(w, http.StatusOK, step.body, evalserver.WantsStream(data))
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeLLM) baseURL() string { return f.srv.URL + "/v1" }

func (f *fakeLLM) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func (f *fakeLLM) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-f.started:
	case <-time.After(wireTimeout):
		t.Fatal("the provider was not called")
	}
}

func chatBody(t *testing.T, msg map[string]any, finish string) string {
	b, err := json.Marshal(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
	require.NoError(t, err)
	return string(b)
}

func answerStep(t *testing.T, text string) fakeStep {
	return fakeStep{body: chatBody(t, map[string]any{"role": "assistant", "content": text}, "stop")}
}

// callStep asks for tools, each a name and its JSON arguments.
func callStep(t *testing.T, calls ...[2]string) fakeStep {
	var tc []any
	for i, c := range calls {
		tc = append(tc, map[string]any{"id": "call" + string(rune('a'+i)), "type": "function",
			"function": map[string]any{"name": c[0], "arguments": c[1]}})
	}
	return fakeStep{body: chatBody(t, map[string]any{"role": "assistant", "content": nil, "tool_calls": tc}, "tool_calls")}
}

// advisorBook is the test book with its provider pointing at f.
func advisorBook(t *testing.T, f *fakeLLM) string {
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["quire.yaml"] = "title: The Salt Ledger\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  tools: true\n  retries: 0\n"
	return writeProject(t, files)
}

// advisorClient starts a wire client and initializes it for root, with
// work-done progress and the given initializationOptions.
func advisorClient(t *testing.T, root string, initOptions any) *wireClient {
	return advisorClientWith(t, Options{}, root, initOptions)
}

// advisorClientWith is advisorClient with the server's options.
func advisorClientWith(t *testing.T, opts Options, root string, initOptions any) *wireClient {
	t.Setenv("OPENAI_API_KEY", "")
	c := startWire(t, opts)
	c.root = root
	m := c.call("init", protocol.MethodInitialize, map[string]any{
		"rootUri":               textdoc.PathURI(root),
		"workspaceFolders":      []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
		"capabilities":          protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
		"initializationOptions": initOptions,
	})
	require.Nil(t, m.Error, "initialize: %s", m)
	c.notify(protocol.MethodInitialized, map[string]any{})
	return c
}

// heldNotes returns the notifications with method received so far.
func (c *wireClient) heldNotes(method string) []json.RawMessage {
	c.pendingResponse("none")
	var out []json.RawMessage
	for _, m := range c.held {
		if m.Method == method && (len(m.ID) == 0 || string(m.ID) == "null") {
			out = append(out, m.Params)
		}
	}
	return out
}

// progressOf returns the $/progress values sent on token (JSON text).
func (c *wireClient) progressOf(token string) []progressValue {
	var out []progressValue
	for _, raw := range c.heldNotes(protocol.MethodProgress) {
		var p struct {
			Token json.RawMessage `json:"token"`
			Value progressValue   `json:"value"`
		}
		if json.Unmarshal(raw, &p) == nil && string(p.Token) == token {
			out = append(out, p.Value)
		}
	}
	return out
}

func decodeAsk(t *testing.T, m wireMsg) wire.AskResult {
	t.Helper()
	require.Nil(t, m.Error, "ask: %s", m)
	var r wire.AskResult
	require.NoError(t, json.Unmarshal(m.Result, &r))
	return r
}

func TestAskStreamsToolRowsAndAnswers(t *testing.T) {
	f := newFakeLLM(t,
		callStep(t,
			[2]string{"get_character_context", `{"name":"Mara"}`},
			[2]string{"propose_codex_update", `{"entryType":"character","name":"Mara Vell","changeSummary":"allies","targetSection":"Allies","proposedMarkdown":"The dockhands."}`}),
		answerStep(t, "Mara is **consistent**."))
	root := advisorBook(t, f)
	c := advisorClient(t, root, nil)

	m := c.call(1, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "Is Mara consistent?",
		"uri": c.uri("manuscript/01-harbor.md"), "workDoneToken": "tok-1"})
	r := decodeAsk(t, m)
	assert.Equal(t, "continuity-editor", r.Persona)
	assert.Equal(t, "Mara is **consistent**.", r.Answer)
	assert.NotEmpty(t, r.ConversationID)
	require.NotEmpty(t, r.Evidence)
	assert.Equal(t, c.uri("codex/characters/mara-vell.md"), r.Evidence[0].URI)
	assert.Equal(t, "get_character_context", r.Evidence[0].Tool)
	assert.True(t, strings.HasPrefix(r.Evidence[0].Hash, "sha256:"), r.Evidence[0].Hash)
	require.Len(t, r.Proposals, 1)
	assert.True(t, strings.HasPrefix(r.Proposals[0], "p-"))

	var kinds, messages []string
	for _, v := range c.progressOf(`"tok-1"`) {
		kinds = append(kinds, v.Kind)
		messages = append(messages, v.Message)
	}
	require.GreaterOrEqual(t, len(kinds), 4, "%v", kinds)
	assert.Equal(t, "begin", kinds[0])
	assert.Equal(t, "end", kinds[len(kinds)-1])
	assert.Contains(t, messages[1], "get_character_context")
	assert.Contains(t, messages, "Mara is **consistent**.", "the answer goes out in a report")

	var rows []json.RawMessage
	for _, n := range c.heldNotes(wire.MethodAskProgress) {
		if strings.Contains(string(n), `"row":`) {
			rows = append(rows, n)
		}
	}
	require.Len(t, rows, 2)
	var row struct {
		Token string       `json:"token"`
		Row   wire.ToolRow `json:"row"`
	}
	require.NoError(t, json.Unmarshal(rows[0], &row))
	assert.Equal(t, "tok-1", row.Token)
	assert.Equal(t, "get_character_context", row.Row.Tool)
	assert.True(t, row.Row.OK)

	// The first request told the model about the book and offered tools.
	reqs := f.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "file-model", reqs[0]["model"])
	assert.NotEmpty(t, reqs[0]["tools"])
}

func TestAskCommandCreatesAProgressToken(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "Fine."))
	c := advisorClient(t, advisorBook(t, f), nil)
	m := c.call(1, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.ask",
		"arguments": []any{map[string]any{"message": "Hello?"}}})
	r := decodeAsk(t, m)
	assert.Equal(t, "Fine.", r.Answer)
	assert.Equal(t, llm.ResolvePersona("").ID, r.Persona)
	assert.NotEmpty(t, c.progressOf(`"ask 2"`))
	var created bool
	for _, h := range c.held {
		created = created || h.Method == protocol.MethodWorkDoneProgressCreate && strings.Contains(string(h.Params), "ask 2")
	}
	assert.True(t, created)
}

func TestHoverAnswersWhileAnAskWaits(t *testing.T) {
	gate := make(chan struct{})
	slow := answerStep(t, "Slowly.")
	slow.gate = gate
	f := newFakeLLM(t, slow)
	c := advisorClient(t, advisorBook(t, f), nil)
	c.request("ask", wire.MethodAsk, map[string]any{"message": "Take your time."})
	f.waitStarted(t)
	require.NotNil(t, c.hover("h", c.uri("manuscript/01-harbor.md"), 2, 1))
	assert.False(t, c.pendingResponse("ask"))
	close(gate)
	assert.Equal(t, "Slowly.", decodeAsk(t, c.response("ask")).Answer)
}

func TestAskCancelled(t *testing.T) {
	for _, how := range []string{"cancelRequest", "workDoneProgress/cancel"} {
		t.Run(how, func(t *testing.T) {
			gate := make(chan struct{})
			defer close(gate)
			slow := answerStep(t, "never")
			slow.gate = gate
			f := newFakeLLM(t, slow)
			c := advisorClient(t, advisorBook(t, f), nil)
			c.request(9, wire.MethodAsk, map[string]any{"message": "Take your time.", "workDoneToken": 42})
			f.waitStarted(t)
			if how == "cancelRequest" {
				c.notify(protocol.MethodCancelRequest, map[string]any{"id": 9})
			} else {
				c.notify(protocol.MethodWorkDoneProgressCancel, map[string]any{"token": 42})
			}
			m := c.response(9)
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, protocol.CodeRequestCancelled, m.code())
			vs := c.progressOf("42")
			require.NotEmpty(t, vs)
			assert.True(t, vs[0].Cancellable)
			assert.Equal(t, "end", vs[len(vs)-1].Kind)
		})
	}
}

func TestConversationHistoryIsSent(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "First answer."), answerStep(t, "Second answer."))
	c := advisorClient(t, advisorBook(t, f), nil)
	r1 := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "First question?"}))
	r2 := decodeAsk(t, c.call(2, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "Second question?", "conversationId": r1.ConversationID}))
	assert.Equal(t, r1.ConversationID, r2.ConversationID)
	reqs := f.requests()
	require.Len(t, reqs, 2)
	second, _ := json.Marshal(reqs[1]["messages"])
	assert.Contains(t, string(second), "First question?")
	assert.Contains(t, string(second), "First answer.")
	first, _ := json.Marshal(reqs[0]["messages"])
	assert.NotContains(t, string(first), "Second question?")

	// Another persona cannot continue it.
	m := c.call(3, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "x", "conversationId": r1.ConversationID})
	require.NotNil(t, m.Error)
	assert.Equal(t, jsonrpc2.InvalidParams, m.code())
}

func TestConversationHistoryIsBounded(t *testing.T) {
	var a conversations
	id, _, err := a.conversation("", nil, "p")
	require.NoError(t, err)
	for range 10 {
		a.remember(id, "", provider.Message{Role: provider.RoleUser, Content: "q"}, provider.Message{Role: provider.RoleAssistant, Content: "a"})
	}
	_, h, err := a.conversation(id, nil, "p")
	require.NoError(t, err)
	assert.Len(t, h, historyMessages)
	assert.Equal(t, provider.RoleUser, h[0].Role)
}

func TestPeekPromptSendsNothing(t *testing.T) {
	f := newFakeLLM(t)
	c := advisorClient(t, advisorBook(t, f), nil)
	for i, method := range []string{wire.MethodPeekPrompt, protocol.MethodWorkspaceExecuteCommand} {
		args := map[string]any{"persona": "first-time-reader", "message": "What do you see?", "uri": c.uri("manuscript/02-storm.md")}
		var params any = args
		if method == protocol.MethodWorkspaceExecuteCommand {
			params = map[string]any{"command": "quire.peekPrompt", "arguments": []any{args}}
		}
		m := c.call(i+1, method, params)
		require.Nil(t, m.Error, "%s", m)
		var body map[string]any
		require.NoError(t, json.Unmarshal(m.Result, &body))
		assert.Equal(t, "file-model", body["model"])
		msgs, _ := json.Marshal(body["messages"])
		assert.Contains(t, string(msgs), "What do you see?")
	}
	assert.Empty(t, f.requests())
}

func TestPersonas(t *testing.T) {
	f := newFakeLLM(t)
	c := advisorClient(t, advisorBook(t, f), nil)
	m := c.call(1, wire.MethodPersonas, nil)
	require.Nil(t, m.Error, "%s", m)
	var got []wire.Persona
	require.NoError(t, json.Unmarshal(m.Result, &got))
	require.Len(t, got, len(llm.Personas()))
	for _, p := range got {
		assert.NotEmpty(t, p.ID)
		assert.NotEmpty(t, p.Name)
		assert.NotEmpty(t, p.Focus)
	}
}

func TestClientSettingsOverrideQuireYAML(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "From the client's model."), answerStep(t, "Again."))
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["quire.yaml"] = "provider:\n  base_url: http://127.0.0.1:1/v1\n  model: file-model\n"
	root := writeProject(t, files)
	c := advisorClient(t, root, map[string]any{
		"provider": map[string]any{"baseUrl": f.baseURL(), "model": "client-model", "tools": true},
		"persona":  "worldbuilding-auditor",
	})
	r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"message": "Hello?"}))
	assert.Equal(t, "From the client's model.", r.Answer)
	assert.Equal(t, "worldbuilding-auditor", r.Persona, "the client's default persona")
	require.Len(t, f.requests(), 1)
	assert.Equal(t, "client-model", f.requests()[0]["model"])

	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": map[string]any{"quire": map[string]any{
		"provider": map[string]any{"model": "changed-model"}}}})
	r = decodeAsk(t, c.call(2, wire.MethodAsk, map[string]any{"message": "Hello again?"}))
	assert.Equal(t, "Again.", r.Answer)
	assert.Equal(t, "changed-model", f.requests()[1]["model"])
}

func TestAskWithoutProviderSaysHowToConfigure(t *testing.T) {
	c := advisorClient(t, writeProject(t, bookFiles), nil)
	m := c.call(1, wire.MethodAsk, map[string]any{"message": "Hello?"})
	require.NotNil(t, m.Error, "%s", m)
	assert.Equal(t, jsonrpc2.InvalidRequest, m.code())
	assert.Contains(t, m.Error.Message, "no provider is configured")
	assert.Contains(t, m.Error.Message, "base_url")
	assert.Contains(t, m.Error.Message, "quire.yaml")
}

func TestAskRefusesAChangedSelection(t *testing.T) {
	f := newFakeLLM(t)
	c := advisorClient(t, advisorBook(t, f), nil)
	args := map[string]any{
		"message":       "What do you think?",
		"uri":           c.uri("manuscript/02-storm.md"),
		"range":         protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 5}},
		"selectionHash": "sha256:0000",
	}
	for i, method := range []string{wire.MethodPeekPrompt, wire.MethodAsk} {
		m := c.call(i+1, method, args)
		require.NotNil(t, m.Error, method)
		assert.Contains(t, m.Error.Message, "selected text changed")
	}
	assert.Empty(t, f.requests(), "nothing is asked about text the writer no longer has")
}

func TestAskStreamsTheAnswerText(t *testing.T) {
	answer := "Mara’s eyes are green in the codex — and brown in chapter five, which is the slip."
	tests := []struct {
		name     string
		settings string
		streams  bool
	}{
		{name: "streams by default", streams: true},
		{name: "stream off in quire.yaml", settings: "  stream: false\n", streams: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, callStep(t, [2]string{"get_character_context", `{"name":"Mara"}`}), answerStep(t, answer))
			root := advisorBook(t, f)
			if tt.settings != "" {
				yaml, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), append(yaml, tt.settings...), 0o644))
			}
			c := advisorClient(t, root, nil)
			r := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "continuity-editor", "message": "Eyes?",
				"uri": c.uri("manuscript/01-harbor.md"), "workDoneToken": 7}))
			assert.Equal(t, answer, r.Answer)

			var text string
			var pieces, rows int
			for _, raw := range c.heldNotes(wire.MethodAskProgress) {
				var n struct {
					Token json.RawMessage `json:"token"`
					Delta string          `json:"delta"`
					Round int             `json:"round"`
					Row   *wire.ToolRow   `json:"row"`
				}
				require.NoError(t, json.Unmarshal(raw, &n))
				assert.Equal(t, "7", string(n.Token))
				if n.Row != nil {
					rows++
					assert.Zero(t, pieces, "the tool row comes before the answer streams")
					continue
				}
				pieces++
				assert.Equal(t, 2, n.Round, "the answer is the second round")
				text += n.Delta
			}
			assert.Equal(t, 1, rows)
			reqs := f.requests()
			require.Len(t, reqs, 2)
			if !tt.streams {
				assert.Zero(t, pieces)
				assert.NotContains(t, reqs[1], "stream")
				return
			}
			assert.Equal(t, true, reqs[1]["stream"])
			assert.Greater(t, pieces, 1, "the answer arrived in pieces")
			assert.Equal(t, answer, text)
			var reports []string
			for _, v := range c.progressOf("7") {
				if v.Kind == "report" {
					reports = append(reports, v.Message)
				}
			}
			require.NotEmpty(t, reports)
			assert.True(t, strings.HasPrefix(answer, reports[1]), "a report carries the answer so far: %q", reports[1])
			assert.Equal(t, answer, reports[len(reports)-1])
		})
	}
}

// responsesStep is a Responses API reply with text, stored as id.
func responsesStep(t *testing.T, id, text string) fakeStep {
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "response", "created_at": 1700000000, "status": "completed", "model": "test-model",
		"output": []any{map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}},
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
	})
	require.NoError(t, err)
	return fakeStep{body: string(b)}
}

func TestResponsesConversationContinuesTheStoredResponse(t *testing.T) {
	expired := fakeStep{status: http.StatusNotFound, body: `{"error":{"message":"Previous response with id 'resp_1' not found.","type":"invalid_request_error","code":"previous_response_not_found"}}`}
	tests := []struct {
		name  string
		steps []fakeStep
		// resent says the third request carries the history itself.
		resent bool
	}{
		{name: "stored response continued", steps: []fakeStep{responsesStep(t, "resp_1", "First answer."), responsesStep(t, "resp_2", "Second answer.")}},
		{name: "expired response, history resent", resent: true,
			steps: []fakeStep{responsesStep(t, "resp_1", "First answer."), expired, responsesStep(t, "resp_2", "Second answer.")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, tt.steps...)
			root := advisorBook(t, f)
			yaml, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), append(yaml, "  api: responses\n"...), 0o644))
			c := advisorClient(t, root, nil)
			first := decodeAsk(t, c.call(1, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "Opening question?"}))
			assert.Equal(t, "First answer.", first.Answer)
			second := decodeAsk(t, c.call(2, wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "Follow-up?", "conversationId": first.ConversationID}))
			assert.Equal(t, "Second answer.", second.Answer)

			reqs := f.requests()
			require.Len(t, reqs, len(tt.steps))
			assert.NotContains(t, reqs[0], "previous_response_id")
			assert.Equal(t, "resp_1", reqs[1]["previous_response_id"], "the follow-up continues the stored response")
			sent, err := json.Marshal(reqs[1]["input"])
			require.NoError(t, err)
			assert.NotContains(t, string(sent), "Opening question?", "and does not resend the history")
			assert.Contains(t, string(sent), "Follow-up?")
			if tt.resent {
				last := reqs[2]
				assert.NotContains(t, last, "previous_response_id")
				sent, err := json.Marshal(last["input"])
				require.NoError(t, err)
				assert.Contains(t, string(sent), "Opening question?")
				assert.Contains(t, string(sent), "First answer.")
			}
		})
	}
}
