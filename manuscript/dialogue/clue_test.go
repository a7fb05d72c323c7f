package dialogue

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each step of the pronoun's chain records itself as the line's clue,
// and only the step that chose the speaker does: the passage of each row
// is built so that the steps before it find no one. A step mislabelled
// or taken out of the chain fails its row.
func TestAPronounsClueIsTheStepThatChoseIt(t *testing.T) {
	rain := strings.Repeat("The rain fell on the roofs of the town all through the night. ", 120)
	for _, c := range []struct {
		name, text, pov, line string
		speaker               string
		clue                  Clue
	}{
		{"the chapter's pov", "\"I cannot,\" said I.\n", emma, "I cannot,", emma, CluePOV},
		{"the narrator the lines around show", "\"Jory?\" said Mr. Knightley.\n\n\"Yes,\" said I.\n", "", "Yes,", jory, ClueNarrator},
		{"named in the paragraph", "Harriet came in and sat down. \"It is raining,\" she said.\n", "", "It is raining,", harriet, ClueParagraph},
		{"the paragraph before", "Harriet came in from the garden.\n\n\"It is raining,\" she said.\n", "", "It is raining,", harriet, ClueParagraphBefore},
		{"the beat after the line before", "\"Well?\" said Mr. Knightley. Emma only shook her head.\n\n\"Nothing,\" she said.\n", "", "Nothing,", emma, ClueBeat},
		{"the turns ahead", "\"Where were you?\" said Mr. Knightley.\n\n\"Out,\" she said.\n\n\"Out where?\" said Mr. Knightley.\n\n\"In the garden,\" said Emma.\n", "", "Out,", emma, ClueTurnsAhead},
		{"the character the chapter follows", "Emma walked to the window. Emma thought of the day. Emma smiled. Emma waited, and Emma sighed. Harriet slept.\n\n\"Good morning,\" said Mr. Knightley.\n\n\"Good morning,\" she said.\n", "", "Good morning,", emma, ClueFollowed},
		{"addressed by the line before", "\"Harriet, are you coming?\" said Mr. Knightley.\n\n\"Yes,\" she said.\n", "", "Yes,", harriet, ClueAddressed},
		{"a speaker of the conversation", "\"Will you walk?\" said Harriet.\n\n\"No,\" said Mr. Knightley.\n\n\"Then I shall go alone,\" she said.\n", "", "Then I shall go alone,", harriet, ClueConversation},
		{"the narration's she", "Harriet came to the window, where Emma stood.\n\n\"You are late,\" said Mr. Knightley.\n\nShe turned from the glass at last. \"I am quite well,\" she said.\n", "", "I am quite well,", harriet, ClueNarration},
		{"the last named", "Emma and Harriet went out, and Mr. Knightley met Harriet at the gate.\n\n\"Good day,\" said Mr. Knightley.\n\n\"Good day,\" she said.\n", "", "Good day,", harriet, ClueLastNamed},
		{"earlier in the chapter", "\"Goodbye,\" said Harriet.\n\n" + rain + "\n\n\"Hello,\" said Mr. Knightley.\n\n\"Hello,\" she said.\n", "", "Hello,", harriet, ClueEarlier},
		{"the line before's speaker", "\"Come here,\" said Harriet.\n\n\"Yes,\" she said.\n", "", "Yes,", harriet, ClueLineBefore},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := utteranceOf(t, c.text, c.pov, c.line)
			assert.Equal(t, RulePronoun, u.Rule)
			assert.Equal(t, c.speaker, u.Best())
			assert.Equal(t, c.clue, u.Clue)
		})
	}
}

// A clue belongs to a pronoun: a line a name decides has none, and
// narration that opens with a pronoun keeps the clue that resolved it.
func TestOnlyAPronounHasAClue(t *testing.T) {
	u := utteranceOf(t, "\"Well?\" said Mr. Knightley.\n", "", "Well?")
	assert.Equal(t, RuleExplicit, u.Rule)
	assert.Empty(t, u.Clue)

	u = utteranceOf(t, "Harriet came in from the garden.\n\n\"It is raining.\" She shook the rain from her cloak.\n", "", "It is raining.")
	assert.Equal(t, RuleNarration, u.Rule)
	assert.Equal(t, harriet, u.Best())
	assert.NotEmpty(t, u.Clue)
}

// utteranceOf is the last utterance of text, attributed with the test
// cast, whose first span is line.
func utteranceOf(t *testing.T, text, pov, line string) Utterance {
	t.Helper()
	var found *Utterance
	utts := analyzeWith(testCast(t), text, pov)
	for i := range utts {
		if text[utts[i].Spans[0].Start:utts[i].Spans[0].End] == line {
			found = &utts[i]
		}
	}
	require.NotNil(t, found, "%q in %q", line, text)
	return *found
}

// A paragraph's second line, after an action beat, is its first line's
// speaker's by the same tag, and says the same clue.
func TestTheParagraphsSecondLineKeepsTheClue(t *testing.T) {
	text := "Harriet came in from the garden.\n\n\"It is raining,\" she said. \"It is cold.\" She shook her cloak. \"And dark.\"\n"
	first := utteranceOf(t, text, "", "It is raining,")
	second := utteranceOf(t, text, "", "And dark.")
	assert.Equal(t, ClueParagraphBefore, first.Clue)
	assert.Equal(t, first.Rule, second.Rule)
	assert.Equal(t, harriet, second.Best())
	assert.Equal(t, ClueParagraphBefore, second.Clue)
}
