package count

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {121804, "121,804"},
		{1234567, "1,234,567"}, {-1200, "-1,200"}, {-12, "-12"},
	} {
		assert.Equal(t, tc.want, Number(tc.n), "%d", tc.n)
	}
}

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{1, "chapter", "1 chapter"},
		{61, "chapter", "61 chapters"},
		{0, "chapter", "0 chapters"},
		{121804, "word", "121,804 words"},
		{1, "writing day", "1 writing day"},
		{2, "writing day", "2 writing days"},
		{2, "match", "2 matches"},
		{3, "entry", "3 entries"},
		{3, "day", "3 days"},
		{2, "alias", "2 aliases"},
		{-1, "word", "-1 word"},
	} {
		assert.Equal(t, tc.want, Of(tc.n, tc.noun), "%d %s", tc.n, tc.noun)
	}
	assert.Equal(t, "2 people", Irregular(2, "person", "people"))
	assert.Equal(t, "1 person", Irregular(1, "person", "people"))
	assert.Equal(t, "days", Noun(5, "day"))
}
