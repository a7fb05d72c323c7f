package manuscript

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclensions: each pattern of a Russian name's endings, by case
// (genitive, dative, accusative, instrumental, prepositional).
func TestDeclensions(t *testing.T) {
	tests := []struct {
		word string
		want [russianCases][]string
	}{
		{"Вронский", [russianCases][]string{{"Вронского"}, {"Вронскому"}, {"Вронского"}, {"Вронским"}, {"Вронском"}}},
		{"Дмитрий", [russianCases][]string{{"Дмитрия", "Дмитрого"}, {"Дмитрию", "Дмитрому"}, {"Дмитрия", "Дмитрого"}, {"Дмитрием", "Дмитрим"}, {"Дмитрии", "Дмитром"}}},
		{"Толстой", [russianCases][]string{{"Толстого"}, {"Толстому"}, {"Толстого"}, {"Толстым"}, {"Толстом"}}},
		{"Трубецкой", [russianCases][]string{{"Трубецкого"}, {"Трубецкому"}, {"Трубецкого"}, {"Трубецким"}, {"Трубецком"}}},
		{"Щербацкая", [russianCases][]string{{"Щербацкой"}, {"Щербацкой"}, {"Щербацкую"}, {"Щербацкой", "Щербацкою"}, {"Щербацкой"}}},
		{"Мария", [russianCases][]string{{"Марии"}, {"Марии"}, {"Марию"}, {"Марией", "Мариею"}, {"Марии"}}},
		{"Дарья", [russianCases][]string{{"Дарьи"}, {"Дарье"}, {"Дарью"}, {"Дарьей", "Дарьею"}, {"Дарье"}}},
		{"Анна", [russianCases][]string{{"Анны"}, {"Анне"}, {"Анну"}, {"Анной", "Анною"}, {"Анне"}}},
		{"Ольга", [russianCases][]string{{"Ольги"}, {"Ольге"}, {"Ольгу"}, {"Ольгой", "Ольгою"}, {"Ольге"}}},
		{"Каренина", [russianCases][]string{{"Каренины", "Карениной"}, {"Каренине", "Карениной"}, {"Каренину"}, {"Карениной", "Карениною"}, {"Каренине", "Карениной"}}},
		{"Матвей", [russianCases][]string{{"Матвея"}, {"Матвею"}, {"Матвея"}, {"Матвеем"}, {"Матвее"}}},
		{"Игорь", [russianCases][]string{{"Игоря", "Игори"}, {"Игорю", "Игори"}, {"Игоря", "Игорь"}, {"Игорем", "Игорью"}, {"Игоре", "Игори"}}},
		{"Левин", [russianCases][]string{{"Левина"}, {"Левину"}, {"Левина"}, {"Левином", "Левиным"}, {"Левине"}}},
		{"Аркадьич", [russianCases][]string{{"Аркадьича"}, {"Аркадьичу"}, {"Аркадьича"}, {"Аркадьичем"}, {"Аркадьиче"}}},
		{"Иван", [russianCases][]string{{"Ивана"}, {"Ивану"}, {"Ивана"}, {"Иваном"}, {"Иване"}}},
		{"ВРОНСКИЙ", [russianCases][]string{{"ВРОНСКОГО"}, {"ВРОНСКОМУ"}, {"ВРОНСКОГО"}, {"ВРОНСКИМ"}, {"ВРОНСКОМ"}}},
		// Names that do not decline, and names that are not Russian.
		{"Кити", [russianCases][]string{}},
		{"Шарло", [russianCases][]string{}},
		{"Я", [russianCases][]string{}},
		{"Darcy", [russianCases][]string{}},
		{"Ivanov", [russianCases][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := declensions(tt.word)
			for c := range russianCases {
				assert.Equal(t, tt.want[c], got[c], "case %d", c)
			}
		})
	}
}

// TestDeclinedForms: a phrase is declined word by word into one case at
// a time, and a phrase with no Russian word makes no forms.
func TestDeclinedForms(t *testing.T) {
	assert.Equal(t, []string{"Степана Аркадьича", "Степану Аркадьичу", "Степаном Аркадьичем", "Степане Аркадьиче"}, declinedForms("Степан Аркадьич"),
		"the accusative is the genitive, made once")
	assert.Equal(t, []string{"графа Вронского", "графу Вронскому", "графом Вронским", "графе Вронском"}, declinedForms("граф Вронский"))
	assert.Empty(t, declinedForms("Mr. Darcy"))
	assert.Empty(t, declinedForms("Кити"))
	// Three words of two patterns each make at most maxDeclinedPerCase
	// forms in a case.
	forms := declinedForms("Горький Горький Горький Горький")
	assert.LessOrEqual(t, len(forms), russianCases*maxDeclinedPerCase)
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
			assert.ElementsMatch(t, tt.want, got)
			for _, n := range got {
				assert.Contains(t, declinedForms(n), tt.word, "%s is a case of %s", tt.word, n)
			}
		})
	}
}
