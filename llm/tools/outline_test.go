package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// plannedFiles is a book of three chapters whose second has two scenes,
// one with a note giving its synopsis, status and pov.
func plannedFiles() map[string]string {
	files := map[string]string{}
	for k, v := range bookFiles() {
		if !strings.HasPrefix(k, "manuscript/") {
			files[k] = v
		}
	}
	files["manuscript/01-the-harbor.md"] = "---\ntitle: The Harbor\npov: Mara Vell\nday: 1\nstatus: final\nsynopsis: Mara lands at night.\n---\nMara steps onto the quay.\n"
	files["manuscript/02-the-vault.md"] = "---\ntitle: The Vault\nday: 2\n---\nMara waits.\n\n* * *\n\n<!-- scene\ntitle: Ledgers\npov: Ilse Dorn\nstatus: draft\nsynopsis: Ilse counts the ledgers.\nsynopsis-hash: 000000000000\n-->\n\nIlse counts.\n"
	files["manuscript/03-the-tide.md"] = "---\ntitle: The Tide\n---\nThe tide turns.\n"
	return files
}

func TestOutlineTool(t *testing.T) {
	b, roots := openBook(t, plannedFiles())
	env := call(t, b, roots, OutlineName, `{}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	data := env["data"].(map[string]any)
	assert.Equal(t, `1 "The Harbor"`, data["from"])
	assert.Equal(t, `3 "The Tide"`, data["to"])
	book := data["book"].(map[string]any)
	assert.EqualValues(t, 3, book["chapters"])
	assert.EqualValues(t, 4, book["scenes"])
	assert.EqualValues(t, 2, book["withSynopsis"])
	assert.EqualValues(t, 1, book["stale"])
	chapters := data["acts"].([]any)[0].(map[string]any)["chapters"].([]any)
	require.Len(t, chapters, 3)
	one := chapters[0].(map[string]any)
	assert.Equal(t, "Mara lands at night.", one["synopsis"])
	assert.Equal(t, "final", one["status"])
	assert.EqualValues(t, 1, one["day"])
	ledgers := chapters[1].(map[string]any)["scenes"].([]any)[1].(map[string]any)
	assert.Equal(t, "Ledgers", ledgers["title"])
	assert.Equal(t, "Ilse Dorn", ledgers["pov"])
	assert.Equal(t, true, ledgers["stale"])
	assert.NotContains(t, ledgers, "day", "the chapter's day is said once, on the chapter")
	assert.NotContains(t, ledgers, "appear", "no codex names: a reader blind to canon reads it")
	assert.Contains(t, fmt.Sprint(env["warnings"]), "have no synopsis")

	env = call(t, b, roots, OutlineName, `{"from":"2","to":"The Vault"}`)
	data = env["data"].(map[string]any)
	assert.EqualValues(t, 1, data["book"].(map[string]any)["chapters"])

	env = call(t, b, roots, OutlineName, `{"from":"3","to":"1"}`)
	code, _, _ := errorOf(t, env)
	assert.Equal(t, toolloop.CodeInvalidArguments, code)
}

// TestOutlineToolBounds: a long book's outline comes in parts, each
// within the bounds, and says where to read on.
func TestOutlineToolBounds(t *testing.T) {
	files := map[string]string{}
	long := strings.Repeat("Something happens and changes everything. ", 12)
	require.Greater(t, len(long), maxOutlineSynopsis)
	for i := 1; i <= 120; i++ {
		files[fmt.Sprintf("manuscript/%03d-ch.md", i)] = fmt.Sprintf("---\ntitle: Chapter %d\nsynopsis: %s\n---\nText %d.\n", i, long, i)
	}
	b, roots := openBook(t, files)
	env := call(t, b, roots, OutlineName, `{}`)
	data := env["data"].(map[string]any)
	chapters := data["acts"].([]any)[0].(map[string]any)["chapters"].([]any)
	for _, c := range chapters {
		s := c.(map[string]any)["synopsis"].(string)
		assert.LessOrEqual(t, len([]rune(s)), maxOutlineSynopsis)
	}
	raw, err := json.Marshal(env)
	require.NoError(t, err)
	assert.Less(t, len(raw), toolloop.DefaultMaxOutputBytes, "within the tool loop's output")
	assert.Less(t, len(chapters), 120)
	assert.EqualValues(t, 120, data["book"].(map[string]any)["chapters"], "the counts cover the whole range")
	next := len(chapters) + 1
	assert.Contains(t, fmt.Sprint(env["warnings"]), fmt.Sprintf(`ask again with from "Chapter %d"`, next))
}

// TestOutlineEvidence: the outline call is evidence of its own, and a
// chapter read after the outline listed it says so: why it was read.
func TestOutlineEvidence(t *testing.T) {
	b, roots := openBook(t, plannedFiles())
	e := NewEvidence()
	turn := b.ForTurn(e)
	call(t, turn, roots, OutlineName, `{"to":"2"}`)
	e.Traced(toolloop.TraceRow{Round: 1, Tool: OutlineName, OK: true})
	call(t, turn, roots, ManuscriptName, `{"ref":"2"}`)
	e.Traced(toolloop.TraceRow{Round: 2, Tool: ManuscriptName, OK: true})
	call(t, turn, roots, ManuscriptName, `{"ref":"3"}`)
	e.Traced(toolloop.TraceRow{Round: 2, Tool: ManuscriptName, OK: true})
	msgs := []provider.Message{
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a", Name: OutlineName, Arguments: `{"to":"2"}`}}},
		{Role: provider.RoleTool, ToolCallID: "a"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "b", Name: ManuscriptName, Arguments: `{"ref":"2"}`}, {ID: "c", Name: ManuscriptName, Arguments: `{"ref":"3"}`}}},
		{Role: provider.RoleTool, ToolCallID: "b"},
		{Role: provider.RoleTool, ToolCallID: "c"},
	}
	lookups := e.Lookups(msgs)
	require.Len(t, lookups, 3)
	assert.Equal(t, OutlineName, lookups[0].Tool)
	assert.Equal(t, "to 2", lookups[0].Ref)
	assert.Equal(t, 2, lookups[0].Outlined)
	assert.Equal(t, "get_outline chapters to 2", lookups[0].Call())
	assert.Equal(t, "get_outline chapters to 2", lookups[1].Via, "chapter 2 was read after the outline listed it")
	assert.Equal(t, `get_manuscript_context "2"`, lookups[1].Call())
	assert.Empty(t, lookups[2].Via, "chapter 3 was not in the outline read")
}
