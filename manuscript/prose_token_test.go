package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutClitic(t *testing.T) {
	tests := []struct{ word, want string }{
		{"Mara's", "Mara"},
		{"Mara’s", "Mara"},
		{"Churchill'd", "Churchill"},
		{"Frank’ll", "Frank"},
		{"Jory've", "Jory"},
		{"Ilse're", "Ilse"},
		{"Séverine’d", "Séverine"},
		{"MARA'S", "MARA"},
		{"Mara", "Mara"},
		{"O'Brien", "O'Brien"},     // an apostrophe inside a name
		{"O'Brien's", "O'Brien"},   // and a clitic after it
		{"Mara'tis", "Mara'tis"},   // no clitic
		{"'s", "'s"},               // nothing before it
		{"Mara'", "Mara'"},         // an apostrophe that ends the word
		{"Ma\xffra's", "Ma\xffra"}, // bytes that are no UTF-8
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, WithoutClitic(tt.word), tt.word)
	}
}
