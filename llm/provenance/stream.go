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
	var c struct {
		Model   string `json:"model"`
		Choices []struct {
			FinishReason string `json:"finish_reason"`
			Delta        struct {
				ToolCalls []struct {
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
		} `json:"choices"`
		Usage *wireUsage `json:"usage"`
		// Type and Response are a Responses API event's: the last one
		// (response.completed, .incomplete, .failed) carries the whole
		// response, usage included.
		Type     string `json:"type"`
		Response *struct {
			Model string     `json:"model"`
			Usage *wireUsage `json:"usage"`
			responsesFields
		} `json:"response"`
	}
	if json.Unmarshal(data, &c) != nil {
		return
	}
	if s.rec.Model == "" {
		s.rec.Model = c.Model
	}
	if c.Usage != nil {
		c.Usage.record(&s.rec)
	}
	if r := c.Response; r != nil && r.Status != "in_progress" && r.Status != "queued" {
		if s.rec.Model == "" {
			s.rec.Model = r.Model
		}
		if r.Usage != nil {
			r.Usage.record(&s.rec)
		}
		s.rec.Tools = nil
		r.responsesFields.record(&s.rec)
	}
	for _, ch := range c.Choices {
		if ch.FinishReason != "" {
			s.rec.Finish = boundField(ch.FinishReason)
		}
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Function.Name != "" {
				s.rec.Tools = append(s.rec.Tools, boundField(tc.Function.Name))
			}
		}
	}
}
