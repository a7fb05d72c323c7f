package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// savedTimeout bounds the wait for a server to have kept what it
// learned; on an idle machine the sample book's takes milliseconds.
const savedTimeout = 30 * time.Second

// cacheFilesSaved waits until the book's cache folder under cacheHome
// holds every one of names (each written whole, then renamed into
// place: one that exists is complete), polling until ctx ends.
func cacheFilesSaved(ctx context.Context, cacheHome string, names ...string) error {
	ctx, cancel := context.WithTimeout(ctx, savedTimeout)
	defer cancel()
	for {
		missing := ""
		for _, name := range names {
			found, err := filepath.Glob(filepath.Join(cacheHome, "quire", "*", name))
			if err != nil {
				return err
			}
			if len(found) == 0 {
				missing = name
				break
			}
		}
		if missing == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s never saved in %s: %w", missing, cacheHome, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// A `quire serve` killed with SIGKILL after its first hover (an editor
// that kills its server on exit, a crash, a power cut) has already kept
// what its cold start learned: the next start parses no codex file and
// reads and scans no chapter but the one the editor held open, as after
// a session that ran to its end. Before issue 27 the chapter cache was
// written only on shutdown, and the next start read the book again.
func TestServeKilledAfterFirstHoverLeavesTheNextStartWarm(t *testing.T) {
	book, _ := sampleProject(t)
	cacheHome := t.TempDir()
	const chapter, name = "manuscript/01-thirteen-strokes.md", "Moss Kettering"
	ctx := context.Background()

	first := serveCommand(cacheHome)
	killed, err := measureFirstHover(ctx, firstHoverRun{Command: first, Root: book, Chapter: chapter, Name: name,
		KillAfter: func(ctx context.Context) error { return cacheFilesSaved(ctx, cacheHome, "chapters.bin", "state.bin") },
	})
	require.NoError(t, err)
	require.NotNil(t, killed.Ended, "the first server ended")
	if status, ok := killed.Ended.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		assert.Equal(t, syscall.SIGKILL, status.Signal(), "the first server was killed, not shut down")
	}

	var logs bytes.Buffer
	second := serveCommand(cacheHome)
	second.Args = append(second.Args, "-v")
	second.Stderr = &logs
	_, err = measureFirstHover(ctx, firstHoverRun{Command: second, Root: book, Chapter: chapter, Name: name})
	require.NoError(t, err)

	chapters, err := filepath.Glob(filepath.Join(book, "manuscript", "*.md"))
	require.NoError(t, err)
	n := len(chapters)
	require.Greater(t, n, 1)
	log := logs.String()
	// The chapter open in the editor held the editor's text when the
	// cache was saved, and is left out of it (chapter_cache.go).
	assert.Contains(t, log, fmt.Sprintf("chapters=%d fromCache=%d", n, n-1), "the chapters are taken from the cache, not read again")
	assert.Contains(t, log, fmt.Sprintf("scansFromCache=%d", n-1), "the chapters are not scanned again")
	assert.Regexp(t, `msg="codex files checked[^"]*"( root=\S+)? files=[1-9][0-9]* parsed=0 `, log, "no codex file is parsed again")
	if t.Failed() {
		t.Logf("second start's log:\n%s", log)
	}
}
