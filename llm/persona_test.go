package llm

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/tools"
)

var boardIDs = []string{
	"developmental-editor", "character-psychologist", "continuity-editor",
	"worldbuilding-auditor", "first-time-reader", "writing-coach",
}

func TestPersonasBoard(t *testing.T) {
	ps := Personas()
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
		assert.NotEmpty(t, p.Name, p.ID)
		assert.NotEmpty(t, p.Focus, p.ID)
		assert.NotEmpty(t, p.Who, p.ID)
		assert.GreaterOrEqual(t, len(p.Looks), 3, p.ID)
		assert.GreaterOrEqual(t, len(p.Answers), 3, p.ID)
		answers := strings.ToLower(strings.Join(p.Answers, " "))
		assert.True(t, strings.Contains(answers, "read"), "%s: answers must ground claims in reading the book", p.ID)
		assert.True(t, strings.Contains(answers, "know") || strings.Contains(answers, "have not"),
			"%s: answers must say what to do when the persona does not know", p.ID)
	}
	assert.Equal(t, boardIDs, ids, "fixed order")

	ps[0].Looks[0] = "changed"
	ps[0].Name = "changed"
	again := Personas()
	assert.NotEqual(t, "changed", again[0].Looks[0], "Personas returns copies")
	assert.Equal(t, "Developmental Editor", again[0].Name)
}

func TestPersonaByIDAndResolve(t *testing.T) {
	for _, id := range boardIDs {
		p, ok := PersonaByID(id)
		require.True(t, ok, id)
		assert.Equal(t, id, p.ID)
		assert.Equal(t, id, ResolvePersona(id).ID)
	}
	tests := []struct{ in, want string }{
		{"Continuity-Editor", "continuity-editor"},
		{"  first-time-reader\n", "first-time-reader"},
		{"WRITING-COACH", "writing-coach"},
		{"", "developmental-editor"},
		{"   ", "developmental-editor"},
		{"editor", "developmental-editor"},
		{"continuity editor", "developmental-editor"},
		{"../developmental-editor", "developmental-editor"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ResolvePersona(tt.in).ID, "%q", tt.in)
	}
	_, ok := PersonaByID("continuity editor")
	assert.False(t, ok)
	_, ok = PersonaByID("")
	assert.False(t, ok)
}

func TestPersonaTools(t *testing.T) {
	reader := ResolvePersona("first-time-reader")
	assert.True(t, reader.AllowsTool("get_manuscript_context"))
	for _, n := range []string{"get_character_context", "search_codex", "list_codex_entries", "propose_codex_update"} {
		assert.False(t, reader.AllowsTool(n), "the blind reader does not consult canon: %s", n)
	}
	assert.Contains(t, reader.Who, "blind")

	// Only the three who check canon against the book may propose changes to it.
	proposers := []string{"continuity-editor", "worldbuilding-auditor", "character-psychologist"}
	for _, p := range Personas() {
		assert.True(t, p.AllowsTool("get_manuscript_context"), p.ID)
		if p.ID == "first-time-reader" {
			continue
		}
		for _, n := range tools.Groups()[tools.GroupCanonRead] {
			assert.True(t, p.AllowsTool(n), "%s reads canon: %s", p.ID, n)
		}
		for _, n := range tools.ProposeNames() {
			assert.Equal(t, slices.Contains(proposers, p.ID), p.AllowsTool(n), "%s and %s", p.ID, n)
		}
	}
	// A character's lines of dialogue are for the two who read people
	// and lines: the character psychologist and the writing coach, the
	// board's line editor.
	for _, p := range Personas() {
		want := p.ID == "character-psychologist" || p.ID == "writing-coach"
		assert.Equal(t, want, p.AllowsTool(tools.DialogueName), p.ID)
		assert.Equal(t, want, slices.Contains(p.Scope.Groups, tools.GroupDialogueRead), "%s: by its group", p.ID)
	}
	editor := ResolvePersona("continuity-editor")
	assert.ElementsMatch(t, designToolNames(), editor.Tools())
	assert.False(t, editor.AllowsTool("anything_new"), "a tool outside every group is not in a scope unless included")
}

func TestChoosePersona(t *testing.T) {
	for _, tt := range []struct {
		name string
		ids  []string
		want string
		err  string
	}{
		{name: "none given", want: DefaultPersonaID},
		{name: "empty ones", ids: []string{"", "  "}, want: DefaultPersonaID},
		{name: "the request's first", ids: []string{"writing-coach", "continuity-editor"}, want: "writing-coach"},
		{name: "the setting when the request names none", ids: []string{"", "Continuity-Editor "}, want: "continuity-editor"},
		{name: "a name nobody has is refused, not replaced", ids: []string{"continuity-edtior", "writing-coach"}, err: `There is no persona "continuity-edtior"; the advisors are developmental-editor, `},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ChoosePersona(tt.ids...)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				var unknown *UnknownPersonaError
				require.ErrorAs(t, err, &unknown)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.ID)
		})
	}
}
