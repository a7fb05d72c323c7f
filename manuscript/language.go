package manuscript

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// everydayWords are, per language tag, some of the words its prose uses
// most: articles, pronouns, conjunctions, prepositions and the commonest
// verbs. A page of a novel holds dozens of them, so counting them tells
// the languages quire reads apart, without a model.
var everydayWords = map[string][]string{
	"en": {"the", "and", "of", "to", "in", "that", "was", "he", "it", "his", "her", "with", "you", "had", "for", "she", "not", "but", "is", "on", "at", "be", "they", "have", "him", "said", "which", "would", "this", "from"},
	"fr": {"le", "la", "les", "des", "et", "un", "une", "il", "elle", "que", "qui", "ne", "pas", "est", "dans", "pour", "sur", "avec", "au", "du", "je", "vous", "mais", "était", "avait", "lui", "son", "sa", "ses", "cette"},
	"de": {"der", "die", "das", "und", "ist", "nicht", "ein", "eine", "zu", "sie", "er", "es", "ich", "mit", "den", "dem", "sich", "auf", "auch", "war", "wie", "aber", "noch", "hatte", "von", "nach", "ihr", "wenn", "sein", "dass"},
	"es": {"el", "los", "las", "y", "en", "un", "una", "es", "no", "se", "por", "con", "para", "su", "al", "lo", "como", "más", "pero", "había", "era", "sus", "yo", "del", "muy", "él", "ella", "sin", "sobre", "está"},
	"it": {"il", "di", "che", "è", "un", "una", "non", "per", "con", "si", "del", "della", "le", "ma", "gli", "lo", "ho", "era", "come", "anche", "al", "mi", "ella", "egli", "aveva", "questo", "più", "nel", "alla", "sua"},
	"pt": {"o", "os", "as", "não", "um", "uma", "em", "para", "com", "se", "do", "da", "por", "mais", "mas", "ao", "ele", "ela", "foi", "era", "como", "dos", "das", "seu", "sua", "tinha", "muito", "na", "no", "isso"},
	"nl": {"de", "het", "een", "en", "van", "ik", "te", "dat", "die", "is", "niet", "zijn", "op", "hij", "zij", "met", "voor", "was", "maar", "als", "er", "aan", "ook", "had", "haar", "hem", "wat", "nog", "naar", "werd"},
	"ru": {"и", "в", "не", "на", "что", "он", "я", "с", "как", "она", "это", "его", "но", "а", "к", "по", "так", "все", "её", "ее", "был", "было", "сказал", "то", "у", "же", "ты", "вы", "бы", "когда"},
	"uk": {"і", "в", "не", "на", "що", "він", "я", "з", "як", "вона", "це", "його", "але", "а", "до", "по", "так", "все", "її", "був", "було", "та", "у", "й", "ти", "ви", "б", "коли", "щоб", "їх"},
	"pl": {"i", "w", "nie", "na", "że", "się", "to", "z", "jest", "do", "jak", "ale", "co", "o", "tak", "już", "był", "była", "ja", "on", "ona", "po", "od", "za", "mnie", "jej", "go", "by", "tylko", "jego"},
}

// languageNames are the languages of everydayWords, in English.
var languageNames = map[string]string{
	"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
	"pt": "Portuguese", "nl": "Dutch", "ru": "Russian", "uk": "Ukrainian", "pl": "Polish",
}

// LanguageName is the English name of a tag GuessLanguage gives, or the
// tag itself.
func LanguageName(tag string) string {
	if n, ok := languageNames[tag]; ok {
		return n
	}
	return tag
}

// languageSample bounds how much prose GuessLanguage reads: the first
// 20,000 words tell a book's language as well as all of it.
const languageSample = 20000

// GuessLanguage is the language tag of the prose of texts, read in
// order up to languageSample words, by how many of each language's
// everyday words it holds; "" when no language stands out: a fifth of
// the words must be one language's, and a third more than the next's.
func GuessLanguage(texts ...string) string {
	byWord := map[string][]string{}
	for tag, words := range everydayWords {
		for _, w := range words {
			byWord[w] = append(byWord[w], tag)
		}
	}
	score := map[string]int{}
	words := 0
	for _, text := range texts {
		for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if words == languageSample {
				break
			}
			words++
			for _, tag := range byWord[strings.ToLower(w)] {
				score[tag]++
			}
		}
	}
	tags := slices.Sorted(maps.Keys(everydayWords))
	slices.SortStableFunc(tags, func(a, b string) int { return cmp.Compare(score[b], score[a]) })
	best, second := score[tags[0]], score[tags[1]]
	if words == 0 || best*5 < words || best*3 < second*4 {
		return ""
	}
	return tags[0]
}
