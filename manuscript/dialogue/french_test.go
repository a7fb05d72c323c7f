package dialogue

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A chapter set a paragraph a line, as a word processor writes it, and
// dash-set turns on lines of their own: each is a paragraph of speech,
// though Markdown would join the lines. Hard-wrapped prose, its lines
// short, stays one paragraph over its lines.
func TestFindParagraphsALine(t *testing.T) {
	long := strings.Repeat("Il faisait froid dans la salle, et personne ne parlait plus depuis longtemps. ", 3)
	tests := []struct {
		name string
		text string
		want [][]string
	}{
		{"dash turns on lines of their own", long + "\n" + long + "\n— Il n’y a pas longtemps ?\n— Si fait.\n— Ah !\n" + long,
			[][]string{{"Il n’y a pas longtemps ?"}, {"Si fait."}, {"Ah !"}}},
		{"a paragraph a line, guillemets opening some", long + "\n« Nom de Dieu, ça ne peut pas durer. »\n" + long + "\n« Quoi, mon capitaine ? »\n" + long,
			[][]string{{" Nom de Dieu, ça ne peut pas durer. "}, {" Quoi, mon capitaine ? "}}},
		{"a dash inside a sentence wrapped onto a line is no turn", "He had gone on and on,\n— as he always did — about the war.", nil},
		{"hard-wrapped prose runs its speech over lines", "\"The first part of the\nstory,\" said Emma, \"and the\nend.\"",
			[][]string{{"The first part of the\nstory,", "and the\nend."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, spoken(t, tt.text, Options{}))
		})
	}
}

// French sets its tag unmarked inside dash-set speech; the speech goes
// on after it, past a comma or the tag's full stop.
func TestFindFrenchIncises(t *testing.T) {
	tests := []struct {
		name string
		text string
		want [][]string
	}{
		{"a tag after an exclamation, speech after its comma", "— Quand ce serait le diable ! s’écria-t-il, ils reçoivent à merveille.\n\n— Oui.",
			[][]string{{"Quand ce serait le diable !", "ils reçoivent à merveille."}, {"Oui."}}},
		{"a tag that ends its sentence, speech after it", "— Vous pouvez parler, répondis-je. Il entend très difficilement.\n\n— Bien.",
			[][]string{{"Vous pouvez parler,", "Il entend très difficilement."}, {"Bien."}}},
		{"an object pronoun before the verb", "— J’ai peur, me dit-elle.\n\n— Pourquoi ?",
			[][]string{{"J’ai peur,"}, {"Pourquoi ?"}}},
		{"a name after the verb", "— Tu verras, dit Jeanne.\n\n— Non.", [][]string{{"Tu verras,"}, {"Non."}}},
		{"a word in lower case that is no verb goes on with the speech", "— Viens, mon ami, viens vite.\n\n— Non.",
			[][]string{{"Viens, mon ami, viens vite."}, {"Non."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, spoken(t, tt.text, Options{}))
		})
	}
}

// French tags name the speaker as English ones do, by a name beside a
// verb or a pronoun the verb carries; "je" is the narrator, a guess as
// "said I" is. Speech only led in ("Jeanne répondit : « … »") is found
// by its marks though no paragraph opens with one.
func TestFrenchTags(t *testing.T) {
	cast := castOf(t, "name: Jeanne\ngender: female", "name: Julien\ngender: male")
	jeanne, julien := "codex/characters/c0.md", "codex/characters/c1.md"
	tests := []struct {
		name string
		text string
		pov  string
		want []said
	}{
		{"a name before the verb, guillemets", "Jeanne répondit : « Entre, papa. » Et son père parut.", "",
			[]said{{" Entre, papa. ", jeanne, false, RuleExplicit}}},
		{"the verb before a name", "« Tu verras », dit Julien.", "",
			[]said{{" Tu verras ", julien, false, RuleExplicit}}},
		{"a pronoun on the verb", "Julien entra, et Jeanne le regarda.\n\n— Je veux le savoir, ajouta-t-elle vivement.", "",
			[]said{{"Je veux le savoir,", jeanne, true, RulePronoun}}},
		{"the narrator", "— C’est un portrait, lui répondis-je.", "codex/characters/c1.md",
			[]said{{"C’est un portrait,", julien, false, RulePronoun}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, attributeWith(t, cast, tt.text, tt.pov))
		})
	}
}

func TestFrenchVerb(t *testing.T) {
	tests := []struct {
		word, verb, subject string
		ok                  bool
	}{
		{"dit-elle", "dit", "elle", true},
		{"répliqua-t-il", "répliqua", "il", true},
		{"s’écria-t-elle", "écria", "elle", true},
		{"dis-je", "dis", "je", true},
		{"demanda", "demanda", "", true},
		{"fit-il", "fit", "il", true},
		{"fit", "", "", false}, // English too
		{"Said", "", "", false},
		{"peut-être", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			verb, subject, ok := frenchVerb(tt.word)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.verb, verb)
			assert.Equal(t, tt.subject, subject)
		})
	}
}

// German, Spanish, Italian and Russian tags name the speaker as English
// ones do: a name beside a speech verb, or a pronoun after it.
func TestOtherLanguagesTags(t *testing.T) {
	cast := castOf(t, "name: Effi\ngender: female", "name: Innstetten\ngender: male",
		"name: Juan\ngender: male", "name: Levin\naliases: [Левин]\ngender: male", "name: Dolly\naliases: [Долли]\ngender: female")
	effi, innstetten, juan, levin, dolly := "codex/characters/c0.md", "codex/characters/c1.md", "codex/characters/c2.md", "codex/characters/c3.md", "codex/characters/c4.md"
	tests := []struct {
		name string
		text string
		want []said
	}{
		{"German, a name after the verb", "„Guten Tag“, sagte Effi.", []said{{"Guten Tag", effi, false, RuleExplicit}}},
		{"German, a pronoun", "Innstetten stand auf.\n\n„Ja“, sagte er.", []said{{"Ja", innstetten, true, RulePronoun}}},
		{"Spanish, a dash-set incise", "—Hola —dijo Juan—. ¿Cómo estás?", []said{{"Hola", juan, false, RuleExplicit}}},
		{"Italian, a name after the verb", "«Buongiorno», disse Juan.", []said{{"Buongiorno", juan, false, RuleExplicit}}},
		{"Russian, a name after the verb", "— Я сейчас приехал, — отвечал Левин.", []said{{"Я сейчас приехал,", levin, false, RuleExplicit}}},
		{"Russian, a pronoun", "Долли вошла.\n\n— Это ужасно! — сказала она.", []said{{"Это ужасно!", dolly, true, RulePronoun}}},
		// Levin in the dative is spoken to, not speaking.
		{"Russian, a name declined is no speaker", "— Нет, как хотите, — сказал полковой командир Левину.", []said{{"Нет, как хотите,", "", true, RuleNone}}},
		{"Russian, a name declined is no subject", "Он посмотрел на Левина.\n\n— Нет.", []said{{"Нет.", "", true, RuleNone}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, attributeWith(t, cast, tt.text, ""))
		})
	}
}
