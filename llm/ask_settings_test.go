package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/advisor"
	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
)

// A persona limited in quire.yaml is sent only its tools, is refused a
// hidden one it calls anyway, and is given the writer's rules.
func TestAskHonoursTheScopeAndRulesOfQuireYAML(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	settings := advisor.Settings{
		Rules: []string{"Never reveal the ending."},
		Personas: map[string]advisor.PersonaSettings{"continuity-editor": {
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

func TestAskTakesLimitsFromSettings(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"Mara Vell"}`}),
		providertest.TextStep("Done."),
	)
	res, err := Ask(context.Background(), AskInput{
		Request:  Request{Persona: ResolvePersona("continuity-editor"), Message: "Mara?", Settings: advisor.Settings{Limits: toolloop.Limits{MaxOutputBytes: 64}, Rounds: 1}},
		Sources:  b,
		Provider: scriptedProvider(t, s),
	})
	require.NoError(t, err)
	require.Len(t, res.Trace, 1)
	assert.Equal(t, toolloop.CodeToolOutputTooLarge, res.Trace[0].Code, "the output limit of the settings applies")
	assert.Equal(t, 2, res.Rounds, "one tool round, then the answer")
}
