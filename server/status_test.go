package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/server/wire"
)

// statuses are the quire/status notifications received so far.
func (c *testClient) statuses() []wire.BookStatus {
	var out []wire.BookStatus
	for _, raw := range c.sent(wire.MethodStatus) {
		var st wire.BookStatus
		require.NoError(c.t, json.Unmarshal(raw, &st))
		out = append(out, st)
	}
	return out
}

func TestStatusFollowsTheBook(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, bookFiles)
	c.initialize(root)
	require.Eventually(t, func() bool {
		st := c.statuses()
		return len(st) > 0 && st[len(st)-1].State == stateReady
	}, 10*time.Second, 5*time.Millisecond)
	var states []string
	for _, st := range c.statuses() {
		states = append(states, st.State)
	}
	// Indexing is said when the mention index is still building once the
	// book is read; a small book on a busy machine may finish it first,
	// and then goes from loading to ready.
	if len(states) == 2 {
		assert.Equal(t, []string{stateLoading, stateReady}, states)
	} else {
		assert.Equal(t, []string{stateLoading, stateIndexing, stateReady}, states)
	}

	var got wire.StatusResult
	c.call(wire.MethodStatus, map[string]any{}, &got)
	require.Len(t, got.Books, 1)
	book := got.Books[0]
	assert.Equal(t, stateReady, book.State)
	assert.Equal(t, 2, book.Entries)
	assert.Positive(t, book.Chapters)
	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	assert.Equal(t, real, book.Root)

	// A new entry on disk: the watcher's change is announced with the new count.
	require.NoError(t, os.WriteFile(filepath.Join(root, "codex/characters/oren-salt.md"), []byte("---\nname: Oren Salt\n---\n# Oren Salt\n"), 0o644))
	require.Eventually(t, func() bool {
		st := c.statuses()
		return st[len(st)-1].Entries == 3
	}, 10*time.Second, 10*time.Millisecond)
}

func TestStatusOfABookThatCannotOpen(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(filepath.Join(t.TempDir(), "no-such-book"))
	require.Eventually(t, func() bool {
		st := c.statuses()
		return len(st) > 0 && st[len(st)-1].State == stateError
	}, 10*time.Second, 5*time.Millisecond)
	st := c.statuses()
	assert.Contains(t, st[len(st)-1].Message, "no-such-book")
}

func TestReindexRereadsEverything(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, bookFiles)
	mara := filepath.Join(root, "codex/characters/mara-vell.md")
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(mara, old, old))
	c.initialize(root)
	var ready wire.ReindexResult
	c.call(wire.MethodReindex, nil, &ready)
	assert.Equal(t, stateReady, ready.State)
	assert.Equal(t, 2, ready.Entries)

	// An edit the watcher cannot see as one (same size, same time, made
	// while the server was not looking) is found by a reindex.
	text, err := os.ReadFile(mara)
	require.NoError(t, err)
	changed := []byte(string(text[:len(text)-len("debts.\n")]) + "coins.\n")
	require.Len(t, changed, len(text))
	var res wire.ReindexResult
	// The watcher may or may not notice the write; either way the reindex
	// must leave the new text in the index.
	require.NoError(t, os.WriteFile(mara, changed, 0o644))
	require.NoError(t, os.Chtimes(mara, old, old))
	c.call(wire.MethodReindex, map[string]any{"uri": c.uri("codex/characters/mara-vell.md")}, &res)
	assert.Equal(t, 2, res.Entries)
	var found struct {
		Results []json.RawMessage `json:"results"`
	}
	c.call(wire.MethodSearch, map[string]any{"query": "coins"}, &found)
	assert.Len(t, found.Results, 1, "the index has the edit")
	var cmd wire.ReindexResult
	c.call("workspace/executeCommand", map[string]any{"command": "quire.reindex"}, &cmd)
	assert.Equal(t, stateReady, cmd.State)
}

// The writer's config.yaml lies outside the book, and no watcher saw it
// change: the server kept the provider it read at the start, and an
// editor's advisor item said "no provider" after the writer chose one in
// a terminal. The server follows the file now, and quire/status says
// the provider it reads, so the editor can show the advisor again.
func TestStatusFollowsTheWritersConfig(t *testing.T) {
	config := filepath.Join(testhome.ConfigDir(t), "quire")
	c := startServer(t, Options{})
	root := writeProject(t, bookFiles)
	c.initialize(root)
	latest := func() wire.BookStatus {
		st := c.statuses()
		if len(st) == 0 {
			return wire.BookStatus{}
		}
		return st[len(st)-1]
	}
	require.Eventually(t, func() bool { return latest().State == stateReady }, 10*time.Second, 5*time.Millisecond)
	assert.Empty(t, latest().Provider, "no provider is configured yet")
	var doc wire.DoctorResult
	c.call(wire.MethodDoctor, wire.BookParams{}, &doc)
	assert.Equal(t, "warning", checkOf(doc, "provider").Status, "no model yet is a choice, not a failure")

	// The folder does not exist yet: the writer's first config.yaml.
	require.NoError(t, os.MkdirAll(config, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "config.yaml"),
		[]byte("provider:\n  base_url: http://127.0.0.1:9/v1\n  model: chosen-in-a-terminal\n"), 0o644))
	require.Eventually(t, func() bool { return latest().Provider == "chosen-in-a-terminal at http://127.0.0.1:9/v1" },
		10*time.Second, 20*time.Millisecond, "quire/status follows config.yaml: %+v", latest())
	c.call(wire.MethodDoctor, wire.BookParams{}, &doc)
	assert.Contains(t, checkOf(doc, "provider").Detail, "chosen-in-a-terminal")

	// The book's quire.yaml is over the writer's file, and followed too.
	require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte("provider:\n  model: the-books-own\n"), 0o644))
	require.Eventually(t, func() bool { return latest().Provider == "the-books-own at http://127.0.0.1:9/v1" },
		10*time.Second, 20*time.Millisecond, "quire/status follows quire.yaml: %+v", latest())
}

// checkOf is the health report's check of that name.
func checkOf(r wire.DoctorResult, name string) wire.DoctorCheck {
	for _, ch := range r.Checks {
		if ch.Name == name {
			return ch
		}
	}
	return wire.DoctorCheck{}
}
