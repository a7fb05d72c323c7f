package server

import (
	"context"
	"sync"
	"time"
)

// Background work (keeping snapshots, checking the disk behind a warm
// start) yields to the writer's requests: before each piece of it, it
// waits until no request is in flight and none has been for
// yieldSettle, so that a hover never queues behind a batch of file reads
// on a two-core machine. A stream of requests that never pauses (an
// editor polling) holds a job back at most its budget in all (pacer),
// so it still ends soon: the check behind a warm start's first answers,
// for one, within a second of the start.
const (
	yieldSettle = 30 * time.Millisecond
	// yieldMax bounds one wait of a job that has no budget of its own.
	yieldMax = 500 * time.Millisecond
)

// requestGate tells background work when the server is busy with
// requests. The zero value is ready to use.
type requestGate struct {
	mu     sync.Mutex
	active int
	last   time.Time
	// idle is closed, and replaced, each time the last request in
	// flight ends.
	idle chan struct{}
}

// begin marks a request as in flight.
func (g *requestGate) begin() {
	g.mu.Lock()
	g.active++
	g.mu.Unlock()
}

// end marks a request as answered.
func (g *requestGate) end() {
	g.mu.Lock()
	g.active--
	g.last = time.Now()
	if g.active == 0 && g.idle != nil {
		close(g.idle)
		g.idle = nil
	}
	g.mu.Unlock()
}

// yield waits until no request is in flight and none ended within
// yieldSettle, or yieldMax has passed, or ctx ends. A nil gate never
// waits.
func (g *requestGate) yield(ctx context.Context) error { return g.wait(ctx, yieldMax, yieldSettle) }

// answered waits until no request is in flight, or max has passed, or
// ctx ends. It is yield without the settling: for work that must not
// share the CPU with the requests of the moment but would cost more the
// longer it waits (the collector's return after a start, which holds
// the heap's growth).
func (g *requestGate) answered(ctx context.Context, max time.Duration) {
	_ = g.wait(ctx, max, 0)
}

// pacer is yield for a job of many pieces: it waits as yield does
// before each, but for at most budget over all of them; past it the
// job runs on without waiting.
func (g *requestGate) pacer(budget time.Duration) func(context.Context) error {
	left := budget
	return func(ctx context.Context) error {
		if left <= 0 {
			return ctx.Err()
		}
		start := time.Now()
		err := g.wait(ctx, left, yieldSettle)
		left -= time.Since(start)
		return err
	}
}

// wait waits until no request is in flight and none ended within
// settle, or max has passed, or ctx ends.
func (g *requestGate) wait(ctx context.Context, max, settle time.Duration) error {
	if g == nil {
		return ctx.Err()
	}
	deadline := time.Now().Add(max)
	for {
		g.mu.Lock()
		active, last := g.active, g.last
		var idle chan struct{}
		if active > 0 {
			if g.idle == nil {
				g.idle = make(chan struct{})
			}
			idle = g.idle
		}
		g.mu.Unlock()
		now := time.Now()
		if !now.Before(deadline) {
			return ctx.Err()
		}
		var wake <-chan time.Time
		switch {
		case active > 0:
			// Woken when the last request ends, then settle.
			t := time.NewTimer(deadline.Sub(now))
			select {
			case <-idle:
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue
		case now.Sub(last) < settle:
			wake = time.After(min(settle-now.Sub(last), deadline.Sub(now)))
		default:
			return ctx.Err()
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
