package dialogue

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

func TestALetterInQuotationMarksIsNoSpeech(t *testing.T) {
	const before = "\"Read it aloud,\" said Jane.\n\n"
	const after = "\n\n\"Oh! thoughtless Lydia!\" cried Elizabeth."
	tests := []struct {
		name string
		text string
		want [][]string
	}{
		{"a salutation, a valediction and a signature, each a paragraph in marks",
			before + "\"MY DEAR HARRIET,\"\n\n\"You will laugh when you know where I am gone.\"\n\n\"Your affectionate friend,\"\n\n\"LYDIA BENNET.\"" + after,
			[][]string{{"Read it aloud,"}, {"Oh! thoughtless Lydia!"}}},
		{"a salutation left open into the letter, and its signature",
			before + "\"My dear Friend,\n\n\"If you are not so compassionate as to dine with us, we shall quarrel. Yours ever,\n\n\"CAROLINE BINGLEY.\"" + after,
			[][]string{{"Read it aloud,"}, {"Oh! thoughtless Lydia!"}}},
		{"a salutation without marks, and a valediction",
			before + "MY DEAR MADAM,\n\n\"If I made myself intelligible yesterday, this letter will be expected.\"\n\n\"Your obliged and affectionate Son,\"" + after,
			[][]string{{"Read it aloud,"}, {"Oh! thoughtless Lydia!"}}},
		{"a letter with no salutation: its valediction and the name under it",
			"Emma read the note.\n\n\"I have the greatest pleasure in forwarding to you the enclosed.\"\n\n\"Yours ever,\"\n\"A. W.\"" + after,
			[][]string{{"Oh! thoughtless Lydia!"}}},
		{"a valediction that closes the letter's last paragraph",
			"Mary wrote.\n\n\"Charles joins me in love, and everything proper.  Yours affectionately,\"\n\n\"Mary M---.\"" + after,
			[][]string{{"Oh! thoughtless Lydia!"}}},
		{"speech before the salutation is speech",
			"Jane came in.\n\n\"It is from Miss Bingley.\"\n\n\"My dear Friend,\"\n\n\"Come as soon as you can.\"\n\n\"CAROLINE BINGLEY.\"",
			[][]string{{"It is from Miss Bingley."}}},
		{"a salutation alone is a line of speech", "\"My dear Jane,\"\n\n\"What is it, Lizzy?\"",
			[][]string{{"My dear Jane,"}, {"What is it, Lizzy?"}}},
		{"\"Dear me\" calls no one", "\"Dear me,\"\n\n\"It is nothing.\"\n\n\"LYDIA BENNET.\"",
			[][]string{{"Dear me,"}, {"It is nothing."}, {"LYDIA BENNET."}}},
		{"a salutation a tag follows is speech", "\"My dear Harriet,\" said Emma.\n\n\"Yours ever,\"\n\n\"A. W.\"",
			[][]string{{"My dear Harriet,"}}},
		{"a valediction without a signature is speech", "Emma sat.\n\n\"Whose is it?\"\n\n\"Yours, I think,\"",
			[][]string{{"Whose is it?"}, {"Yours, I think,"}}},
		{"narration ends the run before the signature", "\"My dear Jane,\"\n\nShe stopped.\n\n\"LYDIA BENNET.\"",
			[][]string{{"My dear Jane,"}, {"LYDIA BENNET."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, spoken(t, tt.text, Options{}))
			// Analyze reads the same speech.
			var got [][]string
			for _, u := range Analyze(Chapter{Text: tt.text, Body: codex.Range{End: len(tt.text)}}, NewCast(nil), Options{}) {
				var spans []string
				for _, sp := range u.Spans {
					spans = append(spans, tt.text[sp.Start:sp.End])
				}
				got = append(got, spans)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
