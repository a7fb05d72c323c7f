package advisor_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/tools"
)

func TestScopeNamesDeclaredMCPServers(t *testing.T) {
	s, err := loadSettings(writeSettings(t, "mcp_servers:\n  dict: {command: dict-server}\npersonas:\n  writing-coach:\n    tools: {groups: [manuscript_read], mcp: [dict]}\n"))
	require.NoError(t, err)
	assert.Equal(t, tools.Scope{Groups: []string{tools.GroupManuscriptRead}, MCP: []string{"dict"}}, s.Personas["writing-coach"].Tools)
}

func TestLoadSettingsPersonasAndRules(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		dir := writeSettings(t, `rules:
  - Use British spelling.
  - "  Never   reveal the ending.  "
personas:
  Continuity-Editor:
    tools: {groups: [manuscript_read, canon_read], exclude: [search_codex]}
    rules: [Check dates against the event entries.]
  first-time-reader:
    rules: [You are fourteen.]
`)
		s, err := loadSettings(dir)
		require.NoError(t, err)
		assert.Equal(t, []string{"Use British spelling.", "Never reveal the ending."}, s.Rules)
		ed := llm.ResolvePersona("continuity-editor").With(s)
		assert.Equal(t, []string{"Use British spelling.", "Never reveal the ending.", "Check dates against the event entries."}, ed.Rules)
		assert.True(t, ed.AllowsTool("get_character_context"))
		assert.False(t, ed.AllowsTool("search_codex"))
		assert.False(t, ed.AllowsTool("propose_codex_update"), "a scope given replaces the default")
		reader := llm.ResolvePersona("first-time-reader").With(s)
		assert.Equal(t, []string{"get_outline", "get_manuscript_context"}, reader.Tools(), "rules alone keep the default scope")
		assert.Equal(t, "You are fourteen.", reader.Rules[2])
		coach := llm.ResolvePersona("writing-coach").With(s)
		assert.Equal(t, s.Rules, coach.Rules)
		assert.Empty(t, llm.ResolvePersona("writing-coach").Rules, "the board itself is untouched")
	})
	for _, tt := range []struct {
		name, yaml, want string
	}{
		{"unknown persona", "personas:\n  editor: {rules: [x]}\n", `line 2: no persona "editor"`},
		{"unknown persona key", "personas:\n  writing-coach:\n    rule: [x]\n", `line 3: unknown persona setting "rule" (tools, rules)`},
		{"unknown group", "personas:\n  writing-coach:\n    tools:\n      groups: [all]\n", `line 4: unknown tool group "all"`},
		{"unknown tool", "personas:\n  writing-coach:\n    tools: {include: [get_timeline]}\n", `line 3: unknown tool "get_timeline"`},
		{"unknown tools key", "personas:\n  writing-coach:\n    tools: {allow: [x]}\n", `line 3: unknown tools setting "allow"`},
		{"no such MCP server", "personas:\n  writing-coach:\n    tools: {mcp: [dict]}\n", `line 3: unknown MCP server "dict"`},
		{"an MCP server not among mcp_servers", "mcp_servers:\n  thesaurus: {command: th}\npersonas:\n  writing-coach:\n    tools: {mcp: [thesaurus, dict]}\n", `line 5: unknown MCP server "dict"`},
		{"rules not a list", "rules: be kind\n", "line 1: rules must be a list"},
		{"a rule too long", "rules: [" + strings.Repeat("a", 1001) + "]\n", "line 1: a rule of 1001 bytes"},
		{"too many rules", "rules: [" + strings.Repeat("r, ", 32) + "r]\n", "line 1: 33 rules; at most 32"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadSettings(writeSettings(t, tt.yaml))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "quire.yaml: "+tt.want)
		})
	}
}

func TestWritersToolGroups(t *testing.T) {
	s, err := loadSettings(writeSettings(t, `tool_groups:
  people: [get_character_context, get_organization_context, search_codex]
personas:
  writing-coach:
    tools: {groups: [manuscript_read, people], exclude: [search_codex]}
`))
	require.NoError(t, err)
	coach := llm.ResolvePersona("writing-coach").With(s)
	assert.Equal(t, []string{"get_manuscript_context", "get_character_context", "get_organization_context"}, coach.Tools(),
		"a group's tools join before exclude applies")
	for _, tt := range []struct{ yaml, err string }{
		{"tool_groups:\n  canon_read: [search_codex]\n", `line 2: "canon_read" is a built-in tool group`},
		{"tool_groups:\n  People: [search_codex]\n", `line 2: tool group name "People"`},
		{"tool_groups:\n  people: [get_timeline]\n", `line 2: tool group people: unknown tool "get_timeline"`},
		{"tool_groups:\n  people: []\n", "line 2: tool group people must be a list of tools"},
		{"personas:\n  writing-coach:\n    tools: {groups: [people]}\n", `line 3: unknown tool group "people"`},
	} {
		_, err := loadSettings(writeSettings(t, tt.yaml))
		assert.ErrorContains(t, err, "quire.yaml: "+tt.err, tt.yaml)
	}
}
