package server

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Background work waits for the requests in flight, and for a quiet
// moment after them; a job's pacer stops waiting once its budget is
// spent, so a client that never stops asking cannot hold it back.
func TestRequestGate(t *testing.T) {
	t.Run("waits for the request in flight", func(t *testing.T) {
		var g requestGate
		g.begin()
		var ended atomic.Bool
		done := make(chan error, 1)
		go func() { done <- g.wait(context.Background(), time.Minute, yieldSettle) }()
		select {
		case <-done:
			t.Fatal("the background went on while a request was in flight")
		case <-time.After(20 * time.Millisecond):
		}
		ended.Store(true)
		g.end()
		require.NoError(t, <-done)
		assert.True(t, ended.Load())
	})
	t.Run("goes on at once when nothing is asked", func(t *testing.T) {
		var g requestGate
		require.NoError(t, g.wait(context.Background(), time.Minute, yieldSettle))
		var none *requestGate
		require.NoError(t, none.yield(context.Background()), "no gate, no wait")
	})
	t.Run("ends with its context", func(t *testing.T) {
		var g requestGate
		g.begin()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		assert.ErrorIs(t, g.wait(ctx, time.Minute, yieldSettle), context.Canceled)
	})
	t.Run("a pacer's budget is spent once", func(t *testing.T) {
		var g requestGate
		g.begin() // a request that never ends
		pause := g.pacer(30 * time.Millisecond)
		require.NoError(t, pause(context.Background()))
		// The budget is gone: the next pieces do not wait at all, however
		// long the request stays.
		done := make(chan struct{})
		go func() {
			for range 1000 {
				_ = pause(context.Background())
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("a spent pacer still waited")
		}
	})
}
