package manuscript

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclensions: each pattern of a Russian name's endings, by case
// (genitive, dative, accusative, instrumental, prepositional).
func TestDeclensions(t *testing.T) {
	tests := []struct {
		word string
		want [nameCases][]string
	}{
		{"Вронский", [nameCases][]string{{"Вронского"}, {"Вронскому"}, {"Вронского"}, {"Вронским"}, {"Вронском"}}},
		{"Дмитрий", [nameCases][]string{{"Дмитрия", "Дмитрого"}, {"Дмитрию", "Дмитрому"}, {"Дмитрия", "Дмитрого"}, {"Дмитрием", "Дмитрим"}, {"Дмитрии", "Дмитром"}}},
		{"Толстой", [nameCases][]string{{"Толстого"}, {"Толстому"}, {"Толстого"}, {"Толстым"}, {"Толстом"}}},
		{"Трубецкой", [nameCases][]string{{"Трубецкого"}, {"Трубецкому"}, {"Трубецкого"}, {"Трубецким"}, {"Трубецком"}}},
		{"Щербацкая", [nameCases][]string{{"Щербацкой"}, {"Щербацкой"}, {"Щербацкую"}, {"Щербацкой", "Щербацкою"}, {"Щербацкой"}}},
		{"Мария", [nameCases][]string{{"Марии"}, {"Марии"}, {"Марию"}, {"Марией", "Мариею"}, {"Марии"}}},
		{"Дарья", [nameCases][]string{{"Дарьи"}, {"Дарье"}, {"Дарью"}, {"Дарьей", "Дарьею"}, {"Дарье"}}},
		{"Анна", [nameCases][]string{{"Анны"}, {"Анне"}, {"Анну"}, {"Анной", "Анною"}, {"Анне"}}},
		{"Ольга", [nameCases][]string{{"Ольги"}, {"Ольге"}, {"Ольгу"}, {"Ольгой", "Ольгою"}, {"Ольге"}}},
		{"Каренина", [nameCases][]string{{"Каренины", "Карениной"}, {"Каренине", "Карениной"}, {"Каренину"}, {"Карениной", "Карениною"}, {"Каренине", "Карениной"}}},
		{"Матвей", [nameCases][]string{{"Матвея"}, {"Матвею"}, {"Матвея"}, {"Матвеем"}, {"Матвее"}}},
		{"Игорь", [nameCases][]string{{"Игоря", "Игори"}, {"Игорю", "Игори"}, {"Игоря", "Игорь"}, {"Игорем", "Игорью"}, {"Игоре", "Игори"}}},
		{"Левин", [nameCases][]string{{"Левина"}, {"Левину"}, {"Левина"}, {"Левином", "Левиным"}, {"Левине"}}},
		{"Аркадьич", [nameCases][]string{{"Аркадьича"}, {"Аркадьичу"}, {"Аркадьича"}, {"Аркадьичем"}, {"Аркадьиче"}}},
		{"Иван", [nameCases][]string{{"Ивана"}, {"Ивану"}, {"Ивана"}, {"Иваном"}, {"Иване"}}},
		{"ВРОНСКИЙ", [nameCases][]string{{"ВРОНСКОГО"}, {"ВРОНСКОМУ"}, {"ВРОНСКОГО"}, {"ВРОНСКИМ"}, {"ВРОНСКОМ"}}},
		// Names that do not decline, and names that are not Russian.
		{"Кити", [nameCases][]string{}},
		{"Я", [nameCases][]string{}},
		{"Darcy", [nameCases][]string{}},
		{"Ivanov", [nameCases][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := declensions(tt.word)
			for c := range nameCases {
				if slices.IndexFunc(tt.want[:], func(f []string) bool { return len(f) > 0 }) < 0 {
					assert.Empty(t, got[c], "case %d", c)
				}
				assert.Subset(t, got[c], tt.want[c], "case %d", c)
			}
		})
	}
}

// TestDeclensionsUkrainian: Ukrainian's endings, and its vocative, from
// Kvitka's "Сердешна Оксана" (ELTeC-ukr) and common names.
func TestDeclensionsUkrainian(t *testing.T) {
	tests := []struct {
		word string
		want [nameCases][]string
	}{
		{"Оксана", [nameCases][]string{{"Оксани"}, {"Оксані"}, {"Оксану"}, {"Оксаною"}, {"Оксані"}, {"Оксано"}}},
		{"Наталка", [nameCases][]string{{"Наталки"}, {"Наталці"}, {"Наталку"}, {"Наталкою"}, {"Наталці"}, {"Наталко"}}},
		{"Петро", [nameCases][]string{{"Петра"}, {"Петрові", "Петру"}, {"Петра"}, {"Петром"}, {"Петрові", "Петрі"}, {"Петре"}}},
		{"Шевченко", [nameCases][]string{{"Шевченка"}, {"Шевченкові"}, {"Шевченка"}, {"Шевченком"}, {"Шевченкові"}, {"Шевченку"}}},
		{"Іван", [nameCases][]string{{"Івана"}, {"Іванові", "Івану"}, {"Івана"}, {"Іваном"}, {"Іванові", "Івані"}, {"Іване"}}},
		{"Андрій", [nameCases][]string{{"Андрія"}, {"Андрієві", "Андрію"}, {"Андрія"}, {"Андрієм"}, {"Андрієві", "Андрії"}, {"Андрію"}}},
		{"Василь", [nameCases][]string{{"Василя"}, {"Василеві", "Василю"}, {"Василя"}, {"Василем"}, {"Василеві"}, {"Василю"}}},
		{"Марія", [nameCases][]string{{"Марії"}, {"Марії"}, {"Марію"}, {"Марією"}, {"Марії"}, {"Маріє"}}},
		{"Грушевський", [nameCases][]string{{"Грушевського"}, {"Грушевському"}, {"Грушевського"}, {"Грушевським"}, {"Грушевськім"}}},
		{"Косинська", [nameCases][]string{{"Косинської"}, {"Косинській"}, {"Косинську"}, {"Косинською"}, {"Косинській"}}},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := declensions(tt.word)
			for c := range nameCases {
				assert.Subset(t, got[c], tt.want[c], "case %d", c)
			}
		})
	}
}

// TestDeclinedForms: a phrase is declined word by word into one case at
// a time, and a phrase with no Russian word makes no forms.
func TestDeclinedForms(t *testing.T) {
	stepan := declinedForms("Степан Аркадьич")
	assert.Subset(t, stepan, []string{"Степана Аркадьича", "Степану Аркадьичу", "Степаном Аркадьичем", "Степане Аркадьиче"})
	assert.Len(t, stepan, len(slices.Compact(slices.Sorted(slices.Values(stepan)))), "each form once: the accusative is the genitive")
	assert.NotContains(t, stepan, "Степана Аркадьичу", "each word in the same case")
	assert.Subset(t, declinedForms("граф Вронский"), []string{"графа Вронского", "графу Вронскому", "графом Вронским", "графе Вронском"})
	assert.Empty(t, declinedForms("Mr. Darcy"))
	assert.Empty(t, declinedForms("Кити"))
	// Three words of two patterns each make at most maxDeclinedPerCase
	// forms in a case.
	forms := declinedForms("Горький Горький Горький Горький")
	assert.LessOrEqual(t, len(forms), nameCases*maxDeclinedPerCase)
}

// TestScanFindsRussianNamesDeclined: a name written in Cyrillic is found
// in every case, marked declined (and so an alias, which rename leaves);
// a form that is one entry's name as written and another's declined is
// the first's alone.
func TestScanFindsRussianNamesDeclined(t *testing.T) {
	cat := catalogOf(t,
		"vronsky", "name: Вронский\naliases: [Алексей Вронский]",
		"anna", "name: Анна Аркадьевна\naliases: [Анна, Каренина]",
		"karenin", "name: Алексей Александрович\naliases: [Каренин]",
		"darcy", "name: Mr. Darcy\naliases: [Darcy]",
	)
	m := NewMatcher(cat)
	type found struct {
		entry, text     string
		alias, declined bool
		others          []string
	}
	scan := func(text string) []found {
		out := []found{}
		for _, mn := range m.Scan(text) {
			out = append(out, found{mn.Entry, text[mn.Range.Start:mn.Range.End], mn.Alias, mn.Declined, mn.Others})
		}
		return out
	}
	tests := []struct {
		name, text string
		want       []found
	}{
		{"the name as written", "Вронский вошёл.", []found{{entry: "vronsky", text: "Вронский"}}},
		{"the genitive", "Она ждала Вронского.", []found{{entry: "vronsky", text: "Вронского", alias: true, declined: true}}},
		{"the instrumental of a two-word alias", "Она говорила с Алексеем Вронским.", []found{{entry: "vronsky", text: "Алексеем Вронским", alias: true, declined: true}}},
		{"each word in one case", "Он поклонился Анне Аркадьевне.", []found{{entry: "anna", text: "Анне Аркадьевне", alias: true, declined: true}}},
		{"a form that is one entry's alias and another's genitive", "Каренина приехала.", []found{{entry: "anna", text: "Каренина", alias: true}}},
		{"a declined form of two entries is ambiguous", "Он смотрел на Каренину.", []found{{entry: "anna", text: "Каренину", alias: true, declined: true, others: []string{"karenin"}}}},
		{"case as the codex writes it", "вронского нет.", []found{}},
		{"English names are not declined", "Darcys and Darcy.", []found{{entry: "darcy", text: "Darcy", alias: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, scan(tt.text))
		})
	}
	require.True(t, m.IsNameWord("вронского"), "a declined form is a word of a known name, never untracked")
}

// TestChapterCacheKeepsDeclined: a warm start decodes a declined
// mention as the scan found it.
func TestChapterCacheKeepsDeclined(t *testing.T) {
	root := newProject(t, projectFiles{"manuscript/01.md": "# Один\n\nВронский вошёл. Она ждала Вронского.\n"})
	file := filepath.Join(t.TempDir(), "chapters.bin")
	cat := catalogOf(t, "vronsky", "name: Вронский")
	openCached(t, root, file, cat)
	warm := openCached(t, root, file, cat)
	cold := coldView(t, root, cat)
	assert.Equal(t, cold, viewOf(warm.Snapshot()))
	got := viewOf(warm.Snapshot()).Scanned["manuscript/01.md"]
	require.Len(t, got, 2)
	assert.False(t, got[0].Declined)
	assert.True(t, got[1].Declined && got[1].Alias, "Вронского is the name declined")
}

// TestNominativesOf: the names of which a word is another case.
func TestNominativesOf(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"Москву", []string{"Москв", "Москва"}},
		{"Вронского", []string{"Вронский", "Вронской", "Вронскый"}},
		{"Петербурге", []string{"Петербург", "Петербурга", "Петербургя", "Петербургй", "Петербургь"}},
		{"Darcy", nil},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := nominativesOf(tt.word)
			if tt.want == nil {
				assert.Empty(t, got)
			}
			assert.Subset(t, got, tt.want)
			for _, n := range got {
				assert.Contains(t, declinedForms(n), tt.word, "%s is a case of %s", tt.word, n)
			}
		})
	}
}
