package card

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

func TestRender(t *testing.T) {
	parse := func(id, src string) *codex.Entry {
		e, _ := codex.Parse(id, []byte(src), codex.TypeCharacter)
		require.NotNil(t, e)
		return e
	}
	ebba := parse("characters/ebba.md", "---\nname: Ebba Strand\naliases: [Ebba, \"*the* pilot\"]\nsummary: Pilot of the [[Harbour Master|master]]'s launch.\n---\n# Ebba Strand\n\n## Early life\n\nBorn in [[Port Caddow]]; `[[not a link]]` stays. \\[[escaped]] too.\n")
	master := parse("characters/master.md", "---\nname: Harbour Master\n---\nKeeps the harbour.\n")
	canon := Canon{
		Catalog:   codex.NewCatalog([]*codex.Entry{ebba, master}, nil),
		EntryLink: func(e *codex.Entry) string { return "file:///book/" + e.ID },
		FileLink:  func(path string) string { return "file://" + path },
	}
	tests := []struct {
		name string
		want []string
		not  []string
	}{
		{
			name: "counting",
			want: []string{
				"**Ebba Strand** · character",
				"*Also:* Ebba, \\*the\\* pilot",
				"Pilot of the [master](file:///book/characters/master.md)'s launch.",
				"> **Early life**",
				"Born in Port Caddow;",
				"`[[not a link]]` stays",
				"*Counting the chapters that mention it…*",
				"[characters/ebba.md](file:///book/characters/ebba.md)",
			},
			not: []string{"# Ebba Strand", "## Early life"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(canon, ebba)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
			for _, n := range tt.not {
				assert.NotContains(t, got, n)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Ebba":           "Ebba",
		"*the* pilot":    "\\*the\\* pilot",
		"[x](y)":         "\\[x\\]\\(y\\)",
		"a|b #c":         "a\\|b \\#c",
		"Åsa_Öberg<tag>": "Åsa\\_Öberg\\<tag\\>",
	} {
		assert.Equal(t, want, Escape(in), in)
	}
}

// The pronoun's explanation says whom the clue took the pronoun to be
// ("I" always has one: pov or narrator); with no clue (a relative's
// tag), the character the pronoun most likely refers to.
func TestRuleExplanationOfAPronoun(t *testing.T) {
	for _, c := range []struct {
		clue      dialogue.Clue
		tag, want string
	}{
		{"", "said she", "the character it most likely refers to nearby"},
		{"", "said Isabel", ""},
		{dialogue.CluePOV, "said I", "point of view (its `pov:`)"},
		{dialogue.ClueNarrator, "said I", "the narrator"},
		{dialogue.ClueParagraph, "said she", "this paragraph's narration names"},
		{dialogue.ClueParagraphBefore, "said she", "the paragraph before"},
		{dialogue.ClueBeat, "said she", "after the line before"},
		{dialogue.ClueTurnsAhead, "said she", "later turns"},
		{dialogue.ClueFollowed, "said she", "this chapter follows"},
		{dialogue.ClueAddressed, "said she", "the line before spoke to"},
		{dialogue.ClueConversation, "said she", "this conversation's speakers"},
		{dialogue.ClueNarration, "said she", "the narration's own"},
		{dialogue.ClueLastNamed, "said she", "the last character named"},
		{dialogue.ClueEarlier, "said she", "earlier in the chapter"},
		{dialogue.ClueLineBefore, "said she", "the speaker of the line before"},
	} {
		got := RuleExplanation(dialogue.RulePronoun, c.clue, c.tag)
		assert.Contains(t, got, "(“"+c.tag+"”)", c.tag)
		if c.want == "" {
			assert.NotContains(t, got, "point of view", c.tag)
			continue
		}
		assert.Contains(t, got, c.want, c.clue)
	}
}

// Narration that opens with a pronoun says whom the clue took it to be.
func TestRuleExplanationOfNarrationWithAPronoun(t *testing.T) {
	assert.Equal(t, "Decided by the paragraph's narration (“She”), whose pronoun is the character this chapter follows.",
		RuleExplanation(dialogue.RuleNarration, dialogue.ClueFollowed, "She"))
	assert.Equal(t, "Decided by the paragraph's narration (“Emma”), which names this character.",
		RuleExplanation(dialogue.RuleNarration, "", "Emma"))
}

// Turn-taking's explanation says both ways it decides: turns, and a
// paragraph's other line.
func TestRuleExplanationOfTurnTaking(t *testing.T) {
	got := RuleExplanation(dialogue.RuleTurn, "", "")
	assert.Contains(t, got, "take turns")
	assert.Contains(t, got, "a paragraph is one speaker's")
}
