package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// requestTools lists the tool names a recorded request sent.
func requestTools(t *testing.T, body map[string]any) []string {
	t.Helper()
	var names []string
	tools, _ := body["tools"].([]any)
	for _, tool := range tools {
		fn := tool.(map[string]any)["function"].(map[string]any)
		names = append(names, fn["name"].(string))
	}
	return names
}

func TestAskReadsTheBookThroughTools(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_manuscript_context", Args: `{"ref":"current"}`}),
		providertest.TextStep("Anne Marsh stands still with the tide: the stillness is the point."),
	)
	in := AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Is chapter 2 consistent?"}, Sources: b, Provider: scriptedProvider(t, s)}
	peek, err := Peek(context.Background(), in)
	require.NoError(t, err)

	res, err := Ask(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, "continuity-editor", res.Persona.ID)
	assert.Contains(t, res.Answer, "stillness")
	require.Len(t, res.Trace, 1)
	assert.Equal(t, "get_manuscript_context", res.Trace[0].Tool)
	assert.True(t, res.Trace[0].OK)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.JSONEq(t, string(peek), string(reqs[0].Body), "peek is exactly what the first request sends")
	first := reqs[0].Decoded(t)
	assert.Equal(t, false, first["parallel_tool_calls"])
	assert.Contains(t, requestTools(t, first), "search_codex")
	assert.Contains(t, requestTools(t, first), "propose_codex_update")
	msgs := first["messages"].([]any)
	require.GreaterOrEqual(t, len(msgs), 3)
	system := msgs[0].(map[string]any)["content"].(string)
	assert.Contains(t, system, "continuity editor")
	meta := msgs[1].(map[string]any)["content"].(string)
	assert.Contains(t, meta, "manuscript/02-slack-water.md")
	raw, err := json.Marshal(msgs)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "The tide stood still", "the first request carries no prose")
	second := reqs[1].Decoded(t)
	toolMsg := second["messages"].([]any)[len(second["messages"].([]any))-1].(map[string]any)
	assert.Equal(t, "tool", toolMsg["role"])
	assert.Contains(t, toolMsg["content"], "The tide stood still", "prose arrives only through the tool")
}

func TestAskFirstTimeReaderIsBlindToCanon(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t, providertest.TextStep("I was hooked."))
	_, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("first-time-reader"), Message: "How does it read?"}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	assert.Equal(t, []string{"get_manuscript_context", "get_outline"}, requestTools(t, s.Requests()[0].Decoded(t)))
}

func TestAskInlineWithoutTools(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t, providertest.TextStep("Fine."))
	p := scriptedProvider(t, s, func(c *provider.Config) { c.Tools = false })
	_, err := Ask(context.Background(), AskInput{Request: Request{Message: "Thoughts?"}, Sources: b, Provider: p})
	require.NoError(t, err)
	body := s.Requests()[0].Decoded(t)
	assert.Nil(t, body["tools"], "no tools for a provider without tool calling")
	raw, err := json.Marshal(body["messages"])
	require.NoError(t, err)
	assert.Contains(t, string(raw), "The tide stood still", "the open document goes inline")
	msgs := body["messages"].([]any)
	assert.Equal(t, "Thoughts?", msgs[len(msgs)-1].(map[string]any)["content"], "the writer's message stays last")
}

func TestAskReportsTheProposalsOfTheTurn(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	store := &proposal.Store{}
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "propose_codex_update", Args: `{"entryType":"character","name":"Anne Marsh","changeSummary":"note her stillness","targetSection":"Anne Marsh","proposedMarkdown":"Keeps the lighthouse; stands as still as slack water."}`}),
		providertest.TextStep("I proposed a note for Anne Marsh."),
	)
	res, err := Ask(context.Background(), AskInput{Request: Request{Proposals: store, Persona: ResolvePersona("continuity-editor"), Message: "Record her stillness."}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	require.Len(t, res.Proposals, 1, "trace: %+v", res.Trace)
	assert.Equal(t, "codex/characters/anne-marsh.md", res.Proposals[0].Path)
	assert.Equal(t, 1, store.Len())
}

func TestAskRefusesAnEmptyMessage(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t)
	_, err := Ask(context.Background(), AskInput{Request: Request{Message: "  "}, Sources: b, Provider: scriptedProvider(t, s)})
	require.Error(t, err)
	assert.Empty(t, s.Requests())
}

func TestAskInlineContextIsBounded(t *testing.T) {
	files := bookFiles()
	long := strings.Repeat("The tide stood still and the gulls waited. ", 1500) // ~64,000 characters
	files["manuscript/02-slack-water.md"] = "# Slack Water\n\n" + long + "\n"
	b, _ := openBook(t, files)
	s := providertest.New(t, providertest.TextStep("Fine."))
	p := scriptedProvider(t, s, func(c *provider.Config) { c.Tools = false })
	_, err := Ask(context.Background(), AskInput{Request: Request{Message: "Thoughts?"}, Sources: b, Provider: p})
	require.NoError(t, err)
	msgs := s.Requests()[0].Decoded(t)["messages"].([]any)
	inline := msgs[len(msgs)-2].(map[string]any)["content"].(string)
	assert.Contains(t, inline, "[quire: truncated; showing the first")
	assert.Contains(t, inline, "of 64")
	assert.Less(t, len([]rune(inline)), InlineContextChars+500, "the inline context stays within its bound")
}
