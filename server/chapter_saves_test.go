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

// now saves on a goroutine of its own (the caller goes on while the save
// runs), and stop waits for a save under way: the session's last save
// never races it.
func TestChapterSavesNowRunsInTheBackground(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var saves atomic.Int32
	c := newChapterSaves(func() error {
		saves.Add(1)
		close(started)
		<-release
		return nil
	}, slog.New(slog.DiscardHandler))
	c.now()
	<-started
	stopped := make(chan struct{})
	go func() {
		c.stop()
		close(stopped)
	}()
	close(release)
	<-stopped
	assert.Equal(t, int32(1), saves.Load())
	c.now()
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
	c.now()
	require.Eventually(t, func() bool { return saves.Load() == 1 }, 10*time.Second, time.Millisecond)
	fail.Store(false)
	c.now()
	require.Eventually(t, func() bool { return saves.Load() == 2 }, 10*time.Second, time.Millisecond)
	c.stop()
	assert.Contains(t, logs.String(), `msg="chapter cache not saved" err="disk full"`)
	assert.Contains(t, logs.String(), `msg="chapter cache saved"`)
}
