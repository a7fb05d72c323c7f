package manuscript

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCountWords(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"blank", " \t\n\r\n ", 0},
		{"one", "harbor", 1},
		{"sentence", "The sea rose over the wall.", 6},
		{"apostrophe inside a word", "Don't stop, Mara's boat.", 4},
		{"curly apostrophe", "O’Brien didn’t come", 3},
		{"leading apostrophe", "’tis the season", 3},
		{"quoted with apostrophes", "rock 'n' roll", 3},
		{"hyphenated word", "a well-known fact", 3},
		{"double hyphen splits", "this--that", 2},
		{"dash between words", "wait — no", 2},
		{"trailing hyphen", "end-", 1},
		{"markdown markup is not words", "# Heading\n\n**bold** and _it_ `code`\n\n- item\n> quote", 7},
		{"punctuation alone", "... !!! ?? — –", 0},
		{"digits are words", "In 1984 they left", 4},
		{"accents", "café naïve Séverine", 3},
		{"combining mark stays in the word", "cafe\u0301 au lait", 3},
		{"CJK run", "日本語の文章", 1},
		{"emoji between words", "party 🎉 time", 2},
		{"non-breaking space separates", "hello\u00a0world", 2},
		{"CRLF", "one\r\ntwo\r\nthree", 3},
		{"invalid UTF-8 separates", "ab\xffcd", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, CountWords(tt.text))
		})
	}
}

func TestCountWordsLong(t *testing.T) {
	assert.Equal(t, 10000, CountWords(strings.Repeat("word ", 10000)))
	assert.Equal(t, 5000, CountWords(strings.Repeat("it's ", 5000)))
}
