package codex

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestSlug(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Mara Vell", "mara-vell"},
		{"Séverine Aubrac", "severine-aubrac"},
		{"  the Harbor's Witch!! ", "the-harbor-s-witch"},
		{"Łódź", "lodz"},
		{"Анна Каренина", "анна-каренина"},
		{"Андрей Болконский", "андрей-болконский"},
		{"Ὀδυσσεύς", "ὀδυσσεύς"},
		{"李白", "李白"},
		{"Room 101", "room-101"},
		{"?!", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Slug(tt.name, 60))
		})
	}
	long := Slug("Анна Аркадьевна Каренина урождённая Облонская из Петербурга и Москвы", 20)
	assert.LessOrEqual(t, utf8.RuneCountInString(long), 20)
	assert.NotEqual(t, '-', []rune(long)[len([]rune(long))-1], "never ends on a dash")
}
