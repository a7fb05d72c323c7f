package server

import (
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flush saves at once, on the caller's goroutine, whatever soon had put
// off; stop waits for a save under way (the session's last save never
// races it), drops the one put off, and nothing is saved after it.
func TestChapterSavesFlushReplacesTheSaveToCome(t *testing.T) {
	started, release := make(chan struct{}, 2), make(chan struct{})
	var saves atomic.Int32
	c := newChapterSaves(func() error {
		saves.Add(1)
		started <- struct{}{}
		<-release
		return nil
	}, slog.New(slog.DiscardHandler))
	c.quiet, c.limit = time.Hour, time.Hour
	c.soon()
	flushed := make(chan struct{})
	go func() {
		c.flush()
		close(flushed)
	}()
	<-started
	stopped := make(chan struct{})
	go func() {
		c.stop()
		close(stopped)
	}()
	close(release)
	<-flushed
	<-stopped
	assert.Equal(t, int32(1), saves.Load(), "flush saved; the save put off is dropped")
	c.flush()
	c.soon()
	assert.Equal(t, int32(1), saves.Load(), "nothing is saved once stopped")
}

// soon waits for changes to settle: a burst of them is one save, none
// before the burst is quiet, and stop drops the one to come (the
// session's last save follows). A burst that never settles is still
// saved within the limit.
func TestChapterSavesSoonCoalesces(t *testing.T) {
	var saves atomic.Int32
	save := func() error { saves.Add(1); return nil }

	c := newChapterSaves(save, slog.New(slog.DiscardHandler))
	c.quiet, c.limit = time.Hour, time.Hour
	for range 100 {
		c.soon()
	}
	c.stop()
	assert.Zero(t, saves.Load(), "a burst that has not settled is not saved yet")

	c = newChapterSaves(save, slog.New(slog.DiscardHandler))
	c.quiet, c.limit = time.Hour, time.Millisecond
	c.soon()
	require.Eventually(t, func() bool { return saves.Load() == 1 }, 10*time.Second, time.Millisecond, "the limit bounds the wait")
	c.stop()
}

// A save that fails is logged, without the text of any chapter, and
// the next one is tried all the same.
func TestChapterSavesFailureIsLoggedNotFatal(t *testing.T) {
	logs := &syncBuffer{}
	fail := atomic.Bool{}
	fail.Store(true)
	var saves atomic.Int32
	c := newChapterSaves(func() error {
		saves.Add(1)
		if fail.Load() {
			return errors.New("disk full")
		}
		return nil
	}, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	c.flush()
	fail.Store(false)
	c.flush()
	c.stop()
	assert.Equal(t, int32(2), saves.Load())
	assert.Contains(t, logs.String(), `msg="chapter cache not saved" err="disk full"`)
	assert.Contains(t, logs.String(), `msg="chapter cache saved"`)
}
