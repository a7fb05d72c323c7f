package manuscript

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// language is one of the languages GuessLanguage tells apart: its name
// in English, and some of the words its prose uses most (articles,
// pronouns, conjunctions, prepositions and the commonest verbs). A page
// of a novel holds dozens of them, so counting them tells the languages
// apart without a model.
type language struct {
	name  string
	words []string
}

// languages are those GuessLanguage knows, by tag.
var languages = map[string]language{
	"en": {"English", []string{"the", "and", "of", "to", "in", "that", "was", "he", "it", "his", "her", "with", "you", "had", "for", "she", "not", "but", "is", "on", "at", "be", "they", "have", "him", "said", "which", "would", "this", "from"}},
	"fr": {"French", []string{"le", "la", "les", "des", "et", "un", "une", "il", "elle", "que", "qui", "ne", "pas", "est", "dans", "pour", "sur", "avec", "au", "du", "je", "vous", "mais", "était", "avait", "lui", "son", "sa", "ses", "cette"}},
	"de": {"German", []string{"der", "die", "das", "und", "ist", "nicht", "ein", "eine", "zu", "sie", "er", "es", "ich", "mit", "den", "dem", "sich", "auf", "auch", "war", "wie", "aber", "noch", "hatte", "von", "nach", "ihr", "wenn", "sein", "dass"}},
	"es": {"Spanish", []string{"el", "los", "las", "y", "en", "un", "una", "es", "no", "se", "por", "con", "para", "su", "al", "lo", "como", "más", "pero", "había", "era", "sus", "yo", "del", "muy", "él", "ella", "sin", "sobre", "está"}},
	"it": {"Italian", []string{"il", "di", "che", "è", "un", "una", "non", "per", "con", "si", "del", "della", "le", "ma", "gli", "lo", "ho", "era", "come", "anche", "al", "mi", "ella", "egli", "aveva", "questo", "più", "nel", "alla", "sua"}},
	"pt": {"Portuguese", []string{"o", "os", "as", "não", "um", "uma", "em", "para", "com", "se", "do", "da", "por", "mais", "mas", "ao", "ele", "ela", "foi", "era", "como", "dos", "das", "seu", "sua", "tinha", "muito", "na", "no", "isso"}},
	"nl": {"Dutch", []string{"de", "het", "een", "en", "van", "ik", "te", "dat", "die", "is", "niet", "zijn", "op", "hij", "zij", "met", "voor", "was", "maar", "als", "er", "aan", "ook", "had", "haar", "hem", "wat", "nog", "naar", "werd"}},
	"ru": {"Russian", []string{"и", "в", "не", "на", "что", "он", "я", "с", "как", "она", "это", "его", "но", "а", "к", "по", "так", "все", "её", "ее", "был", "было", "сказал", "то", "у", "же", "ты", "вы", "бы", "когда"}},
	"uk": {"Ukrainian", []string{"і", "в", "не", "на", "що", "він", "я", "з", "як", "вона", "це", "його", "але", "а", "до", "по", "так", "все", "її", "був", "було", "та", "у", "й", "ти", "ви", "б", "коли", "щоб", "їх"}},
	"pl": {"Polish", []string{"i", "w", "nie", "na", "że", "się", "to", "z", "jest", "do", "jak", "ale", "co", "o", "tak", "już", "był", "była", "ja", "on", "ona", "po", "od", "za", "mnie", "jej", "go", "by", "tylko", "jego"}},
}

// languagesOf maps each everyday word to the tags of the languages that
// use it; made once, read only.
var languagesOf = func() map[string][]string {
	m := map[string][]string{}
	for tag, l := range languages {
		for _, w := range l.words {
			m[w] = append(m[w], tag)
		}
	}
	return m
}()

// LanguageName is the English name of a tag GuessLanguage gives, or the
// tag itself.
func LanguageName(tag string) string {
	if l, ok := languages[tag]; ok {
		return l.name
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
	score := map[string]int{}
	words := 0
read:
	for _, text := range texts {
		for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if words == languageSample {
				break read
			}
			words++
			for _, tag := range languagesOf[strings.ToLower(w)] {
				score[tag]++
			}
		}
	}
	tags := slices.Sorted(maps.Keys(languages))
	slices.SortStableFunc(tags, func(a, b string) int { return cmp.Compare(score[b], score[a]) })
	best, second := score[tags[0]], score[tags[1]]
	if words == 0 || best*5 < words || best*3 < second*4 {
		return ""
	}
	return tags[0]
}
