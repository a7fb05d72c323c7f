package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// TestAskSetsInterimTextApart: text a reply carries next to its tool
// calls (https://platform.openai.com/docs/api-reference/chat/object,
// content beside tool_calls) is not the answer: the terminal shows it
// marked as interim, the same streamed or not, and --json has it as
// interim beside the answer.
func TestAskSetsInterimTextApart(t *testing.T) {
	book, cache := sampleProject(t)
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	steps := []evalserver.Step{
		{Body: evalserver.Body(map[string]any{"role": "assistant", "content": "PRE_TOOL",
			"tool_calls": evalserver.ToolCalls([]evalserver.Call{{ID: "c1", Name: "search_codex", Args: `{"query":"harbor"}`}})}, "tool_calls")},
		{Body: evalserver.Body(map[string]any{"role": "assistant", "content": "POST_TOOL"}, "stop")},
	}
	ask := func(extra ...string) string {
		model.Load(steps)
		out, _, err := run(t, append([]string{"ask", "--project", book, cache, "--base-url", model.BaseURL(), "--model", "fake",
			"--tools", "on", "--persona", "continuity-editor", "Eyes?"}, extra...)...)
		require.NoError(t, err)
		require.Len(t, model.Requests(), 2)
		return out
	}
	plain := ask()
	streamed := ask("--stream")
	assert.Equal(t, "Continuity Editor:\n\nPRE_TOOL\n"+interimNote+"\n\nPOST_TOOL\n", plain)
	assert.Equal(t, plain, streamed, "streamed or not, the terminal shows the same")
	assert.True(t, evalserver.WantsStream(model.Requests()[1].Body))

	var got struct {
		Answer  string   `json:"answer"`
		Interim []string `json:"interim"`
	}
	require.NoError(t, json.Unmarshal([]byte(ask("--json")), &got))
	assert.Equal(t, "POST_TOOL", got.Answer)
	assert.Equal(t, []string{"PRE_TOOL"}, got.Interim)
}
