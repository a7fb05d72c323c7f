package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// progress is one piece of work reported through LSP work-done progress:
// loading a book, or an ask. It reports on the request's own token when
// the client sent one, else on a token the server creates when the
// client supports that; with neither it sends nothing.
type progress struct {
	s     *Server
	token json.RawMessage
	// key is the token as compact JSON, the key workDoneProgressCancel
	// finds the work by; "" when nothing is sent.
	key   string
	mu    sync.Mutex
	ended bool
	// counted is when count last sent a report; uncounted says counts
	// are over (later reads of files are not this work's).
	counted   time.Time
	uncounted bool
}

type progressValue struct {
	Kind        string  `json:"kind"`
	Title       string  `json:"title,omitempty"`
	Message     string  `json:"message,omitempty"`
	Percentage  *uint32 `json:"percentage,omitempty"`
	Cancellable bool    `json:"cancellable,omitempty"`
}

type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value progressValue   `json:"value"`
}

// progressToken is a new work-done token, "ask 3" or "load 1": short and
// readable, because Helix 25.01 shows the token itself beside the title.
func (s *Server) progressToken(kind string) string {
	return fmt.Sprintf("%s %d", kind, s.tokens.Add(1))
}

// startProgress begins progress titled title: on clientToken (a string
// or a number) when the request carried one, else on a token of kind
// that the client is asked to create. A cancellable one offers the
// writer a cancel button, which workDoneProgressCancel answers.
func (s *Server) startProgress(ctx context.Context, kind string, clientToken json.RawMessage, title string, cancellable bool) *progress {
	p := &progress{s: s}
	if k := tokenKey(clientToken); k != "" && k != "null" {
		p.token, p.key = json.RawMessage(k), k
	} else {
		if !s.workDoneProgressSupported() {
			return p
		}
		tok := s.progressToken(kind)
		callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := s.callClient(callCtx, protocol.MethodWorkDoneProgressCreate, map[string]string{"token": tok}, nil); err != nil {
			s.log.Debug("client refused a progress token", "err", err)
			return p
		}
		p.token, _ = json.Marshal(tok)
		p.key = string(p.token)
	}
	zero := uint32(0)
	p.send(ctx, progressValue{Kind: "begin", Title: title, Cancellable: cancellable, Percentage: &zero})
	return p
}

// count reports done of total files at most ten times a second, and the
// last one always.
func (p *progress) count(ctx context.Context, done, total int) {
	p.mu.Lock()
	if p.key == "" || p.ended || p.uncounted || done < total && time.Since(p.counted) < 100*time.Millisecond {
		p.mu.Unlock()
		return
	}
	p.counted = time.Now()
	p.mu.Unlock()
	pct := uint32(100 * done / max(total, 1))
	p.send(ctx, progressValue{Kind: "report", Message: fmt.Sprintf("%d/%d files", done, total), Percentage: &pct})
}

// stopCounting makes count send nothing more.
func (p *progress) stopCounting() {
	p.mu.Lock()
	p.uncounted = true
	p.mu.Unlock()
}

// message reports msg.
func (p *progress) message(ctx context.Context, msg string) {
	p.send(ctx, progressValue{Kind: "report", Message: msg})
}

// end ends the progress with msg; nothing is sent after it.
func (p *progress) end(ctx context.Context, msg string) {
	p.send(ctx, progressValue{Kind: "end", Message: msg})
}

// isEnded reports whether the progress ended or never began.
func (p *progress) isEnded() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.key == "" || p.ended
}

func (p *progress) send(ctx context.Context, v progressValue) {
	if p.key == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = v.Kind == "end"
	// The progress outlives a cancelled request: its end still goes out.
	if err := p.s.conn.Notify(context.WithoutCancel(ctx), protocol.MethodProgress, progressParams{Token: p.token, Value: v}); err != nil {
		p.s.log.Debug("progress not sent", "err", err)
	}
}

// tokenKey is a progress token (string or number) as compact JSON.
func tokenKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// cancellable is the work the writer can cancel from its progress, by
// the progress's key. Its zero value is ready.
type cancellable struct {
	mu      sync.Mutex
	running map[string]context.CancelFunc
}

// track lets p's cancel button call cancel, until the returned func runs.
func (c *cancellable) track(p *progress, cancel context.CancelFunc) func() {
	if p.key == "" {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running == nil {
		c.running = map[string]context.CancelFunc{}
	}
	c.running[p.key] = cancel
	return func() {
		c.mu.Lock()
		delete(c.running, p.key)
		c.mu.Unlock()
	}
}

func (c *cancellable) cancel(key string) {
	c.mu.Lock()
	cancel := c.running[key]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// workDoneProgressCancelParams keep the token as JSON: a string or a
// number, compared by its compact text.
type workDoneProgressCancelParams struct {
	Token json.RawMessage `json:"token"`
}

// workDoneProgressCancel cancels the work reporting to the token.
func (s *Server) workDoneProgressCancel(_ context.Context, p workDoneProgressCancelParams) error {
	s.running.cancel(tokenKey(p.Token))
	return nil
}

func (s *Server) workDoneProgressSupported() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client.Window != nil && s.client.Window.WorkDoneProgress
}
