package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A start on the cache an earlier session left takes the chapters'
// outlines and counts from the chapter cache; chapters edited, added or
// deleted while quire was not running, and a codex entry added then, are
// counted as they are now.
func TestWarmStartCountsTheBookAsItIsNow(t *testing.T) {
	cache := t.TempDir()
	root := writeProject(t, bookFiles)
	counts := func(c *testClient, rel string, line, char uint32, want string) {
		t.Helper()
		var last string
		require.Eventually(t, func() bool {
			if h := c.hoverAt(rel, line, char); h != nil {
				last = h.Contents.Value
			}
			return strings.Contains(last, want)
		}, 10*time.Second, 10*time.Millisecond, "hover on %s: want %q, have %q", rel, want, last)
	}
	// fromCache is how many chapters the session read from the cache,
	// as its debug log says.
	session := func(fromCache int, check func(c *testClient)) {
		logs := &syncBuffer{}
		c := startServer(t, Options{CacheDir: cache, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		c.initialize(root)
		check(c)
		require.Zero(t, c.shutdown())
		require.Contains(t, logs.String(), fmt.Sprintf("chapters=%d fromCache=%d", len(chapters(t, root)), fromCache))
	}

	session(0, func(c *testClient) {
		counts(c, "manuscript/01-harbor.md", 2, 1, "*Appears in:* 1. Harbor (2), 2. Storm (1)")
	})
	saved, err := filepath.Glob(filepath.Join(cache, "*", "chapters.bin"))
	require.NoError(t, err)
	require.Len(t, saved, 1, "the chapter cache is kept in the cache folder, outside the book")

	writeFileAt(t, root, "manuscript/02-storm.md", "# Storm\n\nThe Harbor Witch came back. Mara again, with Tobin Ash.\n")
	writeFileAt(t, root, "manuscript/03-quay.md", "# Quay\n\nMara and Tobin Ash.\n")
	writeFileAt(t, root, "codex/characters/tobin-ash.md", "---\nname: Tobin Ash\n---\n# Tobin Ash\n")
	// The harbor only is as it was.
	session(1, func(c *testClient) {
		counts(c, "manuscript/01-harbor.md", 2, 1, "*Appears in:* 1. Harbor (2), 2. Storm (2), 3. Quay (1)")
		counts(c, "manuscript/03-quay.md", 2, 10, "*Appears in:* 2. Storm (1), 3. Quay (1)")
	})

	require.NoError(t, os.Remove(filepath.Join(root, "manuscript/02-storm.md")))
	session(2, func(c *testClient) {
		counts(c, "manuscript/01-harbor.md", 2, 1, "*Appears in:* 1. Harbor (2), 3. Quay (1)")
	})
}

// chapters lists the book's chapter files.
func chapters(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "manuscript", "*.md"))
	require.NoError(t, err)
	return files
}

// The chapter cache is saved once the first scan is done, while the
// session goes on: a server killed before it shuts down (no shutdown
// ever comes) has kept it, and the next start takes the chapters from it.
func TestChapterCacheSavedWithoutShutdown(t *testing.T) {
	cache := t.TempDir()
	root := writeProject(t, bookFiles)
	c := startServer(t, Options{CacheDir: cache})
	c.initialize(root)
	var last string
	require.Eventually(t, func() bool {
		if h := c.hoverAt("manuscript/01-harbor.md", 2, 1); h != nil {
			last = h.Contents.Value
		}
		return strings.Contains(last, "*Appears in:*")
	}, 10*time.Second, 10*time.Millisecond, "hover counts, have %q", last)
	var saved []string
	require.Eventually(t, func() bool {
		saved, _ = filepath.Glob(filepath.Join(cache, "*", "chapters.bin"))
		return len(saved) == 1
	}, 10*time.Second, 10*time.Millisecond, "the chapter cache is saved while the session runs")

	// What an abrupt end leaves: the file as saved then, read by the
	// next start (in a cache folder of its own: this session still holds
	// the codex's) as a whole.
	data, err := os.ReadFile(saved[0])
	require.NoError(t, err)
	nextCache := t.TempDir()
	book := filepath.Join(nextCache, filepath.Base(filepath.Dir(saved[0])))
	require.NoError(t, os.MkdirAll(book, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(book, "chapters.bin"), data, 0o600))
	logs := &syncBuffer{}
	next := startServer(t, Options{CacheDir: nextCache, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	next.initialize(root)
	require.Eventually(t, func() bool {
		return strings.Contains(logs.String(), "manuscript indexed")
	}, 10*time.Second, 10*time.Millisecond)
	n := len(chapters(t, root))
	assert.Contains(t, logs.String(), fmt.Sprintf("chapters=%d fromCache=%d", n, n))
	assert.Contains(t, logs.String(), fmt.Sprintf("scansFromCache=%d", n))
}

// A start that finds no saved state of the book's codex says so before it
// parses every entry (Options.ParsingAll: quire serve then holds its heap
// tighter); a start from the state the first one left does not.
func TestAColdStartSaysItParsesTheWholeCodex(t *testing.T) {
	cache := t.TempDir()
	root := writeProject(t, bookFiles)
	session := func() int {
		var calls atomic.Int32
		c := startServer(t, Options{CacheDir: cache, ParsingAll: func() { calls.Add(1) }})
		c.initialize(root)
		require.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1))
		require.Zero(t, c.shutdown())
		return int(calls.Load())
	}
	assert.Equal(t, 1, session(), "the first opening parses every entry")
	assert.Equal(t, 0, session(), "the next opens from the saved state")
}

// A start, cold then warm, makes the continuity canon (which every
// hover card in a chapter reads) while the chapters are still being
// read, not after: the book answers with it made.
func TestStartMakesTheCanonBesideTheChapters(t *testing.T) {
	cache := t.TempDir()
	root := writeProject(t, bookFiles)
	for range 2 {
		logs := &syncBuffer{}
		c := startServer(t, Options{CacheDir: cache, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		c.initialize(root)
		require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-harbor.md", 2, 1) != nil },
			10*time.Second, 10*time.Millisecond, "the book answers")
		require.Zero(t, c.shutdown())
		log := logs.String()
		early := strings.Index(log, "continuity canon made beside the chapters")
		answers := strings.Index(log, "the book answers")
		require.Positive(t, answers)
		require.Positive(t, early, "the canon is made beside the chapters")
		assert.Less(t, early, answers, "and before the book answers")
	}
}
