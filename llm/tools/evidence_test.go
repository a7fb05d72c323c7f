package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// Evidence is collected as the tools run, not read back from what they
// returned: the tool message's text plays no part, the trace row says how
// the call ended, and a failed call keeps what it asked but no files.
func TestEvidenceIsCollectedAsToolsRun(t *testing.T) {
	e := NewEvidence()
	read := e.reading(Lookup{Tool: "get_character_context", Name: "  Mara  "})
	read.add("codex/characters/mara-vell/index.md", "sha256:aa")
	e.Traced(toolloop.TraceRow{Round: 1, Tool: "get_character_context", OK: true})
	failed := e.reading(Lookup{Tool: "get_location_context", Name: "Nowhere"})
	failed.add("codex/locations/quay.md", "sha256:bb")
	e.Traced(toolloop.TraceRow{Round: 1, Tool: "get_location_context", Code: toolloop.CodeNotFound})
	e.Traced(toolloop.TraceRow{Round: 2, Tool: "search_codex", Code: toolloop.CodeInvalidArguments})

	msgs := []provider.Message{
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
			{ID: "a", Name: "get_character_context", Arguments: `{"name":"  Mara  "}`},
			{ID: "b", Name: "get_location_context", Arguments: `{"name":"Nowhere"}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "a", Content: "not what the tool returned"},
		{Role: provider.RoleTool, ToolCallID: "b", Content: `{"ok":true,"data":{"relativePath":"codex/x.md"}}`},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c", Name: "search_codex", Arguments: `{"query":"harbor lights"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c", Content: "{}"},
	}
	assert.Equal(t, []Lookup{
		{Round: 1, Tool: "get_character_context", Name: "Mara", OK: true,
			Paths: []string{"codex/characters/mara-vell/index.md"}, Hashes: []string{"sha256:aa"}},
		{Round: 1, Tool: "get_location_context", Name: "Nowhere", Code: toolloop.CodeNotFound},
		{Round: 2, Tool: "search_codex", Query: "harbor lights", Code: toolloop.CodeInvalidArguments},
	}, e.Lookups(msgs))

	var none *Evidence
	none.reading(Lookup{}).add("x", "y")
	none.Traced(toolloop.TraceRow{})
	assert.Nil(t, none.Lookups(msgs), "sources outside a turn record nothing")
}
