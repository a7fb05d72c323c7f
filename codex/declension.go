package codex

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Russian and Ukrainian decline names: the codex writes Вронский, and
// the prose says Вронского, Вронскому, Вронским and Вронском as often as
// Вронский. A name written in Cyrillic is therefore also found in the
// other cases of the singular, each word of it in the same case ("Анны
// Аркадьевны" of Анна Аркадьевна). The matcher takes these forms as
// aliases marked declined (manuscript's mention.go): the forms are the
// name's, but rename leaves them, as a new name's endings are the
// writer's to choose, and attribution reads no speaker from them.
//
// The endings come from the name's own, by the patterns of Russian
// grammar: adjectival surnames (-ский, -ой, -ая), the -ов/-ин family
// names (Каренин, Каренина), nouns in -а/-я, -ий/-ия, -й, -ь and a
// consonant; and by Ukrainian's where they differ (ukrainian), with its
// vocative. Where a nominative fits more than one pattern (Дмитрий is a
// noun, Горький an adjective) the forms of each are made: a form no text
// uses costs a few bytes of the matcher and finds nothing. Names ending
// in -е, -и, -у and -ю (Кити, Мими) do not decline. Fleeting vowels
// (Павел, Павла) are not guessed: the codex lists such a form as an
// alias.

// nameCases are the cases a name is declined into, in the order
// declensions lists its endings: genitive, dative, accusative,
// instrumental, prepositional (locative) and, Ukrainian's, vocative.
const nameCases = 6

// The consonants whose spelling rules choose an ending: after velars
// and hushing consonants Russian writes и, not ы (Ольги, Толстым but
// Трубецким); after hushing consonants and ц, an unstressed о is
// written е (Сашей, Марешем).
const (
	consonants       = "бвгджзклмнпрстфхцчшщ"
	velarsAndHushing = "гкхжшщч"
	hushingAndTs     = "жшщчц"
)

// maxDeclinedWords bounds the phrases declined: no name runs longer.
const maxDeclinedWords = 64

// maxDeclinedPerCase bounds the forms one case of a phrase makes when
// several of its words fit more than one pattern.
const maxDeclinedPerCase = 8

// DeclinedForms are phrase's forms in the other cases, or none when no
// word of it is Cyrillic.
func DeclinedForms(phrase string) []string {
	// Most codices write no Cyrillic: their names are passed over for
	// the price of a scan for a Cyrillic letter.
	if !strings.ContainsFunc(phrase, isCyrillic) {
		return nil
	}
	words := strings.Fields(phrase)
	if len(words) == 0 || len(words) > maxDeclinedWords {
		return nil
	}
	per := make([][nameCases][]string, len(words))
	declines := false
	for i, w := range words {
		per[i] = declensions(w)
		for c := range nameCases {
			declines = declines || len(per[i][c]) > 0
		}
	}
	if !declines {
		return nil
	}
	seen := map[string]bool{phrase: true}
	var out []string
	for c := range nameCases {
		forms := []string{""}
		for i, w := range words {
			endings := per[i][c]
			if len(endings) == 0 {
				endings = []string{w}
			}
			next := make([]string, 0, min(len(forms)*len(endings), maxDeclinedPerCase))
			for _, f := range forms {
				for _, e := range endings {
					if len(next) == maxDeclinedPerCase {
						break
					}
					if f == "" {
						next = append(next, e)
					} else {
						next = append(next, f+" "+e)
					}
				}
			}
			forms = next
		}
		for _, f := range forms {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// declensions are word's forms in each oblique case, none for a word
// that is not Russian or does not decline. A word keeps its capitals:
// the endings are added in the case of its last letter.
func declensions(word string) (out [nameCases][]string) {
	if !cyrillicWord(word) || utf8.RuneCountInString(word) < 2 {
		return out
	}
	lower := strings.ToLower(word)
	upper := inCapitals(word)
	add := func(stemBytes int, endings ...string) {
		for c, e := range endings {
			if e == "" {
				continue
			}
			for _, one := range strings.Split(e, "|") {
				if upper {
					one = strings.ToUpper(one)
				}
				out[c] = append(out[c], word[:stemBytes]+one)
			}
		}
	}
	cut := func(suffix string) int { return len(word) - len(suffix) }
	last, _ := utf8.DecodeLastRuneInString(lower)
	stem := strings.TrimSuffix(lower, string(last))
	prev, _ := utf8.DecodeLastRuneInString(stem)
	switch {
	case hasSuffixAny(lower, "ский", "цкий"):
		add(cut("ий"), "ого", "ому", "ого", "им", "ом")
	case strings.HasSuffix(lower, "ий"):
		// A noun (Дмитрий, Дмитрия) or an adjective (Горький, Горького).
		add(cut("ий"), "ия|ого", "ию|ому", "ия|ого", "ием|им", "ии|ом")
	case hasSuffixAny(lower, "ой", "ый"):
		// Толстой, Толстым; Трубецкой, Трубецким.
		ins := "ым"
		if before, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(stem, "о")); strings.ContainsRune(velarsAndHushing, before) {
			ins = "им"
		}
		add(cut("ой"), "ого", "ому", "ого", ins, "ом")
	case strings.HasSuffix(lower, "ая"):
		add(cut("ая"), "ой", "ой", "ую", "ой|ою", "ой")
	case strings.HasSuffix(lower, "яя"):
		add(cut("яя"), "ей", "ей", "юю", "ей|ею", "ей")
	case strings.HasSuffix(lower, "ия"):
		add(cut("ия"), "ии", "ии", "ию", "ией|иею", "ии")
	case last == 'я':
		add(cut("я"), "и", "е", "ю", "ей|ею", "е")
	case last == 'а':
		gen := "ы"
		if strings.ContainsRune(velarsAndHushing, prev) {
			gen = "и"
		}
		ins := "ой|ою"
		if strings.ContainsRune(hushingAndTs, prev) {
			ins = "ей|ой"
		}
		if familyName(lower) {
			// Каренина: Карениной in every case but the accusative.
			add(cut("а"), gen+"|ой", "е|ой", "у", "ой|ою", "е|ой")
		} else {
			add(cut("а"), gen, "е", "у", ins, "е")
		}
	case last == 'й':
		add(cut("й"), "я", "ю", "я", "ем", "е")
	case last == 'ь':
		// Игорь, Игоря; or, feminine, Любовь, Любови.
		add(cut("ь"), "я|и", "ю|и", "я|ь", "ем|ью", "е|и")
	case strings.ContainsRune(consonants, last):
		ins := "ом"
		if strings.ContainsRune(hushingAndTs, last) {
			ins = "ем"
		}
		if familyName(lower + "а") {
			// Каренин, Карениным, or Константин, Константином: a
			// family name of the -ов/-ин pattern or a given name.
			ins = "ом|ым"
		}
		add(len(word), "а", "у", "а", ins, "е")
	}
	ukrainian(lower, last, prev, cut, add)
	return out
}

// ukrainian adds Ukrainian's endings where they differ from Russian's
// (Оксана: Оксани, Оксані, Оксано; Петро: Петра, Петрові, Петре): a
// name gets both languages', as a text in one never writes the other's.
func ukrainian(lower string, last, prev rune, cut func(string) int, add func(int, ...string)) {
	// The consonant before -і alternates: Ольга, Ользі; Наталка, Наталці.
	soft := map[rune]string{'к': "ці", 'г': "зі", 'х': "сі"}
	switch {
	case hasSuffixAny(lower, "ський", "цький", "зький"):
		add(cut("ий"), "", "", "", "", "ім")
	case hasSuffixAny(lower, "ська", "цька", "зька"):
		add(cut("а"), "ої", "ій", "", "", "ій")
	case strings.HasSuffix(lower, "ія"):
		add(cut("ія"), "ії", "ії", "ію", "ією", "ії", "іє")
	case last == 'я' && !hasSuffixAny(lower, "ая", "яя", "ия"):
		add(cut("я"), "і", "і", "", "ею", "і", "е|ю")
	case last == 'а':
		if s, ok := soft[prev]; ok {
			add(cut(string(prev)+"а"), "", s, "", "", s)
			add(cut("а"), "и", "", "", "", "", "о")
		} else {
			add(cut("а"), "и", "і", "", "", "і", "о")
		}
	case last == 'о':
		// Петро, Шевченко: masculine in Ukrainian; Шарло, in Russian,
		// makes forms no text writes.
		add(cut("о"), "а", "ові|у", "а", "ом", "ові|і", "е|у")
	case strings.HasSuffix(lower, "ій"):
		add(cut("й"), "я", "ю|єві", "я", "єм", "ї|єві", "ю")
	case last == 'ь':
		add(cut("ь"), "", "еві", "", "", "еві|і", "ю")
	case strings.ContainsRune(consonants, last):
		add(cut(""), "", "ові", "", "", "ові|і", "е|у")
	}
}

// hasSuffixAny reports whether s ends with one of the suffixes.
func hasSuffixAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// familyName reports whether a feminine form in -а is a family name of
// the -ова/-ева/-ина/-ына pattern (Каренина, Облонская is adjectival).
func familyName(lower string) bool {
	return utf8.RuneCountInString(lower) > 4 && hasSuffixAny(lower, "ова", "ева", "ёва", "ина", "ына")
}

// cyrillicWord reports whether every letter of word is Cyrillic and it
// has one.
func cyrillicWord(word string) bool {
	letters := 0
	for _, r := range word {
		switch {
		case isCyrillic(r):
			letters++
		case r == '-' || r == '\'' || r == '’':
		default:
			return false
		}
	}
	return letters > 0
}

// isCyrillic reports a letter of the Cyrillic script; below U+0400, as
// every letter of an English name is, without a table's lookup.
func isCyrillic(r rune) bool { return r >= 0x400 && unicode.Is(unicode.Cyrillic, r) }

// inCapitals reports a word written all in capitals ("ВРОНСКИЙ"): its
// endings are written so too.
func inCapitals(word string) bool {
	return strings.ToUpper(word) == word && strings.ToLower(word) != word
}

// nominativeEndings are the endings of the names declensions declines.
var nominativeEndings = []string{"", "а", "я", "й", "ь", "ий", "ой", "ый", "ая", "яя", "ия"}

// NominativesOf are the one-word names of which word is another case
// ("Москву": Москва, or Москв, a name that would end in a consonant),
// by the endings declensions gives; none for a word not in Cyrillic.
func NominativesOf(word string) []string {
	if !cyrillicWord(word) {
		return nil
	}
	runes := []rune(word)
	upper := inCapitals(word)
	var out []string
	for k := 1; k <= 3 && k < len(runes); k++ {
		stem := string(runes[:len(runes)-k])
		for _, e := range nominativeEndings {
			if upper {
				e = strings.ToUpper(e)
			}
			n := stem + e
			if n == word || slices.Contains(out, n) {
				continue
			}
			forms := declensions(n)
			for c := range nameCases {
				if slices.Contains(forms[c], word) {
					out = append(out, n)
					break
				}
			}
		}
	}
	return out
}
