package codex

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithinOneEdit(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"mara", "mara", true},
		{"", "", true},
		{"", "a", true},
		{"", "ab", false},
		{"mara", "mura", true},  // substitution
		{"mara", "marra", true}, // insertion
		{"mara", "mar", true},   // deletion at the end
		{"mara", "ara", true},   // deletion at the start
		{"mara", "mraa", true},  // transposition
		{"mara", "amra", true},  // transposition at the start
		{"mara", "maar", true},  // transposition at the end
		{"mara", "rama", false}, // two substitutions
		{"mara", "mxrx", false},
		{"mara", "ma", false},
		{"abc", "cab", false},
		{"séverine", "severine", true}, // one character, two bytes
		{"séverine", "sévérine", true},
		{"séverine", "sevérine", false},
		{"ølby", "løby", true},
		{"ølby", "olby", true},
		{"straße", "strasse", false},
		{"マラ", "ラマ", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, withinOneEdit(tt.a, tt.b), "%q, %q", tt.a, tt.b)
		assert.Equal(t, tt.want, withinOneEdit(tt.b, tt.a), "%q, %q (swapped)", tt.b, tt.a)
	}
}

func TestEditDistanceAtMost(t *testing.T) {
	tests := []struct {
		a, b string
		k    int
		want bool
	}{
		{"character", "character", 0, true},
		{"charcter", "character", 1, true},
		{"charcter", "character", 0, false},
		{"charactre", "character", 1, true}, // transposition counts once
		{"chracter", "character", 1, true},
		{"locatons", "locations", 1, true},
		{"spell", "style", 2, false},
		{"spell", "style", 3, true},
		{"", "item", 4, true},
		{"", "item", 3, false},
		{"ca", "abc", 2, false}, // optimal string alignment: 3, not 2
		{"ca", "abc", 3, true},
		{"évent", "event", 1, true},
		{"organisation", "organization", 1, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, editDistanceAtMost(tt.a, tt.b, tt.k), "%q, %q, %d", tt.a, tt.b, tt.k)
		assert.Equal(t, tt.want, editDistanceAtMost(tt.b, tt.a, tt.k), "%q, %q, %d (swapped)", tt.b, tt.a, tt.k)
	}
}

// TestWithinOneEditAgrees checks the linear one-edit test against the
// general distance on random short words over a small alphabet, where
// repeats and transpositions are common.
func TestWithinOneEditAgrees(t *testing.T) {
	letters := []rune("abé")
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		r := make([]rune, rng.IntN(6))
		for i := range r {
			r[i] = letters[rng.IntN(len(letters))]
		}
		return string(r)
	}
	for range 20000 {
		a, b := word(), word()
		if !assert.Equal(t, editDistanceAtMost(a, b, 1), withinOneEdit(a, b), "%q, %q", a, b) {
			return
		}
	}
}

func TestSuggestType(t *testing.T) {
	tests := []struct {
		in   string
		want Type
		ok   bool
	}{
		{"charcter", TypeCharacter, true},
		{"charaters", TypeCharacter, true},
		{"locaton", TypeLocation, true},
		{"evnt", TypeEvent, true},
		{"stlye", TypeStyle, true},
		{"spell", "", false},
		{"species", "", false},
	}
	for _, tt := range tests {
		got, ok := suggestType(tt.in)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestParseTypeAndFolders(t *testing.T) {
	tests := []struct {
		in   string
		want Type
	}{
		{"Characters", TypeCharacter},
		{" places ", TypeLocation},
		{"ORGANISATIONS", TypeOrganization},
		{"styles", TypeStyle},
		{"Species", "species"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ParseType(tt.in), tt.in)
	}
	for _, typ := range Types {
		assert.True(t, typ.Builtin())
		back, ok := TypeFromFolder(typ.Plural())
		assert.True(t, ok, typ.Plural())
		assert.Equal(t, typ, back, "a type's folder name maps back to it")
	}
	_, ok := TypeFromFolder("manuscript")
	assert.False(t, ok)
	assert.False(t, Type("species").Builtin())
	assert.Equal(t, "style", TypeStyle.Plural())
	assert.Equal(t, "", Type("").Plural())
}

// EditDistance counts edits up to its limit and says limit+1 beyond.
func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"mara", "mara", 2, 0},
		{"mara", "marra", 2, 1},
		{"mara", "amra", 2, 1},
		{"séverine", "sevrine", 2, 2},
		{"severine", "sevrine", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3},
		{"abc", "xyz", 1, 2},
		{"a", "abcd", 1, 2},
		{"", "ab", 2, 2},
	} {
		assert.Equal(t, tt.want, EditDistance(tt.a, tt.b, tt.limit), "%q, %q, %d", tt.a, tt.b, tt.limit)
		assert.Equal(t, tt.want, EditDistance(tt.b, tt.a, tt.limit), "%q, %q, %d (swapped)", tt.b, tt.a, tt.limit)
	}
}
