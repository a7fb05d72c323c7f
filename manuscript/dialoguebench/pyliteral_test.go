package dialoguebench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{"[[6317, 6418]]", []any{[]any{6317, 6418}}},
		{"[[1, 2], [3, 4]]", []any{[]any{1, 2}, []any{3, 4}}},
		{"['a', 'b']", []any{"a", "b"}},
		{"{'Emma', 'Miss Woodhouse'}", []any{"Emma", "Miss Woodhouse"}},
		{`{"Mrs Beaver'S Son", 'John'}`, []any{"Mrs Beaver'S Son", "John"}},
		{`['It\'s "so"', "a \"b\" c"]`, []any{`It's "so"`, `a "b" c`}},
		{`['one\ntwo', 'tab\there', 'back\\slash']`, []any{"one\ntwo", "tab\there", `back\slash`}},
		{`['caf\xe9', '\u2019']`, []any{"café", "’"}},
		{`['odd \d escape']`, []any{`odd \d escape`}},
		{"[[[6317, 6333], [6343, 6346]]]", []any{[]any{[]any{6317, 6333}, []any{6343, 6346}}}},
		{"[]", []any{}},
		{"set()", []any{}},
		{"  [ 1 ,2, ]  ", []any{1, 2}},
		{"(1, 'a')", []any{1, "a"}},
		{"[None, True, False, -3, 2.5]", []any{nil, true, false, -3, 2.5}},
		{"[[['Mrs. Weston'], ['Mrs. Weston']]]", []any{[]any{[]any{"Mrs. Weston"}, []any{"Mrs. Weston"}}}},
	} {
		got, err := parsePy(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestParsePyRejects(t *testing.T) {
	for _, in := range []string{
		"", "[", "[1, 2", "['a'", "['a' 'b']", "[1] 2", "'unclosed", "[foo]", `['\x4']`,
		"'a\nb'", "{'a': 1}",
	} {
		_, err := parsePy(in)
		assert.Error(t, err, "%q", in)
	}
	deep := ""
	for range 40 {
		deep += "["
	}
	_, err := parsePy(deep)
	assert.Error(t, err, "too deep")
}

func TestPySpansAndStrings(t *testing.T) {
	spans, err := pySpans("[[6317, 6418], [6500, 6510]]")
	require.NoError(t, err)
	assert.Equal(t, [][2]int{{6317, 6418}, {6500, 6510}}, spans)
	for _, bad := range []string{"[6317, 6418]", "[[1, 2, 3]]", "[[5, 4]]", "[['a', 'b']]", "{'a'}"} {
		_, err := pySpans(bad)
		assert.Error(t, err, bad)
	}
	names, err := pyStrings("{'Emma', 'Miss Woodhouse', \"Emma's friend\"}")
	require.NoError(t, err)
	assert.Equal(t, []string{"Emma", "Miss Woodhouse", "Emma's friend"}, names)
	_, err = pyStrings("[1, 'a']")
	assert.Error(t, err)
	_, err = pyStrings("'a'")
	assert.Error(t, err)
}
