package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// Step is one scripted answer of the fake chat completions server.
type Step struct {
	// Status defaults to 200.
	Status int
	// Body is the raw response body; when empty, Reply is encoded.
	Body  string
	Reply *Reply
	// Header is added to the response (e.g. Retry-After).
	Header map[string]string
	// Delay holds the answer back (or until the client gives up).
	Delay time.Duration
	// SSE, when set, is sent verbatim as a text/event-stream body, on
	// either API: the events exactly as a provider's documentation shows
	// them, split where that provider splits them.
	SSE string
}

// Reply is a structured assistant reply.
type Reply struct {
	Content      *string
	Calls        []Call
	FinishReason string
	// ResponseID names the response of a Responses API reply; "" means
	// resp_<step number>, "-" no id at all.
	ResponseID string
}

// Call is one tool call of a structured reply.
type Call = evalserver.Call

// Request is one request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Decoded returns the request body as generic JSON.
func (r Request) Decoded(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

// Server is an OpenAI-compatible httptest server replaying a
// script of responses and recording every request.
type Server struct {
	t      testing.TB
	srv    *httptest.Server
	script evalserver.Script[Step, Request]
}

func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := &Server{t: t}
	s.script.Load(steps)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handle)
	mux.HandleFunc("POST /chat/completions", s.handle)
	mux.HandleFunc("POST /v1/responses", s.handle)
	mux.HandleFunc("POST /responses", s.handle)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// Repeat makes the script replay forever without recording requests.
func (s *Server) Repeat() { s.script.Repeat() }

// BaseURL is the API root including /v1.
func (s *Server) BaseURL() string { return s.srv.URL + "/v1" }

func (s *Server) Requests() []Request { return s.script.Requests() }

// Remaining is how many steps were not played.
func (s *Server) Remaining() int { return s.script.Remaining() }

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	step, n, ok := s.script.Take(Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	if !ok {
		s.t.Errorf("scripted server: unexpected request %d: %s", n, body)
		writeJSON(w, http.StatusInternalServerError, `{"error":{"message":"script exhausted","type":"server_error"}}`, nil)
		return
	}
	if step.Delay > 0 {
		select {
		case <-time.After(step.Delay):
		case <-r.Context().Done():
			return
		}
	}
	status := step.Status
	if status == 0 {
		status = http.StatusOK
	}
	if step.SSE != "" {
		for k, v := range step.Header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, step.SSE)
		return
	}
	text := step.Body
	if text == "" && step.Reply != nil {
		if strings.HasSuffix(r.URL.Path, "/responses") {
			text = step.Reply.encodeResponse(fmt.Sprintf("resp_%d", n))
		} else {
			text = step.Reply.Encode()
		}
	}
	if !strings.HasSuffix(r.URL.Path, "/responses") && evalserver.WantsStream(body) {
		for k, v := range step.Header {
			w.Header().Set(k, v)
		}
		evalserver.WriteScriptedReply(w, status, text, true)
		return
	}
	writeJSON(w, status, text, step.Header)
}

func writeJSON(w http.ResponseWriter, status int, body string, header map[string]string) {
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// Encode renders the reply as a chat completion body.
func (r *Reply) Encode() string {
	msg := map[string]any{"role": "assistant", "content": nil}
	if r.Content != nil {
		msg["content"] = *r.Content
	}
	finish := r.FinishReason
	if len(r.Calls) > 0 {
		msg["tool_calls"] = evalserver.ToolCalls(r.Calls)
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if finish == "" {
		finish = "stop"
	}
	return CompletionBody(msg, finish)
}

// encodeResponse renders the reply as a Responses API body: a message
// item for the content, then a function_call item per call. id is the
// response id unless the reply names its own.
func (r *Reply) encodeResponse(id string) string {
	if r.ResponseID != "" {
		id = r.ResponseID
	}
	if r.ResponseID == "-" {
		id = ""
	}
	var output []any
	if r.Content != nil {
		output = append(output, map[string]any{
			"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": *r.Content, "annotations": []any{}}},
		})
	}
	for _, c := range r.Calls {
		output = append(output, map[string]any{
			"type": "function_call", "id": "fc_" + c.ID, "call_id": c.ID,
			"name": c.Name, "arguments": c.Args, "status": "completed",
		})
	}
	if output == nil {
		output = []any{}
	}
	b, err := json.Marshal(map[string]any{
		"id":         id,
		"object":     "response",
		"created_at": 1700000000,
		"status":     "completed",
		"model":      "test-model",
		"output":     output,
		"usage":      map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
	})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// CompletionBody wraps an assistant message (any JSON value) in a chat
// completion.
func CompletionBody(message any, finish string) string {
	return evalserver.CompletionBody("chatcmpl-test", "test-model", evalserver.Usage{Prompt: 10, Completion: 5}, message, finish)
}

// RawMessageBody wraps a raw JSON assistant message in a chat completion.
func RawMessageBody(message string) string {
	return CompletionBody(json.RawMessage(message), "stop")
}

func TextStep(content string) Step {
	return Step{Reply: &Reply{Content: &content}}
}

func CallsStep(calls ...Call) Step {
	return Step{Reply: &Reply{Calls: calls}}
}

func ErrorStep(status int, code, message string, header map[string]string) Step {
	return Step{
		Status: status,
		Body:   fmt.Sprintf(`{"error":{"message":%q,"type":"error","code":%q}}`, message, code),
		Header: header,
	}
}

// InputOf decodes the input items of a recorded Responses API request
// body.
func InputOf(t testing.TB, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["input"].([]any)
	if !ok {
		t.Fatalf("the request's input is not a list of items: %v", body["input"])
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		item, ok := it.(map[string]any)
		if !ok {
			t.Fatalf("input item %d is not an object: %v", i, it)
		}
		out[i] = item
	}
	return out
}

// ChatSSE is a Chat Completions stream: each chunk (a chat.completion.chunk
// object as JSON) as one "data:" event, then "data: [DONE]".
func ChatSSE(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}
