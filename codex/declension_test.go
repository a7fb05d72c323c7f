package codex

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
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
	stepan := DeclinedForms("Степан Аркадьич")
	assert.Subset(t, stepan, []string{"Степана Аркадьича", "Степану Аркадьичу", "Степаном Аркадьичем", "Степане Аркадьиче"})
	assert.Len(t, stepan, len(slices.Compact(slices.Sorted(slices.Values(stepan)))), "each form once: the accusative is the genitive")
	assert.NotContains(t, stepan, "Степана Аркадьичу", "each word in the same case")
	assert.Subset(t, DeclinedForms("граф Вронский"), []string{"графа Вронского", "графу Вронскому", "графом Вронским", "графе Вронском"})
	assert.Empty(t, DeclinedForms("Mr. Darcy"))
	assert.Empty(t, DeclinedForms("Кити"))
	// Three words of two patterns each make at most maxDeclinedPerCase
	// forms in a case.
	forms := DeclinedForms("Горький Горький Горький Горький")
	assert.LessOrEqual(t, len(forms), nameCases*maxDeclinedPerCase)
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
			got := NominativesOf(tt.word)
			if tt.want == nil {
				assert.Empty(t, got)
			}
			assert.Subset(t, got, tt.want)
			for _, n := range got {
				assert.Contains(t, DeclinedForms(n), tt.word, "%s is a case of %s", tt.word, n)
			}
		})
	}
}
