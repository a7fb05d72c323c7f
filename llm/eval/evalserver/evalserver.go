package evalserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Step is one scripted reply of an Server: a raw chat completion
// body, sent as is so that malformed shapes (the ones quirks repair) reach
// the client untouched.
type Step struct {
	// Status defaults to 200.
	Status int
	Body   string
	// Cut, for a streaming request, sends Body's content and then stops
	// with no finish reason and no [DONE] (WriteCutStream).
	Cut bool
	// SSE, when set, is sent verbatim as a text/event-stream body: the
	// events exactly as a provider splits them.
	SSE string
}

// Request is one request an Server received.
type Request struct {
	Path string
	Body []byte
	// Authorization is the request's Authorization header as sent
	// ("Bearer <key>"), so a test can check which key reached the model.
	Authorization string
}

// Server is an OpenAI-compatible chat completions endpoint on the
// loopback interface that replays a script of replies, one per request,
// and records every request. It stands in for the model in offline evals.
type Server struct {
	ln  net.Listener
	srv *http.Server

	script Script[Step, Request]

	// key, when set, is the only key the server accepts (RequireKey).
	key     atomic.Pointer[string]
	refused atomic.Int32
}

// maxEvalRequestBytes bounds a recorded request body.
const maxEvalRequestBytes = 8 << 20

// New starts a server on 127.0.0.1 with an empty script.
func New() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("eval server: %w", err)
	}
	s := &Server{ln: ln}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handle)
	mux.HandleFunc("POST /chat/completions", s.handle)
	// The model list a health report asks for (quire doctor): answered
	// outside the script, so a report never takes a scripted reply.
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("GET /models", s.models)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// BaseURL is the API root, including /v1.
func (s *Server) BaseURL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// Load replaces the script and forgets every recorded request.
func (s *Server) Load(steps []Step) { s.script.Load(steps) }

// Requests are the requests received since the last Load, in order.
func (s *Server) Requests() []Request { return s.script.Requests() }

// RequireKey makes the server answer 401, as a hosted provider does,
// to every request whose Authorization is not "Bearer "+key; such a
// request takes no scripted reply and is not recorded, only counted
// (Refused).
func (s *Server) RequireKey(key string) { s.key.Store(&key) }

// Refused is how many requests RequireKey turned away.
func (s *Server) Refused() int { return int(s.refused.Load()) }

// authorized answers 401 and reports false when a key is required and r
// does not carry it.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	key := s.key.Load()
	if key == nil || r.Header.Get("Authorization") == "Bearer "+*key {
		return true
	}
	s.refused.Add(1)
	writeEvalJSON(w, http.StatusUnauthorized, `{"error":{"message":"scripted model: wrong or missing API key","type":"invalid_request_error","code":"invalid_api_key"}}`)
	return false
}

// models answers GET /models, which health checks send, with the one
// model the scripted replies name; it takes no scripted reply.
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	writeEvalJSON(w, http.StatusOK, `{"object":"list","data":[{"id":"`+ScriptedModel+`","object":"model","owned_by":"quire-tests"}]}`)
}

// Remaining is how many scripted replies were not sent.
func (s *Server) Remaining() int { return s.script.Remaining() }

// Close stops the server.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxEvalRequestBytes))
	step, n, ok := s.script.Take(Request{Path: r.URL.Path, Body: body, Authorization: r.Header.Get("Authorization")})
	if !ok {
		msg, _ := json.Marshal(fmt.Sprintf("scripted model: no reply left for request %d (the script has %d)", n, n-1))
		writeEvalJSON(w, http.StatusInternalServerError, `{"error":{"message":`+string(msg)+`,"type":"server_error","code":"script_exhausted"}}`)
		return
	}
	if step.SSE != "" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, step.SSE)
		return
	}
	if step.Cut && WantsStream(body) {
		WriteCutStream(w, step.Body)
		return
	}
	WriteScriptedReply(w, step.Status, step.Body, WantsStream(body))
}

// ScriptedModel is the model name the list offers; scripts may name any.
const ScriptedModel = "scripted"

func writeEvalJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// Body wraps an assistant message (any JSON value, or raw JSON) in a
// chat completion body.
func Body(message any, finish string) string {
	return CompletionBody("chatcmpl-eval", "scripted", Usage{Prompt: 100, Completion: 20}, message, finish)
}

// Usage is the token count a scripted completion reports.
type Usage struct{ Prompt, Completion int }

// CompletionBody wraps an assistant message (any JSON value, or raw
// JSON) in a chat completion body with this id, model and usage.
func CompletionBody(id, model string, u Usage, message any, finish string) string {
	b, err := json.Marshal(map[string]any{
		"id":      id,
		"object":  "chat.completion",
		"created": 1700000000,
		"model":   model,
		"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": u.Prompt, "completion_tokens": u.Completion, "total_tokens": u.Prompt + u.Completion},
	})
	if err != nil {
		panic(err) // only fixed, valid values are encoded
	}
	return string(b)
}

// Text is a reply that answers with text.
func Text(content string) Step {
	return Step{Body: Body(map[string]any{"role": "assistant", "content": content}, "stop")}
}

// Call is one well-formed tool call of a scripted reply.
type Call struct{ ID, Name, Args string }

// Calls is a reply that calls tools, in the standard shape.
func Calls(calls ...Call) Step {
	return Step{Body: Body(map[string]any{"role": "assistant", "content": nil, "tool_calls": ToolCalls(calls)}, "tool_calls")}
}

// ToolCalls are calls in the standard tool_calls shape of an assistant
// message.
func ToolCalls(calls []Call) []map[string]any {
	list := make([]map[string]any, len(calls))
	for i, c := range calls {
		list[i] = map[string]any{
			"id":       c.ID,
			"type":     "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args},
		}
	}
	return list
}

// Raw is a reply whose assistant message is the raw JSON given.
func Raw(message string) Step {
	return Step{Body: Body(json.RawMessage(message), "tool_calls")}
}
