package server

import (
	"context"
	"sync"
)

// maxRequestsInFlight caps the requests whose answers are not yet
// written. An editor has a handful in flight at once; a client that sends
// requests and never reads its stdout would otherwise have quire hold an
// answer for each one, without bound. At the cap the read loop waits, so
// the client's writes block instead: nothing is dropped, and every request
// is answered once the client reads again.
const maxRequestsInFlight = 64

// admission counts the requests in flight against a cap.
type admission struct {
	mu  sync.Mutex
	n   int
	max int
	// freed is closed, and replaced, each time a request leaves, to wake
	// the read loop waiting for a slot.
	freed chan struct{}
}

func newAdmission(limit int) *admission {
	return &admission{max: limit, freed: make(chan struct{})}
}

// enter takes a slot, waiting while all are taken, until ctx ends.
func (a *admission) enter(ctx context.Context) error {
	for {
		a.mu.Lock()
		if a.n < a.max {
			a.n++
			a.mu.Unlock()
			return nil
		}
		freed := a.freed
		a.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// leave gives a slot back.
func (a *admission) leave() {
	a.mu.Lock()
	a.n--
	close(a.freed)
	a.freed = make(chan struct{})
	a.mu.Unlock()
}

// reenter takes a slot back without waiting: a request that let its slot
// go while it waited on the client must finish, and it is one of the
// requests already counted by the client.
func (a *admission) reenter() {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
}

// slotKey marks a request's context as holding an admission slot.
type slotKey struct{}

// callClient sends a request to the client and waits for its answer.
// The request it serves lets its slot go while it waits: the client's
// answer comes through the read loop, which must not be held at the cap
// by requests that are themselves waiting on the client.
func (s *Server) callClient(ctx context.Context, method string, params, result any) error {
	if a, ok := ctx.Value(slotKey{}).(*admission); ok {
		a.leave()
		defer a.reenter()
	}
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}
