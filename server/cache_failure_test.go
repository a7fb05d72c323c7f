package server

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

// requireHover waits until hovering at line, char of rel shows name.
func requireHover(t *testing.T, c *testClient, rel string, line, char uint32, name string) {
	t.Helper()
	require.Eventually(t, func() bool {
		h := c.hoverAt(rel, line, char)
		return h != nil && strings.Contains(h.Contents.Value, "**"+name+"**")
	}, 30*time.Second, 50*time.Millisecond, "hover shows %s", name)
}

// requireSearchFinds checks quire/search finds name: the full-text index
// answers, from memory.
func requireSearchFinds(t *testing.T, c *testClient, query, name string) {
	t.Helper()
	var found wire.QueryResult
	c.call(wire.MethodSearch, map[string]any{"query": query}, &found)
	require.NotEmpty(t, found.Results, "search for %q", query)
	assert.Equal(t, name, found.Results[0].Name)
}

// requireToldInMemory waits for the warning that says the index is in
// memory, and why, in a writer's words.
func requireToldInMemory(t *testing.T, c *testClient, why string) {
	t.Helper()
	var told []protocol.ShowMessageParams
	require.Eventually(t, func() bool {
		told = nil
		for _, m := range c.shownMessages() {
			if strings.Contains(m.Message, "keeps the index in memory") {
				told = append(told, m)
			}
		}
		return len(told) > 0
	}, 30*time.Second, 50*time.Millisecond, "a showMessage says the index is in memory")
	require.Len(t, told, 1, "told once")
	require.Eventually(t, func() bool {
		var st wire.StatusResult
		c.call(wire.MethodStatus, nil, &st)
		return len(st.Books) == 1 && st.Books[0].State == stateReady &&
			strings.Contains(st.Books[0].Message, "index kept in memory")
	}, 30*time.Second, 50*time.Millisecond, "quire/status says the book is ready, its index in memory, for a status bar")
	assert.Equal(t, protocol.MessageTypeWarning, told[0].Type)
	assert.Contains(t, told[0].Message, why)
	for _, m := range c.shownMessages() {
		assert.NotContains(t, m.Message, "could not open", "the book opens")
		assert.NotContains(t, m.Message, "panic")
	}
}

// A cache that cannot be written no longer disables the book (issue 14,
// item 11): it opens from an index in memory, hover and search work, and
// the writer is told. A regular file where the cache folder should be
// refuses root as well as anyone, so no mount is needed.
func TestBookWorksWhenTheCacheCannotBeWritten(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.WriteFile(cache, []byte("not a folder"), 0o600))
	c := startServer(t, Options{CacheDir: cache})
	c.initialize(writeProject(t, bookFiles))

	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	requireSearchFinds(t, c, "harbormistress", "Ilse Dorn")
	requireToldInMemory(t, c, "is not a folder")
}

// A cache folder deleted while the server runs: the next change cannot
// be written, the index moves into memory, the writer is told, and the
// change is there.
func TestCacheDeletedWhileServing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("skipped: Windows deletes no file another program has open, so no cleaner can empty the cache under a running quire")
	}
	cache := filepath.Join(t.TempDir(), "cache")
	c := startServer(t, Options{CacheDir: cache})
	root := writeProject(t, bookFiles)
	c.initialize(root)
	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	require.Empty(t, c.shownMessages())

	// The server saves what its start learned in the background (issue
	// 27), so a file may appear while the folder is emptied: the
	// cleaner goes over it again, as a writer deleting it would.
	require.Eventually(t, func() bool { return os.RemoveAll(cache) == nil }, 10*time.Second, 20*time.Millisecond)
	writeFileAt(t, root, "codex/characters/tobin-ash.md", "---\nname: Tobin Ash\nsummary: Lamplighter of the quay.\n---\n# Tobin Ash\n")
	writeFileAt(t, root, "manuscript/03-quay.md", "# Quay\n\nTobin Ash lit the lamps.\n")

	requireHover(t, c, "manuscript/03-quay.md", 2, 1, "Tobin Ash")
	requireToldInMemory(t, c, "was deleted")
	requireSearchFinds(t, c, "lamplighter", "Tobin Ash")
	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	assert.NoDirExists(t, cache, "nothing is written once the cache is gone")
}
