package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// progress reports one piece of background work through LSP work-done
// progress, when the client supports it; otherwise it does nothing.
type progress struct {
	s     *Server
	token string
	mu    sync.Mutex
	last  time.Time
	ok    bool
}

type progressValue struct {
	Kind        string  `json:"kind"`
	Title       string  `json:"title,omitempty"`
	Message     string  `json:"message,omitempty"`
	Percentage  *uint32 `json:"percentage,omitempty"`
	Cancellable bool    `json:"cancellable,omitempty"`
}

type progressParams struct {
	Token string        `json:"token"`
	Value progressValue `json:"value"`
}

// startProgress asks the client for a progress token and begins.
// progressToken is a new work-done token, "ask 3" or "load 1": short and
// readable, because Helix 25.01 shows the token itself beside the title.
func (s *Server) progressToken(kind string) string {
	return fmt.Sprintf("%s %d", kind, s.tokens.Add(1))
}

func (s *Server) startProgress(ctx context.Context, token, title string) *progress {
	p := &progress{s: s, token: token}
	s.mu.Lock()
	supported := s.client.Window != nil && s.client.Window.WorkDoneProgress
	s.mu.Unlock()
	if !supported {
		return p
	}
	callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := s.conn.Call(callCtx, protocol.MethodWorkDoneProgressCreate, map[string]string{"token": token}, nil); err != nil {
		s.log.Debug("client refused a progress token", "err", err)
		return p
	}
	p.ok = true
	zero := uint32(0)
	p.send(ctx, progressValue{Kind: "begin", Title: title, Percentage: &zero})
	return p
}

// report updates the progress at most ten times a second, and not at all
// once it ended.
func (p *progress) report(ctx context.Context, done, total int) {
	p.mu.Lock()
	if !p.ok || done < total && time.Since(p.last) < 100*time.Millisecond {
		p.mu.Unlock()
		return
	}
	p.last = time.Now()
	p.mu.Unlock()
	pct := uint32(100 * done / max(total, 1))
	p.send(ctx, progressValue{Kind: "report", Message: fmt.Sprintf("%d/%d files", done, total), Percentage: &pct})
}

func (p *progress) end(ctx context.Context, message string) {
	p.mu.Lock()
	ok := p.ok
	p.ok = false
	p.mu.Unlock()
	if ok {
		p.send(ctx, progressValue{Kind: "end", Message: message})
	}
}

func (p *progress) send(ctx context.Context, v progressValue) {
	if err := p.s.conn.Notify(ctx, protocol.MethodProgress, progressParams{Token: p.token, Value: v}); err != nil {
		p.s.log.Debug("progress not sent", "err", err)
	}
}

// showMessage tells the writer something the editor should pop up.
func (s *Server) showMessage(ctx context.Context, typ protocol.MessageType, message string) {
	if err := s.conn.Notify(ctx, protocol.MethodWindowShowMessage, protocol.ShowMessageParams{Type: typ, Message: message}); err != nil {
		s.log.Debug("message not sent", "err", err)
	}
}
