package dialogue

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// testCast is a small book's cast: Emma and Harriet (she), Mr. Knightley
// (he), and Jory, whose entry says nothing of his pronouns.
func testCast(t *testing.T) []*codex.Entry {
	t.Helper()
	var out []*codex.Entry
	for _, src := range []struct{ id, fm string }{
		{"codex/characters/emma.md", "name: Emma Woodhouse\naliases: [Emma, Miss Woodhouse]\npronouns: she/her"},
		{"codex/characters/harriet.md", "name: Harriet Smith\naliases: [Harriet]\ngender: female"},
		{"codex/characters/knightley.md", "name: Mr. Knightley\naliases: [Knightley, George Knightley]\ngender: male"},
		{"codex/characters/jory.md", "name: Jory"},
	} {
		e, _ := codex.Parse(src.id, []byte("---\n"+src.fm+"\n---\n"), codex.TypeCharacter)
		require.NotNil(t, e)
		out = append(out, e)
	}
	return out
}

// castOf parses one character entry per front matter, with the IDs
// codex/characters/c0.md, c1.md, … in order.
func castOf(t *testing.T, frontMatters ...string) []*codex.Entry {
	t.Helper()
	var out []*codex.Entry
	for i, fm := range frontMatters {
		e, _ := codex.Parse("codex/characters/c"+strconv.Itoa(i)+".md", []byte("---\n"+fm+"\n---\n"), codex.TypeCharacter)
		require.NotNil(t, e)
		out = append(out, e)
	}
	return out
}

// said is one utterance as the tests read it.
type said struct {
	Text      string
	Speaker   string // the best: Speaker, else the first candidate
	Uncertain bool
	Rule      Rule
}

func attributeText(t *testing.T, text, pov string) []said {
	t.Helper()
	return attributeWith(t, testCast(t), text, pov)
}

// attributeWith is attributeText with its own cast.
func attributeWith(t *testing.T, entries []*codex.Entry, text, pov string) []said {
	t.Helper()
	var out []said
	for _, u := range analyzeWith(entries, text, pov) {
		if u.Uncertain {
			require.Empty(t, u.Speaker, "an uncertain utterance names no speaker")
		}
		out = append(out, said{Text: text[u.Spans[0].Start:u.Spans[0].End], Speaker: u.Best(), Uncertain: u.Uncertain, Rule: u.Rule})
	}
	return out
}

// analyzeWith is the utterances of text as a chapter of pov, with the
// cast of entries.
func analyzeWith(entries []*codex.Entry, text, pov string) []Utterance {
	o := codex.OutlineOf([]byte(text))
	ch := Chapter{Text: text, Body: o.Body, Skip: o.Code, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text), POV: pov}
	return Analyze(ch, NewCast(entries), Options{})
}

const (
	emma     = "codex/characters/emma.md"
	harriet  = "codex/characters/harriet.md"
	knightly = "codex/characters/knightley.md"
	jory     = "codex/characters/jory.md"
)

// TestAttributionRules holds each link of the chain to an utterance that
// only it decides: each row fails with its rule taken out.
func TestAttributionRules(t *testing.T) {
	tests := []struct {
		name string
		text string
		pov  string
		want []said
	}{
		{"explicit: verb then name", `"Yes," said Emma.`, "",
			[]said{{"Yes,", emma, false, RuleExplicit}}},
		{"explicit: name then verb, by an alias", `"No," Knightley replied.`, "",
			[]said{{"No,", knightly, false, RuleExplicit}}},
		{"explicit: a tag before the speech", `Mr. Knightley said, "Come here."`, "",
			[]said{{"Come here.", knightly, false, RuleExplicit}}},
		{"explicit: the subject, not the name a preposition governs", `Mr. Knightley, turning to Harriet, said, "Come."`, "",
			[]said{{"Come.", knightly, false, RuleExplicit}}},
		{"explicit: the narration after a paragraph's speech leads in", "\"I will not eat,\" said Jory. Emma turned to Harriet, saying:\n\n\"He is cross.\"", "",
			[]said{{"I will not eat,", jory, false, RuleExplicit}, {"He is cross.", emma, false, RuleExplicit}}},
		{"explicit: a paragraph's speech and its tag lead in to nothing", "Harriet sat by Emma.\n\n\"Come,\" said Emma.\n\n\"Yes.\"", "",
			[]said{{"Come,", emma, false, RuleExplicit}, {"Yes.", harriet, true, RuleTurn}}},
		{"explicit: a dash after the verb is no part of it", "Emma said--\n\n\"Yes.\"", "",
			[]said{{"Yes.", emma, false, RuleExplicit}}},
		{"explicit: a comma parts a preposition from the subject", `When the dance was over, Harriet gratefully observed, "It was kind."`, "",
			[]said{{"It was kind.", harriet, false, RuleExplicit}}},
		{"explicit: the subject of an infinitive a preposition opens", "When Mr. Knightley came in, there was at last opportunity for Harriet to draw near her and say,\n\n\"It was kind.\"", "",
			[]said{{"It was kind.", harriet, false, RuleExplicit}}},
		{"explicit: not the subject of a clause a conjunction opens", "Mr. Knightley took the hint, and when Harriet had finished her song, said aloud,\n\n\"That will do.\"", "",
			[]said{{"That will do.", knightly, false, RuleExplicit}}},
		{"explicit: the one heard speaks, not the hearer", "Mr. Knightley stood by the door.\n\nEmma heard Harriet almost immediately afterwards say,\n\n\"It was kind.\"", "",
			[]said{{"It was kind.", harriet, false, RuleExplicit}}},
		{"pronoun: the one heard speaks, not the hearer", "Mr. Knightley stood by the door.\n\nEmma heard him almost immediately afterwards say,\n\n\"Come.\"", "",
			[]said{{"Come.", knightly, true, RulePronoun}}},
		{"explicit: a possessive and a speech noun", `"Indeed," was Harriet's quiet reply.`, "",
			[]said{{"Indeed,", harriet, false, RuleExplicit}}},
		{"explicit: a lead-in paragraph", "Emma smilingly said,\n\n\"You must make my apologies.\"", "",
			[]said{{"You must make my apologies.", emma, false, RuleExplicit}}},
		{"explicit: a lead-in that ends on its verb", "It rained all day. Mr. Knightley began.\n\n\"We must go.\"", "",
			[]said{{"We must go.", knightly, false, RuleExplicit}}},
		{"narration: a sentence ending on its verb right before the speech in its paragraph leads in, a guess", "Emma sat down, and Mr. Knightley began.\n\"We must go.\"", "",
			[]said{{"We must go.", knightly, true, RuleNarration}}},
		{"pronoun: so does one with a pronoun", "Mr. Knightley came in. After a while he thus explained.\n\"We must go.\"", "",
			[]said{{"We must go.", knightly, true, RulePronoun}}},
		{"explicit: a possessive reply to someone", `"Yes," was Harriet's reply to Emma.`, "",
			[]said{{"Yes,", harriet, false, RuleExplicit}}},
		{"explicit: a verb of reproof", `"Harriet, you should not say such things," rebuked Emma.`, "",
			[]said{{"Harriet, you should not say such things,", emma, false, RuleExplicit}}},
		{"explicit: a verb of interjection", `"But the roads!" interjected Emma.`, "",
			[]said{{"But the roads!", emma, false, RuleExplicit}}},
		{"explicit: any verb in the past tense, inverted before a name", `"I did not know," flashed Emma.`, "",
			[]said{{"I did not know,", emma, false, RuleExplicit}}},
		{"not a verb before a name that is no inversion: after the speech, the name opens its sentence", "\"I did not know.\" Emma flashed a look at Harriet.", "",
			[]said{{"I did not know.", emma, true, RuleNarration}}},
		{"explicit: a verb of shouting, the speech one utterance across it", `"Poor girl!" exploded Mr. Knightley. "Poor girl!"`, "",
			[]said{{"Poor girl!", knightly, false, RuleExplicit}}},
		{"explicit: a name's gerund", `She sat musing, till roused by Harriet's suddenly saying, "Look there!"`, "",
			[]said{{"Look there!", harriet, false, RuleExplicit}}},
		{"explicit: a subject set off by a comma, past an aside naming another", "Harriet, going to the window, where Emma was standing, said gently:\n\n\"Come away.\"", "",
			[]said{{"Come away.", harriet, false, RuleExplicit}}},
		{"explicit: a tag right after the speech stays its own before a paragraph of speech", "\"Well,\" said Emma, smiling:\n\n\"I think so.\"", "",
			[]said{{"Well,", emma, false, RuleExplicit}, {"I think so.", emma, false, RuleExplicit}}},
		{"explicit: before the speech, the verb nearest it", `But Harriet laughed so heartily that Emma could not help saying, "You tricked us."`, "",
			[]said{{"You tricked us.", emma, false, RuleExplicit}}},
		{"explicit: a name's gerund, and a second", `Emma never left without Harriet's giving a little sigh, and saying, "Poor Jory!"`, "",
			[]said{{"Poor Jory!", harriet, false, RuleExplicit}}},
		{"explicit: a relative clause after a preposition", `She was met in the hall by Harriet, who, flying to her, cried, "Look there!"`, "",
			[]said{{"Look there!", harriet, false, RuleExplicit}}},
		{"pronoun: the last character of its gender", "Mr. Knightley and Emma sat down.\n\n\"It is late,\" she said.", "",
			[]said{{"It is late,", emma, true, RulePronoun}}},
		{"pronoun: a name a preposition governs is no subject", "Emma sent the boy to inquire after Harriet. \"You do quite right,\" said she.", "",
			[]said{{"You do quite right,", emma, true, RulePronoun}}},
		{"pronoun: nor one a preposition governs past its article", "Emma sent a note to the Harriet of that morning. \"You do quite right,\" said she.", "",
			[]said{{"You do quite right,", emma, true, RulePronoun}}},
		{"pronoun: one who speaks in the chapter before one only talked of", "\"Good morning,\" said Mr. Knightley.\n\n\"Good morning,\" said Emma.\n\nThey spoke of the weather, and of the horse Jory had sold.\n\n\"It will rain,\" he said.", "",
			[]said{{"Good morning,", knightly, false, RuleExplicit}, {"Good morning,", emma, false, RuleExplicit}, {"It will rain,", knightly, true, RulePronoun}}},
		{"pronoun: he, where the last named is a she", "Mr. Knightley came in and bowed to Emma.\n\n\"It is late,\" he said.", "",
			[]said{{"It is late,", knightly, true, RulePronoun}}},
		{"pronoun: I is the point of view, as the writer said", `"I know," I said.`, harriet,
			[]said{{"I know,", harriet, false, RulePronoun}}},
		{"pronoun: the speaker two turns on, by an explicit tag, before one only named",
			"Jory came by with the horses and went on to town.\n\nIt was a grey day, and the rain had not stopped.\n\n\"It is late,\" he said.\n\n\"Not so late,\" said Emma.\n\n\"Late enough,\" said Mr. Knightley.", "",
			[]said{{"It is late,", knightly, true, RulePronoun}, {"Not so late,", emma, false, RuleExplicit}, {"Late enough,", knightly, false, RuleExplicit}}},
		{"pronoun: the conversation's own speaker before the character the chapter follows, who takes no part in it",
			"Emma walked to the window. Emma sat down again. Emma read.\n\n\"It is cold,\" said Harriet.\n\n\"It is,\" said Mr. Knightley.\n\n\"Colder than yesterday,\" said she.", "",
			[]said{{"It is cold,", harriet, false, RuleExplicit}, {"It is,", knightly, false, RuleExplicit}, {"Colder than yesterday,", harriet, true, RulePronoun}}},
		{"pronoun: a lead-in's pronoun reads the names of its own paragraph",
			"Emma came in. The clock struck four, and Harriet rose; at last she said,\n\n\"We must go.\"", "",
			[]said{{"We must go.", harriet, true, RulePronoun}}},
		{"pronoun: an auxiliary between the pronoun and its verb",
			"Emma sat down. Mr. Knightley came in.\n\n\"Remember,\" he was saying, \"the facts.\"", "",
			[]said{{"Remember,", knightly, true, RulePronoun}}},
		{"pronoun: a gender learned from the book", "Jory came in with Emma. He was wet through.\n\n\"Rain,\" he said.", "",
			[]said{{"Rain,", jory, true, RulePronoun}}},
		{"narration: a lead-in opened by a conjunction", "Emma said nothing at first. And Harriet, too, essayed the roguish:\n\n\"Well, dearest, is it not so?\"", "",
			[]said{{"Well, dearest, is it not so?", harriet, true, RuleNarration}}},
		{"narration: one character named in the paragraph", `Harriet looked up from her work. "Is it true?"`, "",
			[]said{{"Is it true?", harriet, true, RuleNarration}}},
		{"narration: a name a preposition governs acts not", "Emma came in with Mr. Knightley.\n\nShe looked up at Harriet. \"Is it true?\"", "",
			[]said{{"Is it true?", emma, true, RulePronoun}}},
		{"narration: an action after the speech opens with a pronoun", "Mr. Knightley came in. Emma did not look up.\n\n\"Well?\" She held out her hand.", "",
			[]said{{"Well?", emma, true, RuleNarration}}},
		{"pronoun: a beat after the speech before names who he is", "\"Is he here?\" said Jory.\n\n\"He is,\" said Emma. Mr. Knightley only shook his head.\n\n\"I wonder,\" said he, \"whether he will stay.\"", "",
			[]said{{"Is he here?", jory, false, RuleExplicit}, {"He is,", emma, false, RuleExplicit}, {"I wonder,", knightly, true, RulePronoun}}},
		{"pronoun: the speech's own tag is no beat after it", "\"Are you hurt?\" Emma said.\n\n\"My leg,\" said Jory.\n\n\"The lens,\" Mr. Knightley breathed.\n\nIt took both of them to carry it up the steps. The old man would not let them move him. \"Put the light back,\" he said.", "",
			[]said{{"Are you hurt?", emma, false, RuleExplicit}, {"My leg,", jory, false, RuleExplicit}, {"The lens,", knightly, false, RuleExplicit}, {"Put the light back,", jory, true, RulePronoun}}},
		{"vocative: the one addressed answers", "\"Do you agree, Mr. Knightley?\" said Emma.\n\n\"I do not.\"", "",
			[]said{{"Do you agree, Mr. Knightley?", emma, false, RuleExplicit}, {"I do not.", knightly, true, RuleVocative}}},
		{"vocative: a name after a comma, before a full stop", "\"You understand it well, Mr. Knightley.\" said Emma.\n\n\"I do.\"", "",
			[]said{{"You understand it well, Mr. Knightley.", emma, false, RuleExplicit}, {"I do.", knightly, true, RuleVocative}}},
		{"vocative: a name after a comma, before a semicolon or a dash", "\"You understand it well, Mr. Knightley; but not the rest,\" said Emma.\n\n\"I do.\"\n\n\"Well, Harriet--it is late,\" said Emma.\n\n\"It is.\"", "",
			[]said{{"You understand it well, Mr. Knightley; but not the rest,", emma, false, RuleExplicit}, {"I do.", knightly, true, RuleVocative},
				{"Well, Harriet--it is late,", emma, false, RuleExplicit}, {"It is.", harriet, true, RuleVocative}}},
		{"vocative: a name after a dash", "\"Well--Mr. Knightley, you see it,\" said Emma.\n\n\"I do.\"", "",
			[]said{{"Well--Mr. Knightley, you see it,", emma, false, RuleExplicit}, {"I do.", knightly, true, RuleVocative}}},
		{"vocative: a name a relative clause speaks of calls no one", "Emma smiled.\n\n\"It is so much beyond me. Mr. Knightley, who might marry any body!\" cried Harriet.\n\n\"I know it.\"", "",
			[]said{{"It is so much beyond me. Mr. Knightley, who might marry any body!", harriet, false, RuleExplicit}, {"I know it.", emma, true, RuleTurn}}},
		{"vocative: a name before a question that opens with who calls", "Emma smiled.\n\n\"Mr. Knightley, who told you?\" cried Harriet.\n\n\"I know it.\"", "",
			[]said{{"Mr. Knightley, who told you?", harriet, false, RuleExplicit}, {"I know it.", knightly, true, RuleVocative}}},
		{"vocative: a relative clause that agrees with you calls", "Emma smiled.\n\n\"Mr. Knightley, who have danced so seldom, you must dance now!\" cried Harriet.\n\n\"I will.\"", "",
			[]said{{"Mr. Knightley, who have danced so seldom, you must dance now!", harriet, false, RuleExplicit}, {"I will.", knightly, true, RuleVocative}}},
		{"vocative: a name thrown back alone calls no one", "\"How you do remind me of Harriet!\" said Emma.\n\n\"Harriet!\" cried Mr. Knightley.\n\n\"More every moment.\"", "",
			[]said{{"How you do remind me of Harriet!", emma, false, RuleExplicit}, {"Harriet!", knightly, false, RuleExplicit}, {"More every moment.", emma, true, RuleTurn}}},
		{"vocative: a name asked back alone calls no one", "\"How do you propose to silence him?\" said Emma.\n\n\"Mr. Knightley?\" said Harriet.\n\n\"No; the other one.\"", "",
			[]said{{"How do you propose to silence him?", emma, false, RuleExplicit}, {"Mr. Knightley?", harriet, false, RuleExplicit}, {"No; the other one.", emma, true, RuleTurn}}},
		{"vocative: a name an aside parts from its verb calls no one", "Emma smiled.\n\n\"Mr. Knightley, I suppose, had been making up his mind the whole day?\" said Harriet.\n\n\"I dare say he had.\"", "",
			[]said{{"Mr. Knightley, I suppose, had been making up his mind the whole day?", harriet, false, RuleExplicit}, {"I dare say he had.", emma, true, RuleTurn}}},
		{"vocative: a name and an aside alone call", "\"Mr. Knightley, I think,\" said Harriet.\n\n\"Yes.\"", "",
			[]said{{"Mr. Knightley, I think,", harriet, false, RuleExplicit}, {"Yes.", knightly, true, RuleVocative}}},
		{"vocative: a name set off before an aside calls", "\"You saw it, Mr. Knightley, I am sure, as well as I did.\" said Harriet.\n\n\"I did.\"", "",
			[]said{{"You saw it, Mr. Knightley, I am sure, as well as I did.", harriet, false, RuleExplicit}, {"I did.", knightly, true, RuleVocative}}},
		{"vocative: a paragraph of narration ends the conversation", "\"Do you agree, Mr. Knightley?\" said Emma.\n\nThe rain went on against the windows, and the clock in the hall struck four.\n\n\"I do not.\"", "",
			[]said{{"Do you agree, Mr. Knightley?", emma, false, RuleExplicit}, {"I do not.", emma, true, RuleNone}}},
		{"vocative: narration opening the answer's paragraph ends the conversation", "\"Do you agree, Mr. Knightley?\" said Emma.\n\n" + strings.Repeat("The rain went on against the windows, and the clock in the hall struck four. ", 6) + "\"I do not.\"", "",
			[]said{{"Do you agree, Mr. Knightley?", emma, false, RuleExplicit}, {"I do not.", emma, true, RuleNone}}},
		{"turn-taking: two speakers alternate",
			"\"Well,\" said Emma.\n\n\"Well what?\" said Mr. Knightley.\n\n\"Nothing.\"\n\n\"Nothing at all?\"", "",
			[]said{{"Well,", emma, false, RuleExplicit}, {"Well what?", knightly, false, RuleExplicit},
				{"Nothing.", emma, true, RuleTurn}, {"Nothing at all?", knightly, true, RuleTurn}}},
		{"writer: a comment overrides the tag", "\"Who?\" said Emma. <!-- speaker: Harriet -->", "",
			[]said{{"Who?", harriet, false, RuleWriter}}},
		{"writer: a comment after speech over two paragraphs", "\"It was long ago,\n\n\"and far away.\" <!-- speaker: Harriet -->", "",
			[]said{{"It was long ago,", harriet, false, RuleWriter}}},
		{"writer: a comment on the line below", "\"Who?\" said Emma.\n<!-- speaker: Harriet Smith -->", "",
			[]said{{"Who?", harriet, false, RuleWriter}}},
		{"the one addressed does not speak", "Emma and Harriet walked in the garden.\n\n\"Emma, look,\" she said.", "",
			[]said{{"Emma, look,", harriet, true, RulePronoun}}},
		{"no character at all: uncertain", `"Hello," said the stranger.`, "",
			[]said{{"Hello,", "", true, RuleNone}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, attributeText(t, tt.text, tt.pov))
		})
	}
}

// TestKinshipTags holds the family-name link of the pronoun rule: "said
// his wife" is the one Mrs. of her husband's family name, and nothing
// is guessed where the codex has two, or none.
func TestKinshipTags(t *testing.T) {
	family := func(t *testing.T, extra ...string) []*codex.Entry {
		return castOf(t, append([]string{
			"name: Mr. Bennet\ngender: male",
			"name: Mrs. Bennet\ngender: female",
			"name: Elizabeth Bennet\naliases: [Elizabeth, Lizzy]\ngender: female",
			"name: Mr. Collins\ngender: male",
		}, extra...)...)
	}
	const (
		mr, mrs, lizzy = "codex/characters/c0.md", "codex/characters/c1.md", "codex/characters/c2.md"
	)
	tests := []struct {
		name    string
		extra   []string
		text    string
		speaker string
	}{
		{"his lady, to the one she addresses", nil, "\"My dear Mr. Bennet,\" said his lady to him one day, \"have you heard?\"", mrs},
		{"his wife, of the man just named", nil, "Mr. Bennet made no answer.\n\n\"Do you not want to know?\" cried his wife impatiently.", mrs},
		{"her father, of the daughter named", nil, "Elizabeth came in.\n\n\"Well, Lizzy?\" said her father.", mr},
		{"her mother", nil, "Elizabeth sat down.\n\n\"Sit up straight,\" said her mother.", mrs},
		{"two of the name: no guess", []string{"name: Mrs. Philips Bennet\ngender: female"}, "Mr. Bennet made no answer.\n\n\"Well?\" cried his wife.", ""},
		{"her father, before the verb", nil, "Elizabeth came in.\n\nHer father fondly replied, \"Well, Lizzy?\"", mr},
		{"his wife, of the one who spoke just before", []string{"name: Mrs. Collins\ngender: female"},
			"\"I shall dance,\" said Mr. Collins.\n\n\"He may turn you all out of this house,\" said Mr. Bennet.\n\n\"Oh! my dear,\" cried his wife, \"I cannot bear it.\"", mrs}, // The wife is only guessed, and named nowhere: "she" is still
		// the one heard last, not the man the narration names.
		{"she, of the wife heard last", nil,
			"\"My dear Mr. Bennet,\" said his lady to him one day, \"have you heard?\"\n\nMr. Bennet replied that he had not.\n\n\"But it is,\" returned she.", mrs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := attributeWith(t, family(t, tt.extra...), tt.text, "")
			require.NotEmpty(t, got)
			last := got[len(got)-1]
			if tt.speaker == "" {
				assert.NotEqual(t, mrs, last.Speaker, "%+v", got)
				return
			}
			assert.Equal(t, tt.speaker, last.Speaker, "%+v", got)
			assert.Equal(t, RulePronoun, last.Rule)
		})
	}
	_ = lizzy
}

// TestATagSaysWhomTheLineIsSaidTo: "said Mr. Bennet to his wife", "she
// asked Mr. Knightley" and "said Emma to Harriet" speak to that
// character, who answers the line, as a name in the speech would.
func TestATagSaysWhomTheLineIsSaidTo(t *testing.T) {
	cast := castOf(t, "name: Mr. Bennet\ngender: male", "name: Mrs. Bennet\ngender: female", "name: Mr. Collins\ngender: male")
	got := attributeWith(t, cast, "\"I hope, my dear,\" said Mr. Bennet to his wife, \"that you have a good dinner.\"\n\n\"Who do you mean?\"", "")
	require.Len(t, got, 2)
	assert.Equal(t, said{"Who do you mean?", "codex/characters/c1.md", true, RuleVocative}, got[1])
	for _, text := range []string{
		"Mr. Collins came in.\n\n\"Who is she?\" he asked Mr. Bennet afterwards.\n\n\"A cousin.\"",
		"\"Who is she?\" said Mr. Collins to Mr. Bennet.\n\n\"A cousin.\"",
	} {
		got := attributeWith(t, cast, text, "")
		require.Len(t, got, 2, text)
		assert.Equal(t, said{"A cousin.", "codex/characters/c0.md", true, RuleVocative}, got[1], text)
	}
}

// TestAWifesParentsAreNotHerHusband: a married woman's family name is
// her husband's, so "her father" is not the man of her title.
func TestAWifesParentsAreNotHerHusband(t *testing.T) {
	cast := castOf(t, "name: Mr. Bennet\ngender: male", "name: Mrs. Bennet\ngender: female", "name: Mr. Collins\ngender: male")
	got := attributeWith(t, cast, "Mr. Collins bowed to Mrs. Bennet.\n\n\"Sit up,\" said her father.", "")
	require.Len(t, got, 1)
	assert.NotEqual(t, "codex/characters/c0.md", got[0].Speaker, "%+v", got)
}

// TestAParentNotFoundByFamilyHasAMarriedTitle: "said her mother", where the codex
// gives the daughter no family name, is a character the codex calls by a
// married title before one it does not, a guess.
func TestAParentNotFoundByFamilyHasAMarriedTitle(t *testing.T) {
	cast := castOf(t, "name: Mrs. Goddard\ngender: female", "name: Emma\ngender: female", "name: Harriet\ngender: female")
	got := attributeWith(t, cast, "Mrs. Goddard sat by the fire. Emma came in with Harriet.\n\n\"You are late, Harriet,\" said her mother.", "")
	assert.Equal(t, []said{{"You are late, Harriet,", "codex/characters/c0.md", true, RulePronoun}}, got)
}

// TestABrotherIsNoFather: a man the codex calls Mr. Knightley is no
// child of another Mr. Knightley by the family name alone: the one
// called so may as well be his brother. "his father" is then read as a
// description, not as Mr. John Knightley.
func TestABrotherIsNoFather(t *testing.T) {
	cast := castOf(t, "name: Mr. Knightley\naliases: [George Knightley]\ngender: male", "name: Mr. John Knightley\ngender: male", "name: Mr. Woodhouse\ngender: male")
	got := attributeWith(t, cast, "Mr. Woodhouse sat by the fire. Mr. Knightley came in.\n\n\"Well, George?\" said his father.", "")
	require.Len(t, got, 1)
	assert.NotEqual(t, "codex/characters/c1.md", got[0].Speaker, "%+v", got)
}

// TestADescriptionIsNoCertainName: a tag that names the speaker by a
// description the codex gives ("the mariner") decides, but is shown
// uncertain, where a name is shown certain.
func TestADescriptionIsNoCertainName(t *testing.T) {
	cast := castOf(t, "name: The Mariner\naliases: [the mariner]\ngender: male", "name: Mr. Marvel\ngender: male")
	got := attributeWith(t, cast, "\"Pleasant day,\" said the mariner.\n\n\"Very,\" said Mr. Marvel.\n\n\"Quite,\" said The Mariner.", "")
	assert.Equal(t, []said{
		{"Pleasant day,", "codex/characters/c0.md", true, RuleExplicit},
		{"Very,", "codex/characters/c1.md", false, RuleExplicit},
		{"Quite,", "codex/characters/c0.md", false, RuleExplicit},
	}, got)
}

// TestTheNarratorSaysI: with no pov, "said I" is the one character the
// lines next to the chapter's "I" lines address by name, a guess (the
// pov, where the chapter names one, is certain), and
// that narrator is the other party of a conversation no line names;
// lines addressing two characters name no narrator.
func TestTheNarratorSaysI(t *testing.T) {
	text := "\"Are you cold, Harriet?\" said Mr. Knightley.\n\n\"Not at all,\" said I.\n\n" +
		"The long walk home with Jory took them past the mill and the church.\n\n" +
		"\"It is late,\" said Emma.\n\n\"So it is.\""
	assert.Equal(t, []said{
		{"Are you cold, Harriet?", knightly, false, RuleExplicit},
		{"Not at all,", harriet, true, RulePronoun},
		{"It is late,", emma, false, RuleExplicit},
		{"So it is.", harriet, true, RuleTurn},
	}, attributeText(t, text, ""))

	// The pov, where the chapter names one, is "I": the writer said so.
	got := attributeText(t, text, emma)
	require.Len(t, got, 4)
	assert.Equal(t, said{"Not at all,", emma, false, RulePronoun}, got[1])

	// Two characters addressed beside "I" lines: no narrator to take
	// the other turn.
	two := text + "\n\nThe clock struck nine, and nobody in the room said a word for a while.\n\n" +
		"\"Are you tired, Jory?\" said Emma.\n\n\"No,\" said I."
	got = attributeText(t, two, "")
	require.Len(t, got, 6)
	assert.Equal(t, said{"So it is.", knightly, true, RuleTurn}, got[3], "%+v", got)
}

// TestNoOneSpeaksOfThemselves: a line that names a character in its
// speech is not given to them by a guess ("Emma will make the tea."),
// though an explicit tag still may.
func TestNoOneSpeaksOfThemselves(t *testing.T) {
	got := attributeText(t, "\"My dear Jory, sit down,\" said Emma.\n\n\"Thank you.\"\n\n\"Emma will make the tea.\"\n\n\"Emma will not,\" said Emma.", "")
	require.Len(t, got, 4)
	assert.Equal(t, jory, got[1].Speaker, "%+v", got)
	assert.NotEqual(t, emma, got[2].Speaker, "%+v", got)
	assert.Equal(t, said{"Emma will not,", emma, false, RuleExplicit}, got[3])
}

// TestTheLastSpeakerComesLast: among a pronoun's referents the one who
// spoke the line before comes last, even when only they speak by name
// in the chapter; and a paragraph's lines no rule decided are its
// decided line's speaker's.
func TestTheLastSpeakerComesLast(t *testing.T) {
	got := attributeText(t, "Jory had been lying on the ledge for two days.\n\n"+
		"\"Is anyone there?\" said Mr. Knightley.\n\n"+
		"The old man looked up at him. \"I kept that light,\" he said.", "")
	require.Len(t, got, 2)
	assert.Equal(t, said{"I kept that light,", jory, true, RulePronoun}, got[1])

	got = attributeText(t, "\"Jory,\" said Emma. \"We thought you had walked into the sea.\"\n\n"+
		"\"Would have, if I could walk.\" The cave dripped. \"Followed them down.\"", "")
	require.Len(t, got, 3)
	assert.Equal(t, said{"Followed them down.", jory, true, RuleTurn}, got[2], "%+v", got)
}

// TestANameAloneAnswers: a line that is only a name and a full stop
// answers; the next line is not given to the one it names.
func TestANameAloneAnswers(t *testing.T) {
	got := attributeText(t, "\"What is his name?\" said Emma.\n\n\"Knightley.\"\n\n\"Is he married?\"", "")
	require.Len(t, got, 3)
	assert.NotEqual(t, RuleVocative, got[2].Rule, "%+v", got)
	assert.NotEqual(t, knightly, got[2].Speaker, "%+v", got)
}

func TestCastReadsPronouns(t *testing.T) {
	c := NewCast(testCast(t))
	for id, want := range map[string]Gender{emma: GenderFemale, harriet: GenderFemale, knightly: GenderMale, jory: GenderUnknown} {
		ch, ok := c.Character(id)
		require.True(t, ok, id)
		assert.Equal(t, want, ch.Gender, id)
	}
	id, ok := c.Find("miss woodhouse")
	require.True(t, ok)
	assert.Equal(t, emma, id)
	_, ok = c.Find("Mr. Elton")
	assert.False(t, ok)
}

// TestNarrationLeadsOn: narration that ends a paragraph of speech on a
// comma, leading into the next paragraph's speech, is that speech's tag
// and not the one before it.
func TestNarrationLeadsOn(t *testing.T) {
	got := attributeText(t, "\"She can have no objection.\" And gathering her work together, Harriet was hastening away, when Emma called out,\n\n\"Stay a moment.\"", "")
	require.Len(t, got, 2)
	assert.NotEqual(t, emma, got[0].Speaker, "%+v", got)
	assert.Equal(t, said{"Stay a moment.", emma, false, RuleExplicit}, got[1])
}

// TestTheyIsSaidOfTheyOnly: "they said" is a character's only where the
// codex says they go by they/them; a group's "they" gives the line to
// no one whose entry leaves their pronouns unsaid.
func TestTheyIsSaidOfTheyOnly(t *testing.T) {
	const text = "Jory walked in with the Smiths.\n\n\"We should ask the way,\" they said."
	got := attributeText(t, text, "")
	require.Len(t, got, 1)
	assert.NotEqual(t, RulePronoun, got[0].Rule, "%+v", got)

	cast := castOf(t, "name: Jory\npronouns: they/them", "name: Emma\npronouns: she/her")
	got = attributeWith(t, cast, text, "")
	require.Len(t, got, 1)
	assert.Equal(t, said{"We should ask the way,", "codex/characters/c0.md", true, RulePronoun}, got[0], "%+v", got)
}

// TestTheNarratorIsTheOneCalledMost: where the lines next to "I" lines
// name no narrator, or name one a tag names too (Jory, "said Jory"), the
// narrator is the one the chapter's other lines call by name at least
// twice, more often than any other.
func TestTheNarratorIsTheOneCalledMost(t *testing.T) {
	text := "\"What now?\" I asked.\n\n" +
		"The river ran past the mill, and Mr. Knightley had been walking along it for an hour.\n\n" +
		"\"Mark that, Harriet,\" said Mr. Knightley. \"It will rain.\"\n\n" +
		"The rain came down on the mill and the church for the rest of the afternoon and the evening.\n\n" +
		"\"Report to me, Jory,\" said Mr. Knightley.\n\n\"Yes, sir,\" said Jory.\n\n\"Well,\" said I.\n\n" +
		"The night came on, and the lamps were lit in the square, one by one, by the old man.\n\n" +
		"\"Look here, Harriet; you are tired,\" said Mr. Knightley."
	got := attributeText(t, text, "")
	require.Len(t, got, 6)
	assert.Equal(t, said{"What now?", harriet, true, RulePronoun}, got[0], "%+v", got)
	assert.Equal(t, said{"Well,", harriet, true, RulePronoun}, got[4], "%+v", got)
}

// TestReportedSpeechLeadsIntoNothing: a paragraph that gives what its
// speech verb said ("replied that he had not", "agreed: one wanted…")
// tells of speech already over; it is no lead-in of the next speech.
func TestReportedSpeechLeadsIntoNothing(t *testing.T) {
	for _, narration := range []string{
		"Mr. Knightley replied that he had not.",
		"Mr. Knightley agreed: one wanted a man with a whip.",
	} {
		got := attributeText(t, "\"Have you heard?\" said Emma.\n\n"+narration+"\n\n\"Then I shall tell you.\"", "")
		require.Len(t, got, 2)
		assert.NotEqual(t, RuleNarration, got[1].Rule, "%s: %+v", narration, got)
	}
	// A last sentence that only holds its verb still leads in, a guess.
	got := attributeText(t, "It rained. Mr. Knightley answered, lifting his head.\n\n\"We must go.\"", "")
	require.Len(t, got, 1)
	assert.Equal(t, said{"We must go.", knightly, true, RuleNarration}, got[0], "%+v", got)
}

// TestWhoALineIsGiven holds the rules that give one line of a short
// scene its speaker, each case a scene where the rule decides: the
// line at index at, of lines in all, is want (also: the speakers of
// other lines by index). A nil cast is testCast's.
func TestWhoALineIsGiven(t *testing.T) {
	const c0, c1, c2 = "codex/characters/c0.md", "codex/characters/c1.md", "codex/characters/c2.md"
	woodhouse := []string{"name: Mr. Woodhouse\ngender: male", "name: Mr. Knightley\ngender: male", "name: Emma\ngender: female"}
	tests := []struct {
		name      string
		cast      []string
		text      string
		lines, at int
		want      said
		also      map[int]string
	}{
		// Among the characters last named or heard before a pronoun,
		// one heard speaking counts as one who speaks, though no tag of
		// the chapter names them.
		{"a speaker heard counts as one",
			[]string{"name: Mr. Knightley\ngender: male", "name: Frank Churchill\naliases: [Frank]\ngender: male", "name: Emma\ngender: female"},
			"\"Good morning,\" said Mr. Knightley.\n\n" +
				"Frank sat down by the fire. \"It is cold,\" he said.\n\n" +
				"There was for some time such a blank in the circle that the clock could be heard, and the rain on the windows, and the fire.\n\n" +
				"\"Is she well?\" said he.",
			3, 2, said{"Is she well?", c1, true, RulePronoun}, map[int]string{1: c1}},
		// The speaker of the line before comes last among a pronoun's
		// referents only when the lines are next to each other; a
		// paragraph of narration between ("Freddy did not move or
		// reply.") often lets the same speaker go on.
		{"a pause keeps the last speaker",
			[]string{"name: Freddy\ngender: male", "name: Lucy Honeychurch\naliases: [Lucy]\ngender: female", "name: Mrs. Honeychurch\ngender: female"},
			"Freddy, Lucy's brother, sat reading.\n\n" +
				"\"Where are they?\" said Freddy.\n\n" +
				"\"Go out of my drawing-room, then,\" cried Mrs. Honeychurch.\n\n" +
				"Freddy did not move or reply.\n\n" +
				"\"I think things are coming to a head,\" she observed.",
			3, 2, said{"I think things are coming to a head,", c2, true, RulePronoun}, nil},
		// A name after "; but" or a sentence's "But" is a subject, the
		// referent of the pronoun of the speech after.
		{"a conjunction after a semicolon opens a clause's subject", woodhouse,
			"Mr. Woodhouse at last was off; but Mr. Knightley, instead of being off likewise, sat down again.\n\n\"I cannot rate her beauty as you do,\" said he.",
			1, 0, said{"I cannot rate her beauty as you do,", c1, true, RulePronoun}, nil},
		{"a sentence's conjunction opens its subject", woodhouse,
			"Mr. Woodhouse at last was off. But Mr. Knightley, instead of being off likewise, sat down again.\n\n\"I cannot rate her beauty as you do,\" said he.",
			1, 0, said{"I cannot rate her beauty as you do,", c1, true, RulePronoun}, nil},
		// A line that calls its addressee "sir" is answered by a man,
		// not by the woman who spoke two turns before.
		{"sir is answered by a man",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Isabella\ngender: female", "name: Emma\ngender: female"},
			"Mr. Woodhouse sat by the fire with his daughters.\n\n" +
				"\"Come, come,\" cried Emma, \"you must not be cross.\"\n\n" +
				"\"Oh! and how is Mr. Perry, sir?\" said Isabella.\n\n" +
				"\"Why, pretty well; but not quite well.\"",
			3, 2, said{"Why, pretty well; but not quite well.", c0, true, RuleTurn}, nil},
		// A relative the family name cannot find ("her mother" of a
		// daughter the codex gives no family name) is not the one the
		// possessive refers to, even where she alone is named nearby.
		{"her mother is not her",
			[]string{"name: Elizabeth\ngender: female", "name: Mrs. Bennet\ngender: female"},
			"\"Did you see it?\" said Mrs. Bennet.\n\n" +
				"Elizabeth dared not lift up her eyes.\n\n" +
				"\"It is a delightful thing,\" continued her mother.",
			2, 1, said{"It is a delightful thing,", c1, true, RulePronoun}, nil},
		// "said her aunt" is not the one "her" refers to, and among the
		// rest an aunt is likelier a Mrs.
		{"her aunt is not her",
			[]string{"name: Elizabeth\ngender: female", "name: Mrs. Gardiner\ngender: female"},
			"Mrs. Gardiner had gone in before them.\n\n" +
				"Elizabeth looked up at the house.\n\n" +
				"\"It is a fine house,\" said her aunt.",
			1, 0, said{"It is a fine house,", c1, true, RulePronoun}, nil},
		// A daughter whose name has no family name ("Emma") has one in
		// her aliases ("Emma Woodhouse"): her father is the Mr. of it.
		{"her father by an alias's family name",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Mr. Knightley\ngender: male", "name: Emma\naliases: [Emma Woodhouse, Mrs. Knightley]\ngender: female"},
			"Mr. Knightley had gone out. Emma came in.\n\n" +
				"\"Well, my dear?\" said her father.",
			1, 0, said{"Well, my dear?", c0, true, RulePronoun}, nil},
		// A child's "papa" calls the father of the family of those just
		// named, who answers it; "my father" only speaks of him.
		{"papa is answered by the father",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Harriet Smith\ngender: female", "name: Emma\naliases: [Emma Woodhouse]\ngender: female"},
			"Mr. Woodhouse came in, and Harriet and Emma looked up from the book.\n\n" +
				"\"Yes, papa, it is written out in our second page.\"\n\n" +
				"\"Aye, very true.\"",
			2, 1, said{"Aye, very true.", c0, true, RuleVocative}, nil},
		{"my father is spoken of",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Harriet Smith\ngender: female", "name: Emma\naliases: [Emma Woodhouse]\ngender: female"},
			"Mr. Woodhouse came in, and Harriet and Emma looked up from the book.\n\n" +
				"\"Was that my father?\"\n\n" +
				"\"Aye, very true.\"",
			2, 1, said{"Aye, very true.", c2, true, RuleNone}, nil},
		// "my poor dear mother used to sit" speaks of her, not to her.
		{"a dear mother spoken of",
			[]string{"name: Millie Hall\naliases: [Millie]\ngender: female", "name: Mrs. Hall\ngender: female"},
			"Millie came in with the tray.\n\n" +
				"\"Lock him out,\" said Mrs. Hall. \"In that very chair my poor dear mother used to sit.\"",
			1, 0, said{"Lock him out,", c1, false, RuleExplicit}, nil},
		// A narrator guessed only from whom the chapter's lines call by
		// name (McMurdo, twice) is not turn-taking's other party.
		{"a narrator only called by name takes no turn",
			[]string{"name: Sherlock Holmes\naliases: [Holmes]\ngender: male", "name: McMurdo\ngender: male", "name: Thaddeus Sholto\ngender: male"},
			"\"Open the door, McMurdo,\" said Holmes.\n\n" +
				"\"Come, McMurdo, you know me,\" said Holmes.\n\n" +
				"The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky.\n\n" +
				"\"It is late,\" said I.\n\n" +
				"The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky. The fog lay thick upon the garden, and the house stood dark against the sky.\n\n" +
				"Thaddeus Sholto looked up from his chair by the fire.\n\n" +
				"\"We must go,\" said Holmes.\n\n" +
				"\"Must we?\"",
			5, 4, said{"Must we?", c2, true, RuleTurn}, nil},
		// "Sir" calls a man, not the character a codex names "Sir".
		{"sir is no name",
			[]string{"name: Mr. Bennet\ngender: male", "name: Sir\ngender: male", "name: Elizabeth\ngender: female"},
			"\"Come here, child,\" cried Mr. Bennet as Elizabeth came in. \"Is it true?\"\n\n" +
				"\"It is, Sir.\"\n\n" +
				"\"Very well.\"",
			3, 2, said{"Very well.", c0, true, RuleTurn}, nil},
		// Narration that tells of a question put ("Emma was obliged to
		// ask what…") leads into its answer, not the asker's speech: the
		// line is the one asked's, here the speaker before.
		{"a question told of is answered",
			[]string{"name: Harriet Smith\naliases: [Harriet]\ngender: female", "name: Emma\ngender: female"},
			"\"They told me something,\" said Harriet.\n\n" +
				"Emma was obliged to ask what they had told her.\n\n" +
				"\"They told me that Mr. Martin dined there.\"",
			2, 1, said{"They told me that Mr. Martin dined there.", c0, true, RuleNarration}, nil},
		// "asked her if …" reports a question put to her.
		{"asked her if is told of",
			[]string{"name: Mrs. Bennet\ngender: female", "name: Elizabeth\ngender: female"},
			"\"He is so very handsome,\" said Mrs. Bennet.\n\n" +
				"Elizabeth now asked her if Charlotte had been at Longbourn.\n\n" +
				"\"Yes, she called yesterday.\"",
			2, 1, said{"Yes, she called yesterday.", c0, true, RuleNarration}, nil},
		// The one a question is put to by name answers it.
		{"the one asked by name answers",
			[]string{"name: Harriet Smith\naliases: [Harriet]\ngender: female", "name: Emma\ngender: female", "name: Mr. Knightley\ngender: male"},
			"\"It is late,\" said Harriet.\n\n" +
				"Mr. Knightley asked Emma whether the carriage was come.\n\n" +
				"\"Not yet.\"",
			2, 1, said{"Not yet.", c1, true, RuleNarration}, nil},
		// "was her husband's answer" is a kinship tag, as "said her
		// husband" is.
		{"a relative's speech noun",
			[]string{"name: Mr. Bennet\ngender: male", "name: Mrs. Bennet\ngender: female"},
			"\"I mean to go with you,\" said Mrs. Bennet.\n\n" +
				"\"This is very kind of you,\" was her husband's answer.",
			2, 1, said{"This is very kind of you,", c0, true, RulePronoun}, nil},
		// A name that opens a sentence as a possessive ("Anne's
		// recollections were …") is whose, not who: no referent of the
		// pronoun after.
		{"a possessive is no subject",
			[]string{"name: Anne Elliot\naliases: [Anne]\ngender: female", "name: Mrs Smith\ngender: female"},
			"Anne's recollections of the concert were happy enough. " +
				"Everybody of any consequence in Bath was well known by name to Mrs Smith.\n\n" +
				"\"The little Durands were there, I conclude,\" said she.",
			1, 0, said{"The little Durands were there, I conclude,", c1, true, RulePronoun}, nil},
		// Among an unsettled line's candidates, one heard speaking just
		// before ranks with those a tag names, ahead of one only named
		// since.
		{"an unsettled line's speaker heard first", nil,
			"\"Good morning,\" said Mr. Knightley.\n\n" +
				"Jory sat by the fire. \"You should come,\" he said.\n\n" +
				"Not a word would come to her lips; Harriet she had faced, but not this.\n\n" +
				"\"Miss Woodhouse, dear, we are so sorry!\"",
			3, 2, said{"Miss Woodhouse, dear, we are so sorry!", jory, true, RuleNone}, nil},
		// A paragraph that opens with "She" and names another woman only
		// as an object or possessive keeps its "she": the pronoun of its
		// lead-in is not that other woman.
		{"one she through a paragraph",
			[]string{"name: Elizabeth\ngender: female", "name: Jane\ngender: female", "name: Colonel Fitzwilliam\ngender: male"},
			"Elizabeth walked out alone that morning.\n\n" +
				"She was engaged one day as she walked, in re-perusing Jane's last letter, and dwelling on some passages " +
				"which proved that Jane had not written in spirits, when she saw that Colonel Fitzwilliam was meeting her. " +
				"Putting away the letter, she said,\n\n\"I did not know before that you ever walked this way.\"",
			1, 0, said{"I did not know before that you ever walked this way.", c0, true, RulePronoun}, nil},
		// In a paragraph of one "he" throughout, the men it names as
		// objects ("one to Colonel Adye") are not who "he" is, though
		// named last.
		{"one he through a paragraph reads back",
			[]string{"name: Kemp\ngender: male", "name: Colonel Adye\ngender: male", "name: Jory\ngender: male"},
			"Kemp sat at his lunch, and Jory brought in the letter.\n\n" +
				"\"Is there an answer?\" asked Jory.\n\n" +
				"He wrote a number of brief notes, one to Colonel Adye, and gave them to Jory. " +
				"\"There is no danger,\" he said.",
			2, 1, said{"There is no danger,", c0, true, RulePronoun}, nil},
		// A "he" the narration carries on from one who came in is his,
		// not the man named since only as a possessive.
		{"the narration's he goes on",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Frank Churchill\ngender: male", "name: Emma\ngender: female"},
			"Frank Churchill came in hot, and sat down far from Mr. Woodhouse's fire.\n\n" +
				"\"You will soon be cooler, Mr. Woodhouse says,\" said Emma.\n\n" +
				"He was gone long enough to have had a very comfortable meal, and came back all the better.\n\n" +
				"\"As soon as my aunt gets well, I shall go abroad,\" said he.",
			2, 1, said{"As soon as my aunt gets well, I shall go abroad,", c1, true, RulePronoun}, nil},
		// A possessive that opens a sentence turns the narration's he
		// to no one: the "he" after it is still the one who came in.
		{"a possessive does not take the narration's he",
			[]string{"name: Mr. Woodhouse\ngender: male", "name: Frank Churchill\ngender: male", "name: Emma\ngender: female"},
			"Frank Churchill came in hot.\n\n" +
				"\"You will soon be cooler,\" said Emma.\n\n" +
				"Mr. Woodhouse's fire was nearly out; he sat down far from it, looking very deplorable.\n\n" +
				"\"As soon as I am cooler I shall go back again,\" said he.",
			2, 1, said{"As soon as I am cooler I shall go back again,", c1, true, RulePronoun}, nil},
		// A name after "a" is a thing the character made: "a Leonardo"
		// is a painting, and the "she" after it is the one who spoke.
		{"a painting does not take the narration's she",
			[]string{"name: Lucy\ngender: female", "name: Cecil\ngender: male", "name: Leonardo"},
			"\"I did not,\" said Lucy.\n\n" +
				"He looked at her, instead of through her. From a Leonardo she had become a living woman.\n\n" +
				"\"I thought I did at first,\" she said.",
			2, 1, said{"I thought I did at first,", c0, true, RulePronoun}, nil},
		// A character the line names is no referent of its pronoun:
		// the one its lead-in's paragraph names ("Sir William's
		// allusion") leaves the pronoun to the others.
		{"a name the line speaks is no referent",
			[]string{"name: Mr. Darcy\naliases: [Darcy]\ngender: male", "name: Elizabeth\ngender: female", "name: Sir William\ngender: male"},
			"\"It is evident that you belong to the first circles,\" said Sir William.\n\n" +
				"The latter part of this address was scarcely heard by Darcy; but Sir William's allusion to his friend " +
				"seemed to strike him forcibly. Recovering himself, he turned to his partner, and said,\n\n" +
				"\"Sir William's interruption has made me forget what we were talking of.\"",
			2, 1, said{"Sir William's interruption has made me forget what we were talking of.", c0, true, RulePronoun}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cast := testCast(t)
			if tt.cast != nil {
				cast = castOf(t, tt.cast...)
			}
			got := attributeWith(t, cast, tt.text, "")
			require.Len(t, got, tt.lines, "%+v", got)
			assert.Equal(t, tt.want, got[tt.at], "%+v", got)
			for at, speaker := range tt.also {
				assert.Equal(t, speaker, got[at].Speaker, "%+v", got)
			}
		})
	}
}

// TestAGivenNameTags: a character's given name alone, which the entry
// does not list (manuscript.GivenName), tags a line and names a speaker
// in the writer's speaker line; a given name two characters share names
// neither.
func TestAGivenNameTags(t *testing.T) {
	entries := castOf(t, "name: Ebba Strand\naliases: [Warden Strand]\npronouns: she/her", "name: Moss Kettering\naliases: [Moss]\npronouns: he/him")
	got := attributeWith(t, entries, "“One more night,” Ebba said. “We'll have it by the morning.”\n\n“And the old man?” said Moss.", "")
	require.Len(t, got, 2)
	assert.Equal(t, said{Text: "One more night,", Speaker: "codex/characters/c0.md", Rule: RuleExplicit}, got[0])

	got = attributeWith(t, entries, "“Who rang it?”\n<!-- speaker: Ebba -->", "")
	require.Len(t, got, 1)
	assert.Equal(t, said{Text: "Who rang it?", Speaker: "codex/characters/c0.md", Rule: RuleWriter}, got[0])

	c := NewCast(castOf(t, "name: Jane Bennet", "name: Jane Fairfax"))
	_, ok := c.Find("Jane")
	assert.False(t, ok, "two Janes: the writer says which")
	id, ok := c.Find("Jane Fairfax")
	require.True(t, ok)
	assert.Equal(t, "codex/characters/c1.md", id)
}
