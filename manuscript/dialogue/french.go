package dialogue

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// French sets its tags where English does ("dit Jeanne", "Jeanne
// répondit :") and inverts a pronoun subject onto the verb with a
// hyphen ("dit-elle", "répliqua-t-il", "s'écria-t-elle", "lui dis-je").
// In speech set with dashes it leaves the tag unmarked inside the
// speech ("— Quand ce serait le diable ! s'écria-t-il, ils reçoivent à
// merveille."): the tag runs from the speech verb after a comma, an
// exclamation or a question mark to the next comma, where the speech
// goes on, or to the end of its sentence, where it ends.

// frenchSpeechVerbs are the verbs of a French tag: the forms of the
// past historic, the imperfect and the present a tag uses, third person
// and first.
var frenchSpeechVerbs = wordSet(`dit dis disait disais disaient dirent dites
répondit répondis répondait répondais répondirent répond
demanda demandai demandait demandais demandèrent demande
écria écriai écriait écrièrent écrie exclama exclamai exclamait exclame
reprit repris reprenait reprenais reprend ajouta ajoutai ajoutait ajoute
continua continuai continuait continue murmura murmurai murmurait murmure
cria criai criait crie répliqua répliquai répliquait réplique
interrompit interrompis interrompait déclara déclarai déclarait
observa observai observait poursuivit poursuivis poursuivait fit fis faisait fait
soupira soupirai soupirait balbutia balbutiai balbutiait expliqua expliquai
avoua avouai insista insistai hurla hurlai hurlait chuchota chuchotai chuchotait
répéta répétai répétait conclut conclus gronda grondai grondait lança lançai
souffla soufflai riposta ripostai objecta objectai protesta protestai
bégaya bégayai bredouilla bredouillai gémit gémis grommela grommelai
affirma affirmai annonça annonçai commença commençai raconta racontai
supplia suppliai ordonna ordonnai appela appelai questionna questionnai
railla plaisanta rétorqua rétorquai assura assurai`)

// frenchSubjects are the pronouns a French tag inverts onto its verb,
// by the gender they name; "je" is the narrator.
var frenchSubjects = map[string]Gender{
	"il": GenderMale, "elle": GenderFemale, "je": genderI, "ils": GenderThey, "elles": GenderThey,
}

// frenchObjects are the pronouns a French tag may set before its verb
// ("me dit-elle", "lui répondit Jeanne").
var frenchObjects = wordSet(`me lui leur nous vous te`)

// frenchVerb splits a word of a French tag into its verb, without an
// elided reflexive or object pronoun before it ("s'écria" is écria),
// and the subject pronoun inverted after it ("dit-elle": elle;
// "répliqua-t-il": il); ok when the verb is a speech verb.
func frenchVerb(w string) (verb, subject string, ok bool) {
	return frenchVerbLower(strings.ToLower(w))
}

// frenchVerbLower is frenchVerb of a word in lower case.
func frenchVerbLower(w string) (verb, subject string, ok bool) {
	// Most words a tag's reader asks about are English: no French verb
	// with what it carries is shorter than two bytes or longer than 24.
	if len(w) < 2 || len(w) > 24 {
		return "", "", false
	}
	if !strings.ContainsAny(w, "-'’") {
		// No pronoun on it and none elided before it: the word alone.
		if !frenchSpeechVerbs[w] || w == "fit" {
			return "", "", false
		}
		return w, "", true
	}
	for _, p := range []string{"s'", "s’", "m'", "m’", "l'", "l’", "t'", "t’"} {
		if strings.HasPrefix(w, p) {
			w = w[len(p):]
			break
		}
	}
	verb, rest, hyphen := strings.Cut(w, "-")
	if hyphen {
		rest = strings.TrimPrefix(rest, "t-")
		if _, ok := frenchSubjects[rest]; !ok && rest != "on" && rest != "nous" && rest != "vous" {
			return "", "", false
		}
		subject = rest
	}
	// "fit" is an English word too: a French tag's only with its
	// pronoun ("fit-il").
	if !frenchSpeechVerbs[verb] || verb == "fit" && subject == "" {
		return "", "", false
	}
	return verb, subject, true
}

// frenchInciseAt says a French tag begins at i, inside dash-set speech
// just after a comma, exclamation or question mark and its space: a
// speech verb in lower case, with an object pronoun before it or not
// ("dit-il", "s'écria Jeanne", "me dit-elle").
func frenchInciseAt(text string, i, end int) bool {
	word := func(at int) (string, int) {
		j := at
		for j < end {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !(unicode.IsLetter(r) || r == '-' || r == '\'' || r == '’') {
				break
			}
			j += size
		}
		return text[at:j], j
	}
	w, next := word(i)
	if w == "" {
		return false
	}
	if first, _ := utf8.DecodeRuneInString(w); !unicode.IsLower(first) {
		return false
	}
	if frenchObjects[w] {
		for next < end && text[next] == ' ' {
			next++
		}
		w, _ = word(next)
	}
	_, _, ok := frenchVerb(w)
	return ok
}
