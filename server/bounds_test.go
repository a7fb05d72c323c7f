package server

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
)

// repeatedKeysInBook is how many times the hostile entry repeats its
// key: the 40 KB file that once made the server run out of memory on
// every start.
const repeatedKeysInBook = 8000

// TestServeBookWithRepeatedKeys opens a book whose codex holds an entry
// of thousands of repeated front matter keys, over JSON-RPC: the server
// lists a bounded number of problems for it, answers hover, and the whole
// start costs bounded memory (allocations are measured, not time).
func TestServeBookWithRepeatedKeys(t *testing.T) {
	hostile := "---\ntype: character\nname: U\n" + strings.Repeat("x: y\n", repeatedKeysInBook) + "---\n# One\n"
	root := writeProject(t, map[string]string{
		"codex/characters/u.md":         hostile,
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler.\n---\n# Mara Vell\n",
		"manuscript/01.md":              "# One\n\nMara rowed out.\n",
	})

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	c := startServer(t, Options{})
	c.initialize(root)
	uri := c.uri("codex/characters/u.md")
	capped := func(ds []protocol.Diagnostic) bool {
		return len(ds) == codex.MaxProblemsPerFile+1 && ds[len(ds)-1].Code == codex.CodeTooManyProblems
	}
	ds := c.waitDiagnostics(uri, "the entry's problems, capped", capped)
	assert.Contains(t, ds[len(ds)-1].Message, "more problems in this file are not listed")

	h := c.hoverAt("manuscript/01.md", 2, 1)
	require.NotNil(t, h, "hover answers after the book is opened")
	assert.Contains(t, h.Contents.Value, "Mara Vell")

	// The writer opens the entry and types: its problems are read from
	// the editor's text, and stay capped.
	c.open("codex/characters/u.md", hostile+"more\n")
	c.waitDiagnostics(uri, "the open entry's problems, capped", capped)

	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated to serve a book with a %d-byte entry", allocated, len(hostile))
	// Opening the book once allocated gigabytes; a few hundred megabytes
	// leaves room for the index and everything else a start does.
	assert.Less(t, allocated, uint64(400<<20))
}
