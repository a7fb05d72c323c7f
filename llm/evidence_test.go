package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
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
	res, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Check chapter 2."}, Sources: b, Provider: scriptedProvider(t, s)})
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
	assert.Equal(t, codex.HashText(u.BodyText()), ms.Hashes[0])
	require.Len(t, ms.Hashes, 2)
	assert.True(t, strings.HasPrefix(ms.Hashes[1], "sha256:"))

	ch := res.Evidence[1]
	assert.Equal(t, "Mara", ch.Name)
	assert.Equal(t, []string{"codex/characters/mara-vell/index.md"}, ch.Paths)
	e, ok := b.Store.Catalog().Get("codex/characters/mara-vell/index.md")
	require.True(t, ok)
	assert.Equal(t, []string{codex.HashText(e.Source)}, ch.Hashes)

	search := res.Evidence[2]
	assert.Equal(t, 2, search.Round)
	assert.Equal(t, "lighthouse", search.Query)
	assert.NotEmpty(t, search.Paths)
	assert.LessOrEqual(t, len(search.Paths), 8, "a row names at most 8 files (tools.Lookup)")
	assert.Len(t, search.Hashes, len(search.Paths))

	bad := res.Evidence[3]
	assert.False(t, bad.OK)
	assert.NotEmpty(t, bad.Code)
	assert.Empty(t, bad.Paths)
	assert.LessOrEqual(t, len([]rune(bad.Name)), 200, "what a row asked is bounded to 200 characters (tools.Lookup)")

	raw, err := json.Marshal(res.Evidence)
	require.NoError(t, err)
	for _, prose := range []string{"The tide stood still", "Mara Vell walked", "runs contraband", "Still.", "Keeps the lighthouse"} {
		assert.NotContains(t, string(raw), prose, "evidence never carries prose")
	}
}

func TestEvidenceIgnoresHistory(t *testing.T) {
	history := []provider.Message{
		{Role: provider.RoleUser, Content: "Earlier question."},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "old", Name: "search_codex", Arguments: `{"query":"q"}`}}},
		{Role: provider.RoleTool, ToolCallID: "old", Content: `{"ok":true,"data":{"results":[]}}`},
		{Role: provider.RoleAssistant, Content: "Earlier answer."},
	}
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t,
		providertest.CallsStep(
			// A failed proposal is no lookup; after it the listing is
			// not run, and fails.
			providertest.Call{ID: "p", Name: "propose_codex_update", Args: `{"entryType":"character","name":"Nobody Here","changeSummary":"x","targetSection":"Backstory","proposedMarkdown":"x"}`},
			providertest.Call{ID: "new", Name: "list_codex_entries", Args: `{"entryType":"character"}`},
		),
		providertest.TextStep("Nothing to list."),
	)
	res, err := Ask(context.Background(), AskInput{
		Request:  Request{Persona: ResolvePersona("continuity-editor"), Message: "List them.", History: history, Loop: toolloop.Options{ToolFailurePolicy: toolloop.ToolFailureStopAfterN, MaxToolFailures: 1}},
		Sources:  b,
		Provider: scriptedProvider(t, s),
	})
	require.NoError(t, err)
	ev := res.Evidence
	require.Len(t, ev, 1)
	assert.Equal(t, "list_codex_entries", ev[0].Tool)
	assert.Equal(t, "character", ev[0].EntryType)
	assert.False(t, ev[0].OK)
	assert.Equal(t, toolloop.CodeToolFailed, ev[0].Code)
}

// An answer given as of a chapter says which in its evidence row: the
// chapter asOf named, or the writer's own when asOf was left out. A
// lookup answered as written, or one that failed, names none.
func TestEvidenceRecordsAsOf(t *testing.T) {
	b, _ := openSample(t, chapter5)
	s := providertest.New(t,
		providertest.CallsStep(
			providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Jory Fenwick","asOf":"4"}`},
			providertest.Call{ID: "c2", Name: "get_character_context", Args: `{"name":"Jory Fenwick"}`},
			providertest.Call{ID: "c3", Name: "get_location_context", Args: `{"name":"Gannet Light","asOf":"99"}`},
			providertest.Call{ID: "c4", Name: "search_codex", Args: `{"query":"lighthouse"}`},
		),
		providertest.TextStep("He is on the ledge in chapter 4."),
	)
	res, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Where is Jory?"}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	require.Len(t, res.Evidence, 4)

	explicit := res.Evidence[0]
	assert.True(t, explicit.OK)
	assert.Equal(t, chapter4, explicit.AsOf)
	assert.Equal(t, `4 "The Vault Beneath the Light"`, explicit.AsOfChapter)
	assert.False(t, explicit.AsOfImplied)

	implied := res.Evidence[1]
	assert.Equal(t, chapter5, implied.AsOf, "asOf left out: the chapter the writer is in")
	assert.Equal(t, `5 "Salt-Debt"`, implied.AsOfChapter)
	assert.True(t, implied.AsOfImplied)

	failed := res.Evidence[2]
	assert.False(t, failed.OK)
	assert.Empty(t, failed.AsOf)

	assert.Empty(t, res.Evidence[3].AsOf, "search_codex is not answered as of a chapter")

	raw, err := json.Marshal(res.Evidence[:2])
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"asOf":"`+chapter4+`"`)
	assert.Contains(t, string(raw), `"asOfImplied":true`)

	// Outside any chapter, a lookup is answered as written.
	b.Place = manuscript.Place{}
	s = providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Jory Fenwick"}`}),
		providertest.TextStep("Missing."),
	)
	res, err = Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Where is Jory?"}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	require.Len(t, res.Evidence, 1)
	assert.Empty(t, res.Evidence[0].AsOf)
}
