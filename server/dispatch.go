package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// handle receives every message in the order the client sent it. It
// never returns an error: the library closes the connection on one.
// Notifications run here, in order; requests run on their own
// goroutines, so a slow one never holds up hover.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	if s.stopped {
		return nil
	}
	switch r := req.(type) {
	case *jsonrpc2.Notification:
		s.protect(r.Method(), func() { s.notification(ctx, r) })
	case *jsonrpc2.Call:
		s.call(ctx, reply, r)
	}
	return nil
}

// protect runs f, turning a panic into a log line: one bad message must
// not end the session.
func (s *Server) protect(method string, f func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r))
			panicked = true
		}
	}()
	f()
	return false
}

func (s *Server) call(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) {
	method := call.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	// Shut down comes first: an initialize after shutdown must not bring
	// the session back.
	case state == stateShutDown:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down"))
		return
	case method == protocol.MethodInitialize && state == stateInitialized:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received"))
		return
	case method == protocol.MethodInitialize:
		s.protectedReply(ctx, reply, method, func() (any, error) { return s.requests[method](ctx, call.Params()) })
		return
	case state == stateNew:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized yet"))
		return
	case method == protocol.MethodShutdown:
		s.mu.Lock()
		s.state = stateShutDown
		s.mu.Unlock()
		_ = reply(ctx, nil, nil)
		return
	}
	h, ok := s.requests[method]
	if !ok {
		_ = reply(ctx, nil, fmt.Errorf("%q: %w", method, jsonrpc2.ErrMethodNotFound))
		return
	}
	// At the cap the read loop waits here: the client's writes block
	// until it reads the answers it asked for (admission.go).
	if err := s.admit.enter(s.ctx); err != nil {
		return
	}
	reqCtx, cancel := context.WithCancel(context.WithValue(s.ctx, slotKey{}, s.admit))
	id := call.ID()
	s.mu.Lock()
	s.inflight[id] = cancel
	s.mu.Unlock()
	s.work.Add(1)
	s.gate.begin()
	go func() {
		defer s.work.Done()
		defer s.gate.end()
		// The slot is held until the answer is written, since an answer
		// waiting on a client that does not read is what costs memory.
		defer s.admit.leave()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
		}()
		s.protectedReply(reqCtx, reply, method, func() (any, error) { return h(reqCtx, call.Params()) })
	}()
}

// protectedReply runs a request handler and replies exactly once: with
// its result, its error, RequestCancelled when the request was cancelled,
// or InternalError when it panicked.
func (s *Server) protectedReply(ctx context.Context, reply jsonrpc2.Replier, method string, f func() (any, error)) {
	var result any
	var err error
	if s.protect(method, func() { result, err = f() }) {
		result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s failed inside quire; the server keeps running", method))
	}
	if ctx.Err() != nil && s.ctx.Err() == nil {
		result, err = nil, protocol.ErrRequestCancelled
	}
	var jerr *jsonrpc2.Error
	if err != nil {
		if errors.As(err, &jerr) {
			// A wrapped one (toldError) goes out as itself.
			err = jerr
		} else {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
	}
	// The reply goes out on a context of its own: the request's may be
	// cancelled, and a cancelled request still gets its answer.
	if rerr := reply(context.WithoutCancel(ctx), result, err); rerr != nil {
		s.log.Debug("reply not sent", "method", method, "err", rerr)
	}
}

func (s *Server) notification(ctx context.Context, n *jsonrpc2.Notification) {
	method := n.Method()
	if method == protocol.MethodExit {
		s.exit()
		return
	}
	if method == protocol.MethodCancelRequest {
		s.cancelRequest(n.Params())
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateInitialized {
		// Before initialize and after shutdown, notifications other than
		// exit are dropped, as the spec says.
		return
	}
	if h, ok := s.notifications[method]; ok {
		if err := h(ctx, n.Params()); err != nil {
			s.log.Warn("notification failed", "method", method, "err", err)
		}
	}
}

// exit ends Serve: 0 after shutdown, 1 otherwise.
func (s *Server) exit() {
	s.exitOnce.Do(func() {
		s.mu.Lock()
		if s.state == stateShutDown {
			s.exitCode = 0
		} else {
			s.exitCode = 1
		}
		s.mu.Unlock()
		close(s.done)
	})
}

// cancelRequest cancels an in-flight request. Clients send numeric ids
// (VS Code, Neovim) as often as string ones; both are read.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	// validID first: null unmarshals into num without an error, and
	// would cancel request 0.
	if err := json.Unmarshal(params, &p); err != nil || !validID(p.ID) {
		return
	}
	var id jsonrpc2.ID
	var num int32
	var str string
	switch {
	case json.Unmarshal(p.ID, &num) == nil:
		id = jsonrpc2.NewNumberID(num)
	case json.Unmarshal(p.ID, &str) == nil:
		id = jsonrpc2.NewStringID(str)
	default:
		return
	}
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
