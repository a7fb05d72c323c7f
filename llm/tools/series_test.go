package tools

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// With the book's series, the read tools answer from both codices and
// say "series canon" of what the series holds; no output names either
// folder.
func TestReadToolsSaySeriesCanon(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	seriesRoot := writeProject(t, map[string]string{
		"codex/characters/ilse.md": entryFile("name: Ilse Dorn\nsummary: Harbor master of the whole coast.", "# Ilse Dorn\n\nIlse keeps every harbor.\n"),
		"codex/characters/mara.md": entryFile("name: Mara Vell\nrole: Protagonist\nprogressions:\n  - from: 2\n    role: Captain", "# Mara Vell\n\nShe was born at sea.\n"),
		"codex/locations/coast.md": entryFile("name: The Long Coast", "# The Long Coast\n\nWhere the series happens.\n"),
	})
	series, err := codex.Open(context.Background(), seriesRoot, codex.Options{InMemory: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = series.Close() })
	b.Canon = codex.NewView(b.Store, series)
	roots = append(roots, seriesRoot)

	env := call(t, b, roots, "get_character_context", `{"name": "Ilse Dorn"}`)
	data := env["data"].(map[string]any)
	assert.Equal(t, "Harbor master of the whole coast.", data["summary"])
	assert.Equal(t, codex.CanonSeries, data["canon"])
	assert.Equal(t, "codex/characters/ilse.md", data["relativePath"])

	env = call(t, b, roots, "get_character_context", `{"name": "Mara Vell"}`)
	data = env["data"].(map[string]any)
	assert.Equal(t, "Smuggler who owes the sea a debt.", data["summary"], "the book's entry wins")
	assert.Equal(t, codex.CanonBookOverSeries, data["canon"])
	// The series' progression holds under the book's entry, as of the
	// writer's chapter 2, and says where it comes from.
	asOf := data["asOf"].(map[string]any)
	assert.Equal(t, []any{`from chapter 2 "Slack Water": role: Captain, series canon`}, asOf["applied"])

	env = call(t, b, roots, "list_codex_entries", `{"entryType": "location"}`)
	assert.Contains(t, asSlice(env["data"].(map[string]any)["entries"]), map[string]any{
		"name": "The Long Coast", "relativePath": "codex/locations/coast.md", "status": "confirmed", "summary": "Where the series happens.", "canon": codex.CanonSeries})

	env = call(t, b, roots, "search_codex", `{"query": "every harbor"}`)
	results := asSlice(env["data"].(map[string]any)["results"])
	require.NotEmpty(t, results)
	assert.Equal(t, "Ilse Dorn", results[0].(map[string]any)["name"])
	assert.Equal(t, codex.CanonSeries, results[0].(map[string]any)["canon"])
}
