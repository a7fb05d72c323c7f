package codex

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hostile files of issue 14 are generated here, never stored: each
// test builds its input at the size that once hurt.

// allocated is how many bytes f allocates on the heap. Tests compare
// allocations, never time.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// repeatedKeys is an entry whose front matter repeats `x: y` n times.
func repeatedKeys(n int) []byte {
	return []byte("---\ntype: character\nname: U\n" + strings.Repeat("x: y\n", n) + "---\n# One\n")
}

// manyAliases is an entry with n distinct aliases, one per line.
func manyAliases(n int) []byte {
	var b strings.Builder
	b.WriteString("---\ntype: character\nname: U\naliases:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - alias number %d\n", i)
	}
	b.WriteString("---\n# U\n")
	return []byte(b.String())
}

// loadEntry does what opening a book does with one file: parse it,
// catalog it, list its problems, look a name up and index it.
func loadEntry(t testing.TB, src []byte) (*Entry, []Problem) {
	t.Helper()
	e, _ := Parse("codex/characters/u.md", src, TypeCharacter)
	require.NotNil(t, e)
	c := NewCatalog([]*Entry{e}, nil)
	problems := c.Problems()
	c.Lookup("alias number 7", "")
	c.Lookup("alias numbr 7", "")
	ix, err := newMemoryIndex()
	require.NoError(t, err)
	defer ix.close()
	require.NoError(t, ix.apply(context.Background(), []*Entry{e}, nil))
	return e, problems
}

func TestRepeatedKeysProblemsCapped(t *testing.T) {
	src := repeatedKeys(8000)
	e, problems := Parse("codex/characters/u.md", src, "")
	require.NotNil(t, e)
	assert.Equal(t, "U", e.Name)
	require.Len(t, problems, MaxProblemsPerFile+1, "one file lists at most %d problems and a summary", MaxProblemsPerFile)
	for _, p := range problems[:MaxProblemsPerFile] {
		assert.Equal(t, CodeDuplicateKey, p.Code)
	}
	summary := problems[MaxProblemsPerFile]
	assert.Equal(t, CodeTooManyProblems, summary.Code)
	assert.Equal(t, 8000-1-MaxProblemsPerFile, summary.Unlisted)
	assert.Contains(t, summary.Message, "7949 more problems in this file are not listed")
	checkProblems(t, src, problems)

	_, catalogProblems := loadEntry(t, src)
	assert.Len(t, catalogProblems, MaxProblemsPerFile+1)
}

// TestRepeatedKeysLinear: the cost of reading repeated keys grows with
// their number, not its square.
func TestRepeatedKeysLinear(t *testing.T) {
	small, large := repeatedKeys(2000), repeatedKeys(8000)
	a := allocated(func() { loadEntry(t, small) })
	b := allocated(func() { loadEntry(t, large) })
	t.Logf("2,000 keys: %d bytes; 8,000 keys: %d bytes", a, b)
	assert.Less(t, float64(b)/float64(a), 6.0)
}

func TestManyAliasesBounded(t *testing.T) {
	src := manyAliases(40000)
	e, problems := loadEntry(t, src)
	require.Len(t, e.Aliases, MaxListItems, "aliases past the limit are not used")
	require.Len(t, e.AliasRanges, MaxListItems)
	assert.Equal(t, "alias number 0", e.Aliases[0])
	var said bool
	for _, p := range problems {
		said = said || strings.Contains(p.Message, fmt.Sprintf("`aliases` has more than %d items", MaxListItems))
	}
	assert.True(t, said, "the writer is told that aliases were dropped: %v", problems)

	// Four times the aliases, at most about four times the memory.
	a := allocated(func() { loadEntry(t, manyAliases(10000)) })
	b := allocated(func() { loadEntry(t, src) })
	t.Logf("10,000 aliases: %d bytes; 40,000 aliases: %d bytes", a, b)
	assert.Less(t, float64(b)/float64(a), 6.0)
}

// TestManyAliasesUnderTheLimitLinear: below the cap, cataloguing an
// entry's aliases is linear (it used to compare each with all before it).
func TestManyAliasesUnderTheLimitLinear(t *testing.T) {
	e, _ := Parse("codex/characters/u.md", manyAliases(MaxListItems), TypeCharacter)
	require.Len(t, e.Aliases, MaxListItems)
	k := keysOf(e)
	assert.Len(t, k.unique, MaxListItems+1, "the name (also title and stem) and every alias once")
	assert.Len(t, k.words, MaxListItems+3, "u, alias, number and one number per alias")
}

func TestLongWordBounded(t *testing.T) {
	word := strings.Repeat("a", MaxEntryBytes-200)
	tests := []struct {
		name string
		src  string
	}{
		{"alias", "---\ntype: character\nname: U\naliases: [" + word + "]\n---\n# U\n"},
		{"name", "---\ntype: character\nname: " + word + "\n---\n"},
		{"type", "---\ntype: " + word + "\nname: U\n---\n"},
		{"body", "---\ntype: character\nname: U\n---\n# U\n\n" + word + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *Entry
			bytes := allocated(func() { e, _ = loadEntry(t, []byte(tt.src)) })
			t.Logf("%d bytes allocated for a %d-byte file", bytes, len(tt.src))
			// Reading the YAML costs about ten times the file; the index
			// used to cost over a hundred and fifty.
			assert.Less(t, bytes, uint64(30*len(tt.src)))
			for _, a := range e.Aliases {
				assert.LessOrEqual(t, len(a), MaxAliasBytes)
			}
		})
	}
}

func TestLongAliasDropped(t *testing.T) {
	long := strings.Repeat("word ", MaxAliasBytes/5+1)
	src := "---\ntype: character\nname: U\naliases: [Short, " + long + "]\n---\n"
	e, problems := Parse("codex/characters/u.md", []byte(src), "")
	require.NotNil(t, e)
	assert.Equal(t, []string{"Short"}, e.Aliases)
	require.Len(t, e.AliasRanges, 1)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Message, "too long to be a name")
	checkProblems(t, []byte(src), problems)
}

// TestCatalogProblemsCapped: problems found across entries (names two
// entries claim, links to nothing) are capped per file too.
func TestCatalogProblemsCapped(t *testing.T) {
	var shared, links strings.Builder
	for i := range 200 {
		fmt.Fprintf(&shared, "  - shared %d\n", i)
		fmt.Fprintf(&links, "See [[Nowhere %d]].\n", i)
	}
	a, _ := Parse("codex/characters/a.md", []byte("---\nname: A\naliases:\n"+shared.String()+"---\n"+links.String()), TypeCharacter)
	b, _ := Parse("codex/characters/b.md", []byte("---\nname: B\naliases:\n"+shared.String()+"---\n"), TypeCharacter)
	c := NewCatalog([]*Entry{a, b}, nil)
	for _, path := range []string{a.ID, b.ID} {
		ps := c.ProblemsIn(path)
		require.Len(t, ps, MaxProblemsPerFile+1, path)
		last := ps[len(ps)-1]
		assert.Equal(t, CodeTooManyProblems, last.Code)
		assert.Equal(t, len(c.problemsOf(path))-MaxProblemsPerFile, last.Unlisted)
	}
	assert.Equal(t, 400-MaxProblemsPerFile, c.ProblemsIn(a.ID)[MaxProblemsPerFile].Unlisted)
	assert.Equal(t, 200-MaxProblemsPerFile, c.ProblemsIn(b.ID)[MaxProblemsPerFile].Unlisted)
}

// problemsOf counts, for the test above, every problem of path uncapped.
func (c *Catalog) problemsOf(path string) []Problem {
	var out []Problem
	for _, p := range c.Problems() {
		if p.Path == path {
			if p.Code == CodeTooManyProblems {
				out = append(out, make([]Problem, p.Unlisted)...)
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

func TestCapProblems(t *testing.T) {
	many := func(path string, n int) []Problem {
		out := make([]Problem, n)
		for i := range out {
			out[i] = Problem{Path: path, Code: CodeBrokenLink, Severity: SeverityWarning, Message: "m", Range: Range{i, i + 1}}
		}
		return out
	}
	t.Run("under the limit unchanged", func(t *testing.T) {
		ps := many("a.md", MaxProblemsPerFile)
		assert.Equal(t, ps, CapProblems(ps))
	})
	t.Run("over the limit summarized after the file's last", func(t *testing.T) {
		ps := append(append(many("a.md", MaxProblemsPerFile+3), many("b.md", 2)...), many("c.md", MaxProblemsPerFile+1)...)
		ps[MaxProblemsPerFile+1].Severity = SeverityError
		out := CapProblems(ps)
		require.Len(t, out, MaxProblemsPerFile+1+2+MaxProblemsPerFile+1)
		s := out[MaxProblemsPerFile]
		assert.Equal(t, Problem{Path: "a.md", Code: CodeTooManyProblems, Severity: SeverityError,
			Range: Range{MaxProblemsPerFile, MaxProblemsPerFile + 1}, Unlisted: 3, Message: unlistedMessage(3)}, s)
		assert.Equal(t, "b.md", out[MaxProblemsPerFile+1].Path)
		last := out[len(out)-1]
		assert.Equal(t, "c.md", last.Path)
		assert.Equal(t, 1, last.Unlisted)
		assert.Contains(t, last.Message, "1 more problem in this file is not listed")
	})
	t.Run("summaries merge", func(t *testing.T) {
		ps := many("a.md", MaxProblemsPerFile)
		ps = countUnlisted(ps, "a.md", SeverityWarning, Range{})
		ps = countUnlisted(ps, "a.md", SeverityWarning, Range{})
		ps = append(ps, many("a.md", 4)...)
		out := CapProblems(ps)
		require.Len(t, out, MaxProblemsPerFile+1)
		assert.Equal(t, 6, out[MaxProblemsPerFile].Unlisted)
		assert.Equal(t, out, CapProblems(out), "capping twice changes nothing")
	})
}

func TestClipLongWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tiny word fits", "tiny word fits"},
		{"", ""},
		{"abcdefgh ij", "abcd ij"},
		{"x abcdéfgh\n\nyy", "x abcd\n\nyy"},
		{"abcé", "abc"}, // never half a character
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, clipLongWords(tt.in, 4), tt.in)
	}
}

// TestTopLevelValueRepeatedKeys: a quire.yaml of thousands of repeated
// keys is read at linear cost (decoding it into a struct allocated
// gigabytes), and a setting written twice is an error naming both lines.
func TestTopLevelValueRepeatedKeys(t *testing.T) {
	yamlOf := func(n int) []byte { return []byte("codex: codex/**/*.md\n" + strings.Repeat("x: y\n", n)) }
	var globs []string
	var err error
	small := allocated(func() { _, err = GlobsFromText(yamlOf(1000)) })
	require.NoError(t, err)
	large := allocated(func() { globs, err = GlobsFromText(yamlOf(4000)) })
	require.NoError(t, err)
	assert.Equal(t, []string{"codex/**/*.md"}, globs)
	t.Logf("1,000 keys: %d bytes; 4,000 keys: %d bytes", small, large)
	assert.Less(t, float64(large)/float64(small), 6.0)

	_, err = GlobsFromText([]byte("codex: a/*.md\nname: x\ncodex: b/*.md\n"))
	require.Error(t, err)
	assert.Equal(t, "quire.yaml: line 3: codex is set twice (first on line 1); keep one", err.Error())
}

func TestManyCustomFieldsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: character\nname: U\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "field%d: value\n", i)
	}
	b.WriteString("---\n")
	e, problems := Parse("codex/characters/u.md", []byte(b.String()), "")
	require.NotNil(t, e)
	assert.Len(t, e.Custom, MaxListItems)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Message, `more than 1000 custom fields; the rest, from "field1000" on, are ignored`)
	checkProblems(t, []byte(b.String()), problems)
}

// TestManyEntriesClaimOneName: a name a hundred entries claim costs each
// of them one short problem, not a list of the ninety-nine others.
func TestManyEntriesClaimOneName(t *testing.T) {
	var entries []*Entry
	for i := range 100 {
		e, _ := Parse(fmt.Sprintf("codex/characters/c%03d.md", i), []byte(fmt.Sprintf("---\nname: C%d\naliases: [the Lantern]\n---\n", i)), TypeCharacter)
		entries = append(entries, e)
	}
	c := NewCatalog(entries, nil)
	ps := c.ProblemsIn("codex/characters/c000.md")
	require.Len(t, ps, 1)
	assert.Equal(t, `alias "the Lantern" is also the alias of C1 (codex/characters/c001.md), the alias of C10 (codex/characters/c010.md), the alias of C11 (codex/characters/c011.md), and of 96 more entries; mentions of it are ambiguous`, ps[0].Message)
	assert.Len(t, c.Problems(), 100)
}

// A query longer than any name is no name: Lookup answers nothing at
// once, and Search refuses it by its length without repeating it.
func TestOverlongQueries(t *testing.T) {
	cat := NewCatalog([]*Entry{{ID: "codex/characters/mara.md", Name: "Mara Vell", Type: TypeCharacter}}, nil)
	assert.Empty(t, cat.Lookup(strings.Repeat("Mara Vell ", 1000), ""))
	assert.NotEmpty(t, cat.Lookup("Mara Vel", ""), "a short query still finds a name a typo away")
	err := checkQuery(strings.Repeat("é", MaxQueryChars+1))
	var long *QueryTooLongError
	require.ErrorAs(t, err, &long)
	assert.Equal(t, MaxQueryChars+1, long.Chars)
	assert.NotContains(t, err.Error(), "é")
	require.NoError(t, checkQuery(strings.Repeat("é", MaxQueryChars)))
	require.ErrorIs(t, checkQuery("  "), ErrEmptyQuery)
}
