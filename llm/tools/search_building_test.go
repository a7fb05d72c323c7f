package tools

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// While the codex's search index is still being built (a cold start of
// the language server), search_codex answers at once from the names in
// the catalog and warns that summaries and bodies were not searched; once
// the index is built it searches everything again.
func TestSearchCodexWhileTheIndexIsBuilt(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	gate := make(chan struct{})
	store, err := codex.Open(context.Background(), b.Store.Root(), codex.Options{InMemory: true, BackgroundIndex: true, IndexAfter: gate})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	b.Store = store
	require.True(t, store.IndexBuilding())

	env := call(t, b, roots, "search_codex", `{"query":"Quay of Lanterns"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	results := asSlice(env["data"].(map[string]any)["results"])
	require.NotEmpty(t, results)
	assert.Equal(t, "Quay of Lanterns", results[0].(map[string]any)["name"])
	assert.Contains(t, warningsOf(env), "search index is still being built")

	close(gate)
	require.NoError(t, store.WaitIndex(context.Background()))
	env = call(t, b, roots, "search_codex", `{"query":"lanterns"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	assert.NotContains(t, warningsOf(env), "still being built")
	results = asSlice(env["data"].(map[string]any)["results"])
	require.NotEmpty(t, results)
	assert.Equal(t, "Quay of Lanterns", results[0].(map[string]any)["name"])
}
