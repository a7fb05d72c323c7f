package provenance

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/quire-ink/quire/llm/provider/chatwire"
)

func isEventStream(resp *http.Response) bool {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// maxStreamLine bounds one buffered event line; a longer line is skipped
// (its chunk then goes unrecorded, never the call).
const maxStreamLine = 1 << 20

// streamRecorder passes a streamed response through untouched, reading the
// chunks' model, finish reason, tool names and usage on the way, and
// writes the provenance line once: at the end of the stream, on an error,
// or when the caller closes the body early.
type streamRecorder struct {
	body  io.ReadCloser
	t     *provenanceTransport
	rec   Record
	start time.Time
	line  []byte
	skip  bool
	once  sync.Once
}

func (s *streamRecorder) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	s.scan(p[:n])
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.rec.Error = "read"
		}
		s.finish()
	}
	return n, err
}

func (s *streamRecorder) Close() error {
	err := s.body.Close()
	s.finish()
	return err
}

func (s *streamRecorder) finish() {
	s.once.Do(func() { s.t.write(s.rec, s.start) })
}

func (s *streamRecorder) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.buffer(b)
			return
		}
		s.buffer(b[:i])
		if !s.skip {
			s.event(bytes.TrimRight(s.line, "\r"))
		}
		s.line, s.skip = s.line[:0], false
		b = b[i+1:]
	}
}

func (s *streamRecorder) buffer(b []byte) {
	if s.skip || len(s.line)+len(b) > maxStreamLine {
		s.skip = true
		return
	}
	s.line = append(s.line, b...)
}

// event reads one "data:" line of the stream.
func (s *streamRecorder) event(line []byte) {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("[DONE]")) {
		return
	}
	// A chat chunk's fields and a Responses API event's side by side:
	// the last event (response.completed, .incomplete, .failed) carries
	// the whole response, usage included.
	var c struct {
		chatwire.ChatChunk
		Type     string `json:"type"`
		Response *struct {
			Model string          `json:"model"`
			Usage json.RawMessage `json:"usage"`
			responsesFields
		} `json:"response"`
	}
	if json.Unmarshal(data, &c) != nil {
		return
	}
	if s.rec.Model == "" {
		s.rec.Model = c.Model
	}
	if !chatwire.IsNull(c.Usage) {
		recordUsage(c.Usage, &s.rec)
	}
	if r := c.Response; r != nil && r.Status != "in_progress" && r.Status != "queued" {
		if s.rec.Model == "" {
			s.rec.Model = r.Model
		}
		if !chatwire.IsNull(r.Usage) {
			recordUsage(r.Usage, &s.rec)
		}
		s.rec.Tools = nil
		r.responsesFields.record(&s.rec)
	}
	for _, ch := range c.Choices {
		if ch.FinishReason != "" {
			s.rec.Finish = boundField(ch.FinishReason)
		}
		if chatwire.IsNull(ch.Delta.ToolCalls) {
			continue
		}
		var calls []chatwire.ToolCall
		_ = json.Unmarshal(ch.Delta.ToolCalls, &calls)
		for _, tc := range calls {
			if tc.Function.Name != "" {
				s.rec.Tools = append(s.rec.Tools, boundField(tc.Function.Name))
			}
		}
	}
}
