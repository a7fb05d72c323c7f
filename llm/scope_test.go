package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
)

func TestScopeNamesDeclaredMCPServers(t *testing.T) {
	s, err := LoadSettings(writeSettings(t, "mcp_servers:\n  dict: {command: dict-server}\npersonas:\n  writing-coach:\n    tools: {groups: [manuscript_read], mcp: [dict]}\n"))
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
		s, err := LoadSettings(dir)
		require.NoError(t, err)
		assert.Equal(t, []string{"Use British spelling.", "Never reveal the ending."}, s.Rules)
		ed := s.Apply(ResolvePersona("continuity-editor"))
		assert.Equal(t, []string{"Use British spelling.", "Never reveal the ending.", "Check dates against the event entries."}, ed.Rules)
		assert.True(t, ed.AllowsTool("get_character_context"))
		assert.False(t, ed.AllowsTool("search_codex"))
		assert.False(t, ed.AllowsTool("propose_codex_update"), "a scope given replaces the default")
		reader := s.Apply(ResolvePersona("first-time-reader"))
		assert.Equal(t, []string{"get_manuscript_context"}, reader.Tools(), "rules alone keep the default scope")
		assert.Equal(t, "You are fourteen.", reader.Rules[2])
		coach := s.Apply(ResolvePersona("writing-coach"))
		assert.Equal(t, s.Rules, coach.Rules)
		assert.Empty(t, ResolvePersona("writing-coach").Rules, "the board itself is untouched")
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
			_, err := LoadSettings(writeSettings(t, tt.yaml))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "quire.yaml: "+tt.want)
		})
	}
}

// A persona limited in quire.yaml is sent only its tools, is refused a
// hidden one it calls anyway, and is given the writer's rules.
func TestAskHonoursTheScopeAndRulesOfQuireYAML(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	settings := Settings{
		Rules: []string{"Never reveal the ending."},
		Personas: map[string]PersonaSettings{"continuity-editor": {
			Tools: tools.Scope{Groups: []string{tools.GroupManuscriptRead, tools.GroupCanonRead}, Exclude: []string{"search_codex"}},
			Rules: []string{"Check dates against the event entries."},
		}},
	}
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "search_codex", Args: `{"query":"Mara"}`},
			providertest.Call{ID: "c2", Name: "propose_codex_create", Args: `{}`}),
		providertest.TextStep("I could not search."),
	)
	res, err := Ask(context.Background(), AskInput{
		Request:  Request{Persona: ResolvePersona("continuity-editor"), Settings: settings, Message: "Is Mara consistent?"},
		Sources:  b,
		Provider: scriptedProvider(t, s),
	})
	require.NoError(t, err)
	require.Len(t, res.Trace, 2)
	for _, row := range res.Trace {
		assert.False(t, row.OK)
		assert.Equal(t, toolloop.CodeToolDenied, row.Code, row.Tool)
	}
	first := s.Requests()[0].Decoded(t)
	var sent []string
	for _, tool := range first["tools"].([]any) {
		sent = append(sent, tool.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	assert.ElementsMatch(t, []string{"get_manuscript_context", "get_character_context", "get_location_context", "get_organization_context",
		"get_item_context", "get_concept_context", "get_event_context", "get_style_context", "list_codex_entries"}, sent)
	system, err := json.Marshal(first["messages"].([]any)[0])
	require.NoError(t, err)
	prompt := string(system)
	rules := strings.Index(prompt, "## The writer's rules")
	require.Positive(t, rules)
	assert.Less(t, strings.Index(prompt, "## How you answer"), rules, "the rules follow the role sections")
	assert.Less(t, rules, strings.Index(prompt, "## The book and its readers"))
	assert.Less(t, strings.Index(prompt, "- Never reveal the ending."), strings.Index(prompt, "- Check dates against the event entries."))
	assert.NotContains(t, prompt, "search_codex", "the prompt does not describe a tool the persona lacks")
}

func TestWritersToolGroups(t *testing.T) {
	s, err := LoadSettings(writeSettings(t, `tool_groups:
  people: [get_character_context, get_organization_context, search_codex]
personas:
  writing-coach:
    tools: {groups: [manuscript_read, people], exclude: [search_codex]}
`))
	require.NoError(t, err)
	coach := s.Apply(ResolvePersona("writing-coach"))
	assert.Equal(t, []string{"get_manuscript_context", "get_character_context", "get_organization_context"}, coach.Tools(),
		"a group's tools join before exclude applies")
	for _, tt := range []struct{ yaml, err string }{
		{"tool_groups:\n  canon_read: [search_codex]\n", `line 2: "canon_read" is a built-in tool group`},
		{"tool_groups:\n  People: [search_codex]\n", `line 2: tool group name "People"`},
		{"tool_groups:\n  people: [get_timeline]\n", `line 2: tool group people: unknown tool "get_timeline"`},
		{"tool_groups:\n  people: []\n", "line 2: tool group people must be a list of tools"},
		{"personas:\n  writing-coach:\n    tools: {groups: [people]}\n", `line 3: unknown tool group "people"`},
	} {
		_, err := LoadSettings(writeSettings(t, tt.yaml))
		assert.ErrorContains(t, err, "quire.yaml: "+tt.err, tt.yaml)
	}
}
