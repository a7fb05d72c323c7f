package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
)

func TestAskEvidenceNamesFilesAndHashesNotProse(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	long := strings.Repeat("x", 500)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "c1", Name: "get_manuscript_context", Args: `{"refs":["current","1"]}`},
			providertest.Call{ID: "c2", Name: "get_character_context", Args: `{"name":"Mara"}`},
		),
		providertest.CallsStep(
			providertest.Call{ID: "c3", Name: "search_codex", Args: `{"query":"lighthouse"}`},
			providertest.Call{ID: "c4", Name: "get_location_context", Args: `{"name":"` + long + `"}`},
			providertest.Call{ID: "c5", Name: "propose_codex_update", Args: `{"entryType":"character","name":"Anne Marsh","changeSummary":"x","targetSection":"Anne Marsh","proposedMarkdown":"Still."}`},
		),
		providertest.TextStep("The tide is consistent."),
	)
	res, err := Ask(context.Background(), AskInput{Book: b, PersonaID: "continuity-editor", Message: "Check chapter 2.", Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	require.Len(t, res.Evidence, 4, "proposal calls are not lookups")

	ms := res.Evidence[0]
	assert.Equal(t, 1, ms.Round)
	assert.Equal(t, "get_manuscript_context", ms.Tool)
	assert.Equal(t, "current, 1", ms.Ref)
	assert.True(t, ms.OK)
	assert.Equal(t, []string{"manuscript/02-slack-water.md", "manuscript/01-the-harbor.md"}, ms.Paths)
	u, ok := b.Manuscript.Unit("manuscript/02-slack-water.md")
	require.True(t, ok)
	assert.Equal(t, manuscript.HashText(u.BodyText()), ms.Hashes[0])
	require.Len(t, ms.Hashes, 2)
	assert.True(t, strings.HasPrefix(ms.Hashes[1], "sha256:"))

	ch := res.Evidence[1]
	assert.Equal(t, "Mara", ch.Name)
	assert.Equal(t, []string{"codex/characters/mara-vell/index.md"}, ch.Paths)
	e, ok := b.Store.Catalog().Get("codex/characters/mara-vell/index.md")
	require.True(t, ok)
	assert.Equal(t, []string{manuscript.HashText(e.Source)}, ch.Hashes)

	search := res.Evidence[2]
	assert.Equal(t, 2, search.Round)
	assert.Equal(t, "lighthouse", search.Query)
	assert.NotEmpty(t, search.Paths)
	assert.LessOrEqual(t, len(search.Paths), maxEvidencePaths)
	assert.Len(t, search.Hashes, len(search.Paths))

	bad := res.Evidence[3]
	assert.False(t, bad.OK)
	assert.NotEmpty(t, bad.Code)
	assert.Empty(t, bad.Paths)
	assert.LessOrEqual(t, len([]rune(bad.Name)), maxEvidenceArgRunes)

	raw, err := json.Marshal(res.Evidence)
	require.NoError(t, err)
	for _, prose := range []string{"The tide stood still", "Mara Vell walked", "runs contraband", "Still.", "Keeps the lighthouse"} {
		assert.NotContains(t, string(raw), prose, "evidence never carries prose")
	}
}

func TestEvidenceIgnoresHistory(t *testing.T) {
	msgs := []provider.Message{
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "old", Name: "search_codex", Arguments: `{"query":"q"}`}}},
		{Role: provider.RoleTool, ToolCallID: "old", Content: `{"ok":true,"data":{"results":[]}}`},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "new", Name: "list_codex_entries", Arguments: `{"entryType":"character"}`}}},
		{Role: provider.RoleTool, ToolCallID: "new", Content: `not json`},
	}
	ev := evidenceOf(nil, msgs, 2)
	require.Len(t, ev, 1)
	assert.Equal(t, "list_codex_entries", ev[0].Tool)
	assert.Equal(t, "character", ev[0].EntryType)
	assert.False(t, ev[0].OK)
	assert.Equal(t, toolloop.CodeToolFailed, ev[0].Code)
}
