package dialogue

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// spoken is what Find found, as the texts of each utterance's spans.
func spoken(t *testing.T, text string, opts Options) [][]string {
	t.Helper()
	o := codex.OutlineOf([]byte(text))
	var out [][]string
	for _, u := range Find(text, o.Body, o.Code, opts) {
		require.Len(t, u.Marks, len(u.Spans))
		var spans []string
		for k, sp := range u.Spans {
			require.True(t, sp.Start >= 0 && sp.Start <= sp.End && sp.End <= len(text), "span %v inside the text", sp)
			require.True(t, u.Marks[k].Start <= sp.Start && sp.End <= u.Marks[k].End, "marks %v cover span %v", u.Marks[k], sp)
			spans = append(spans, text[sp.Start:sp.End])
		}
		out = append(out, spans)
	}
	return out
}

func TestFindConventions(t *testing.T) {
	tests := []struct {
		name string
		text string
		opts Options
		want [][]string
	}{
		{"straight double", `"Hello," she said.`, Options{}, [][]string{{"Hello,"}}},
		{"curly double", "“Hello,” she said.", Options{}, [][]string{{"Hello,"}}},
		{"a ” typed for the opening mark", "”Hello,” she said.", Options{}, [][]string{{"Hello,"}}},
		{"straight single, British", "'Hello,' she said. 'Do come in.'", Options{}, [][]string{{"Hello,", "Do come in."}}},
		{"curly single with apostrophes inside",
			"‘I don’t know the Bennets’ house at all,’ said Kitty. ‘It’s four o’clock.’", Options{},
			[][]string{{"I don’t know the Bennets’ house at all,", "It’s four o’clock."}}},
		{"straight single with an elision inside", "'Tell 'em I'm coming,' he said.", Options{}, [][]string{{"Tell 'em I'm coming,"}}},
		{"an elision opens the paragraph's speech", "'Tis a pity,' said Ned.", Options{Quotes: QuotesSingle}, [][]string{{"Tis a pity,"}}},
		{"single quotes nested in double", `"She said 'no' twice, and 'never' once," Anne told him.`, Options{},
			[][]string{{"She said 'no' twice, and 'never' once,"}}},
		{"double quotes nested in single", "‘She said “no”,’ Anne told him.", Options{}, [][]string{{"She said “no”,"}}},
		{"apostrophes never open speech in a double-quoted book", "The Bennets' cousins came at six o'clock and 'em all.\n\n\"Yes,\" said Jane.", Options{},
			[][]string{{"Yes,"}}},
		{"an utterance interrupted by its tag is one", `"I cannot," said Emma, "agree with you."`, Options{},
			[][]string{{"I cannot,", "agree with you."}}},
		{"a verb a name follows, right after the speech, is its tag", `"Nonsense!" flashed Lucy. "Go away."`, Options{},
			[][]string{{"Nonsense!", "Go away."}}},
		{"a verb in the past tense before a word in lower case is none", `"Nonsense!" flashed through her mind. "Go away."`, Options{},
			[][]string{{"Nonsense!"}, {"Go away."}}},
		{"a long aside the speech goes on after in lower case is inside it",
			`"Even the clergyman--" she stopped for a long moment, and looked slowly about the room as if the word she wanted might be hanging somewhere on its walls among the portraits of her grandfather's friends;--"and even the clergyman must go out."`, Options{},
			[][]string{{"Even the clergyman--", "and even the clergyman must go out."}}},
		{"a long tag of one sentence, its verb first, is inside the utterance",
			`"How good of you to come," said the widow, who had sat alone in the parlour since the funeral and would have welcomed the coal man himself if her sister had let him past the door. "Do sit down."`, Options{},
			[][]string{{"How good of you to come,", "Do sit down."}}},
		{"long narration of two sentences after the tag is not",
			`"How good of you to come," said the widow. She had sat alone in the parlour since the funeral and would have welcomed the coal man himself if her sister had let him past the door. "Do sit down."`, Options{},
			[][]string{{"How good of you to come,"}, {"Do sit down."}}},
		{"long narration whose verb comes late is not",
			`"How good of you to come." The widow had sat alone in the parlour since the funeral and would have welcomed the coal man himself if her sister had let him past the door, she said. "Do sit down."`, Options{},
			[][]string{{"How good of you to come."}, {"Do sit down."}}},
		{"a long aside before a new sentence is not",
			`"Even the clergyman--" she stopped for a long moment, and looked slowly about the room as if the word she wanted might be hanging somewhere on its walls among the portraits of her grandfather's friends;--"And now the doctor."`, Options{},
			[][]string{{"Even the clergyman--"}, {"And now the doctor."}}},
		{"an aside of some words the speech goes on after in lower case is inside it",
			`"Even the clergyman--" she stopped a moment to consider what might do for the clergyman;--"and even the clergyman must go out."`, Options{},
			[][]string{{"Even the clergyman--", "and even the clergyman must go out."}}},
		{"a speech with its own tag after a full tag sentence is another utterance",
			`"Of course," the Dodo replied very gravely. "What else have you got?" he went on.`, Options{},
			[][]string{{"Of course,"}, {"What else have you got?"}}},
		{"narration ending on a colon after a finished speech leads into another",
			`"There is no harm in trying." So she began: "O Mouse, do you know the way?"`, Options{},
			[][]string{{"There is no harm in trying."}, {"O Mouse, do you know the way?"}}},
		{"narration that goes somewhere after a speech is no tag of it",
			`"I never," she whispered. "There!" She went quite softly to the kitchen.`, Options{},
			[][]string{{"I never,", "There!"}}},
		{"a speech after a tag sentence that goes on is another utterance",
			`"I never," she whispered. "There!" She went on, "and there."`, Options{},
			[][]string{{"I never,"}, {"There!", "and there."}}},
		{"the speech's own tag leading on with a colon joins",
			`"I beg your pardon!" said the Mouse, frowning, but very politely: "Did you speak?"`, Options{},
			[][]string{{"I beg your pardon!", "Did you speak?"}}},
		{"a colon tag the sentence goes on after in lower case joins",
			`"Did you not notice her?" continued Montraville: "she had on a blue bonnet."`, Options{},
			[][]string{{"Did you not notice her?", "she had on a blue bonnet."}}},
		{"a tag after a full stop still joins", `"Especially when one of those two is such a creature!" said Emma playfully. "That is what you think."`, Options{},
			[][]string{{"Especially when one of those two is such a creature!", "That is what you think."}}},
		{"a second speech with its own tag is another utterance",
			"“Not yet,” she said — and her eyes were wet. The sea was grey. “Come down,” said Jory.", Options{},
			[][]string{{"Not yet,"}, {"Come down,"}}},
		{"a second speech verb leading into the next speech opens another utterance",
			`"There is no danger," he said, and added a mental reservation, "to you."`, Options{},
			[][]string{{"There is no danger,"}, {"to you."}}},
		{"a second speaker's verb too", `"What is it?" she asked the Gryphon, and the Gryphon answered, "Nothing."`, Options{},
			[][]string{{"What is it?"}, {"Nothing."}}},
		{"a second speaker's verb right before the speech, no comma", `"I never did," the Mock Turtle replied in an offended tone. And the Gryphon added "Come, let's try the first figure!"`, Options{},
			[][]string{{"I never did,"}, {"Come, let's try the first figure!"}}},
		{"a speech verb that leads into nothing leaves the tag one", `"Hardly any," said Lucy, fearful of being thought a snob, or said to be one. "Only thirty acres."`, Options{},
			[][]string{{"Hardly any,", "Only thirty acres."}}},
		{"nor does a verb after an auxiliary", `"Now, a clergyman I do hate," said she, as she had said it once before, "is Mr. Eager."`, Options{},
			[][]string{{"Now, a clergyman I do hate,", "is Mr. Eager."}}},
		{"narration that is no tag separates two utterances", `"Yes." The clock struck twelve. "No."`, Options{},
			[][]string{{"Yes."}, {"No."}}},
		{"speech over several paragraphs is one utterance",
			"\"The first part of the story.\n\n\"The second part of it.\n\n\"And the end,\" said Emma.\n\nShe stopped.", Options{},
			[][]string{{"The first part of the story.", "The second part of it.", "And the end,"}}},
		{"speech broken off at a dash is not carried on",
			"\"If I had known, I would have spoken to--\n\n\"You forget the Bateses,\" said Emma.", Options{},
			[][]string{{"If I had known, I would have spoken to--"}, {"You forget the Bateses,"}}},
		{"an unclosed quotation ends with its paragraph", "\"Hello, she said.\n\nAnd then nothing.", Options{},
			[][]string{{"Hello, she said."}}},
		{"French guillemets", "« Bonjour », dit-il.\n\n« Au revoir », dit-elle.", Options{}, [][]string{{" Bonjour "}, {" Au revoir "}}},
		{"German guillemets", "»Guten Tag«, sagte er.\n\n»Tag«, sagte sie.", Options{}, [][]string{{"Guten Tag"}, {"Tag"}}},
		{"German low-high quotes", "„Guten Tag“, sagte er. „Wie geht’s?“", Options{}, [][]string{{"Guten Tag", "Wie geht’s?"}}},
		{"Spanish dash with an incise", "—Hola —dijo Juan—. ¿Cómo estás?\n\n—Bien.", Options{}, [][]string{{"Hola", "¿Cómo estás?"}, {"Bien."}}},
		{"Russian dash", "— Здравствуйте, — сказал он.\n\n— Добрый день.", Options{}, [][]string{{"Здравствуйте,"}, {"Добрый день."}}},
		{"the book's convention stated", "'Hello,' she said, \"twice\".", Options{Quotes: QuotesSingle}, [][]string{{"Hello,"}}},
		{"code, comments and headings are never speech",
			"# \"A Title\"\n\nIt was `\"code\"` here.\n\n<!-- \"a note\" -->\n\n```\n\"fenced\"\n```\n\n\"Real,\" he said.", Options{},
			[][]string{{"Real,"}}},
		{"front matter is never speech", "---\ntitle: \"Chapter One\"\n---\n\"Real,\" he said.", Options{}, [][]string{{"Real,"}}},
		{"a word named in narration is no speech", "She had never heard the word \"ennui\" before that day.", Options{}, nil},
		{"words named after an article or possessive are no speech, a comma or a dash after them",
			"The charade, with its \"ready wit\"--but then the \"soft eyes\"--suited neither. The words which clothed it, the \"beautiful little friend,\" suggested the idea.", Options{}, nil},
		{"words after a word that names are no speech", "They were in for what is known as \"quite a scene,\" and she felt it.", Options{}, nil},
		{"a title after a possessive, and words after a noun that names them, are named",
			"She bought a print of Turner's \"Fighting Temeraire,\" and hung it.\n\nThe gate bore the initials \"R. T.\" in iron.\n\nThe bottle had the words \"Shake well,\" on it.", Options{}, nil},
		{"speech after a possessive that opens its own sentence is still speech",
			"It was Ann's turn. \"Shake well,\" she said.", Options{}, [][]string{{"Shake well,"}}},
		{"named words end a sentence or a paragraph, or stand before a name",
			"No woman could have anything so vulgar as a \"story.\" She grew.\n\nHe found three books labelled \"Diary.\"\n\nWith the \"dream girl,\" Priscilla Grant, she was friends. He said something about \"honour,\"--and left.", Options{}, nil},
		{"one word in lower case quoted inside a sentence is named, whatever it holds",
			"So impertinent--and yet the house \"did,\" for it was a home. Old Mrs. Lynde would call it \"highstrung.\"\n\n\"no,\" she said.\n\nHe answered \"never!\" and went.", Options{},
			[][]string{{"no,"}, {"never!"}}},
		{"speech after an object pronoun is still speech", "He told her \"Come here,\" and left.", Options{}, [][]string{{"Come here,"}}},
		{"a stage direction inside speech is the narrator's", `"You, (to Emma), I am certain, will never guess."`, Options{},
			[][]string{{"You", "I am certain, will never guess."}}},
		{"empty marks are no speech", `He typed "" and stopped.`, Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, spoken(t, tt.text, tt.opts))
		})
	}
}

func TestFindCountsWords(t *testing.T) {
	utts := Find(`"I cannot," said Emma, "agree with you."`, codex.Range{End: 40}, nil, Options{})
	require.Len(t, utts, 1)
	assert.Equal(t, 5, utts[0].Words)
}

// TestFindIsLinearOnUnbalancedMarks runs the scan over ten megabytes of
// marks that never balance, in one paragraph and in many: a scan that
// looked ahead or back for each mark would not finish within the test's
// time.
func TestFindIsLinearOnUnbalancedMarks(t *testing.T) {
	if testing.Short() {
		t.Skip("ten megabytes of marks; run without -short")
	}
	unit := `"a 'b “c ‘d «e „f — g' h" i” j’ k» l“ `
	for _, shape := range []string{" ", "\n\n"} {
		text := strings.Repeat(unit+shape, 10<<20/(len(unit)+len(shape)))
		for _, q := range []Quotes{QuotesAuto, QuotesSingle, QuotesGuillemets, QuotesGerman, QuotesDash} {
			if q != QuotesAuto && q != QuotesSingle {
				text = text[:1<<20] // the simpler conventions on one megabyte
			}
			utts := Find(text, codex.Range{End: len(text)}, nil, Options{Quotes: q})
			for _, u := range utts {
				for _, sp := range u.Spans {
					require.True(t, sp.Start <= sp.End && sp.End <= len(text))
				}
			}
		}
	}
}
