package provenance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/safefile"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/chatwire"
)

// FileName is the name of the provenance log in its directory.
const FileName = "provenance.jsonl"

// DefaultMaxBytes caps the log; past it the older half is
// dropped.
const DefaultMaxBytes = 5 << 20

// maxRecordedResponse bounds the response body the recorder keeps in
// memory to read usage and finish reason from: the client reads no more
// of a reply either. A longer reply is passed on whole (the client then
// refuses it) and recorded without them.
const maxRecordedResponse = provider.MaxReplyBytes

// Record is one provider call, as one JSON line. It names what
// was sent and what came back without holding either: no prose, no keys.
type Record struct {
	Time time.Time `json:"time"`
	// Host is the provider's host (and port), never the path or query.
	Host    string `json:"host"`
	Model   string `json:"model"`
	Persona string `json:"persona,omitempty"`
	// Round counts the HTTP calls made through one Transport, from 1; a
	// retried attempt is a call of its own.
	Round int `json:"round"`
	// Status is the HTTP status, 0 when no response came.
	Status int `json:"status"`
	// Request is "sha256:…" of the request body exactly as sent.
	Request          string   `json:"request"`
	PromptTokens     int64    `json:"promptTokens"`
	CompletionTokens int64    `json:"completionTokens"`
	Tools            []string `json:"tools,omitempty"`
	Finish           string   `json:"finish,omitempty"`
	// Error is a short class of failure ("transport", "timeout"), never
	// the provider's message, which may quote the request.
	Error string `json:"error,omitempty"`
	// DurationMS is how long the call took, response body included.
	DurationMS int64 `json:"durationMs"`
}

// Log appends Records as JSON lines to
// <dir>/provenance.jsonl. The caller picks dir, which must be outside the
// book project (the CLI uses the project's cache folder). Safe for
// concurrent use.
type Log struct {
	mu   sync.Mutex
	path string
	// MaxBytes caps the file; when a write would pass it, the older half
	// of the lines is dropped first. Zero means DefaultMaxBytes.
	MaxBytes int64
}

// Open returns the log in dir, creating dir (0700) if needed.
func Open(dir string) (*Log, error) {
	if dir == "" {
		return nil, errors.New("provenance: no folder given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	return &Log{path: filepath.Join(dir, FileName)}, nil
}

// Path is the log file.
func (l *Log) Path() string { return l.path }

// Record appends one line.
func (l *Log) Record(rec Record) error {
	if rec.Time.IsZero() {
		rec.Time = time.Now()
	}
	rec.Time = rec.Time.UTC()
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	max := l.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	if fi, err := os.Stat(l.path); err == nil && fi.Size()+int64(len(line)) > max {
		if err := l.shrink(max); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("provenance: %w", err)
	}
	return f.Close()
}

// shrink keeps the newest lines that fit in half of max, replacing the
// file atomically.
func (l *Log) shrink(max int64) error {
	data, err := os.ReadFile(l.path)
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	keep := data
	if int64(len(keep)) > max/2 {
		keep = keep[int64(len(keep))-max/2:]
		if i := bytes.IndexByte(keep, '\n'); i >= 0 {
			keep = keep[i+1:]
		} else {
			keep = nil
		}
	}
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, keep, 0o600); err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	if err := safefile.Replace(tmp, l.path); err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	return nil
}

// Transport wraps base (nil: http.DefaultTransport) so that every provider
// call through it is recorded in the log, and, when logger is not nil,
// logged at debug with its body redacted (RedactRequestBody). Set it as
// provider.Config.HTTPClient's transport; the provider and the tool loop
// need no hook of their own, and each call is recorded with its own usage,
// tool names and finish reason as the provider reported them. persona is
// written on every line.
//
// A failure to write the log never fails the call; it is logged at warn.
func (l *Log) Transport(base http.RoundTripper, persona string, logger *slog.Logger) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &provenanceTransport{log: l, base: base, persona: persona, logger: logger}
}

type provenanceTransport struct {
	log     *Log
	base    http.RoundTripper
	persona string
	logger  *slog.Logger
	mu      sync.Mutex
	round   int
}

func (t *provenanceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	body, req, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.round++
	round := t.round
	t.mu.Unlock()
	sum := sha256.Sum256(body)
	rec := Record{
		Time: start, Host: req.URL.Host, Persona: t.persona, Round: round,
		Request: "sha256:" + hex.EncodeToString(sum[:]),
	}
	var sent struct {
		Model string `json:"model"`
	}
	if json.Unmarshal(body, &sent) == nil {
		rec.Model = sent.Model
	}
	if t.logger != nil {
		t.logger.Debug("provider request", "host", rec.Host, "round", round, "body", json.RawMessage(body))
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		rec.Error = "transport"
		var ne net.Error
		if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
			rec.Error = "timeout"
		} else if errors.Is(err, context.Canceled) {
			rec.Error = "cancelled"
		}
		t.write(rec, start)
		return nil, err
	}
	rec.Status = resp.StatusCode
	if resp.StatusCode == http.StatusOK && resp.Body != nil && isEventStream(resp) {
		// A stream is recorded as it is read, so the caller gets each
		// event as it comes; the line is written when the stream ends.
		resp.Body = &streamRecorder{body: resp.Body, t: t, rec: rec, start: start}
		return resp, nil
	}
	if resp.StatusCode == http.StatusOK && resp.Body != nil && resp.ContentLength <= maxRecordedResponse {
		raw, rerr := io.ReadAll(io.LimitReader(resp.Body, maxRecordedResponse+1))
		if rerr == nil && len(raw) > maxRecordedResponse {
			// Too long to record: the client gets all of it to refuse,
			// from what was read and then the rest, as it comes.
			rest := resp.Body
			resp.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(raw), rest), rest}
			rec.Error = "too large"
			t.write(rec, start)
			return resp, nil
		}
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		if rerr != nil {
			// Hand the error on as the body's, as the SDK would have met it.
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), errReader{rerr}))
			rec.Error = "read"
		} else {
			readResponse(raw, &rec)
		}
		if t.logger != nil {
			t.logger.Debug("provider response", "host", rec.Host, "round", round, "status", rec.Status, "body", json.RawMessage(raw))
		}
	}
	t.write(rec, start)
	return resp, nil
}

func (t *provenanceTransport) write(rec Record, start time.Time) {
	rec.DurationMS = time.Since(start).Milliseconds()
	if err := t.log.Record(rec); err != nil && t.logger != nil {
		t.logger.Warn("provenance not recorded", "err", err)
	}
}

// requestBody reads the body without consuming the request's own copy
// when the request can make another (as the SDK's can).
func requestBody(req *http.Request) ([]byte, *http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, req, nil
	}
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err == nil {
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err == nil {
				return b, req, nil
			}
		}
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	clone := req.Clone(req.Context())
	clone.Body = io.NopCloser(bytes.NewReader(b))
	clone.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return b, clone, nil
}

// readResponse takes usage, finish reason and tool names from a chat
// completion or a Responses API response; the message text is never
// kept.
func readResponse(raw []byte, rec *Record) {
	// One decode reads either API's reply: a chat completion's fields
	// and a Responses API response's (object "response") side by side.
	var r struct {
		chatwire.ChatCompletion
		responsesFields
	}
	if json.Unmarshal(raw, &r) != nil {
		rec.Error = "undecodable"
		return
	}
	if rec.Model == "" {
		rec.Model = r.Model
	}
	recordUsage(r.Usage, rec)
	if r.Object == "response" {
		r.responsesFields.record(rec)
		return
	}
	if len(r.Choices) > 0 {
		rec.Finish = boundField(r.Choices[0].FinishReason)
		var m struct {
			ToolCalls []chatwire.ToolCall `json:"tool_calls"`
		}
		_ = json.Unmarshal(r.Choices[0].Message, &m)
		for _, c := range m.ToolCalls {
			rec.Tools = append(rec.Tools, boundField(c.Function.Name))
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// maxFieldRunes bounds a name or reason a provider sent, as evidence
// bounds the arguments it shows.
const maxFieldRunes = 200

// boundField is a provider's name or reason as the record keeps it:
// trimmed, and cut at maxFieldRunes with an ellipsis.
func boundField(s string) string {
	return clip.Runes(strings.TrimSpace(s), maxFieldRunes)
}

// responsesFields are what a Responses API response tells the record:
// its usage is counted as input and output tokens, its tool calls are
// output items of type function_call.
// https://platform.openai.com/docs/api-reference/responses/object
type responsesFields struct {
	Object string `json:"object"`
	Status string `json:"status"`
	Output []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"output"`
}

// recordUsage records a reply's raw usage, counted by either API.
func recordUsage(raw json.RawMessage, rec *Record) {
	rec.PromptTokens, rec.CompletionTokens = chatwire.Tokens(raw)
}

func (f responsesFields) record(rec *Record) {
	rec.Finish = boundField(f.Status)
	for _, it := range f.Output {
		if it.Type == "function_call" {
			rec.Tools = append(rec.Tools, boundField(it.Name))
		}
	}
}
