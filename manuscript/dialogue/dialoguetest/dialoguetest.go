// Package dialoguetest is the novel the dialogue benchmarks of several
// packages read (manuscript/dialogue's attribution, the server's
// semantic tokens): Pride and Prejudice as the name benchmark keeps it,
// with a codex of its sixteen principal people.
package dialoguetest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// PrideAndPrejudice is the whole novel (121,561 words), from
// manuscript/namebench/testdata.
func PrideAndPrejudice(tb testing.TB) string {
	tb.Helper()
	_, here, _, ok := runtime.Caller(0)
	require.True(tb, ok, "where dialoguetest is")
	f, err := os.Open(filepath.Join(filepath.Dir(here), "..", "..", "namebench", "testdata", "pride-and-prejudice.txt.gz"))
	require.NoError(tb, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(tb, err)
	b, err := io.ReadAll(zr)
	require.NoError(tb, err)
	return string(b)
}

// castFrontMatter is each principal person's entry, a writer's: names,
// aliases and gender.
var castFrontMatter = []string{
	"name: Elizabeth Bennet\naliases: [Elizabeth, Lizzy, Eliza, Miss Elizabeth Bennet]\ngender: female",
	"name: Jane Bennet\naliases: [Jane, Miss Bennet]\ngender: female",
	"name: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\ngender: male",
	"name: Charles Bingley\naliases: [Bingley, Mr. Bingley]\ngender: male",
	"name: Mr. Bennet\ngender: male",
	"name: Mrs. Bennet\ngender: female",
	"name: Lydia Bennet\naliases: [Lydia]\ngender: female",
	"name: Kitty Bennet\naliases: [Kitty, Catherine]\ngender: female",
	"name: Mary Bennet\naliases: [Mary]\ngender: female",
	"name: George Wickham\naliases: [Wickham, Mr. Wickham]\ngender: male",
	"name: William Collins\naliases: [Collins, Mr. Collins]\ngender: male",
	"name: Charlotte Lucas\naliases: [Charlotte]\ngender: female",
	"name: Lady Catherine de Bourgh\naliases: [Lady Catherine]\ngender: female",
	"name: Caroline Bingley\naliases: [Miss Bingley]\ngender: female",
	"name: Mrs. Gardiner\ngender: female",
	"name: Mr. Gardiner\ngender: male",
}

// CastFiles are the cast's entry files by their paths in a book
// (codex/characters/ca.md, …).
func CastFiles() map[string]string {
	out := map[string]string{}
	for i, fm := range castFrontMatter {
		out["codex/characters/c"+string(rune('a'+i))+".md"] = "---\n" + fm + "\n---\n"
	}
	return out
}

// Cast is the cast as parsed entries, in path order.
func Cast(tb testing.TB) []*codex.Entry {
	tb.Helper()
	files := CastFiles()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var out []*codex.Entry
	for _, p := range paths {
		e, _ := codex.Parse(p, []byte(files[p]), codex.TypeCharacter)
		require.NotNil(tb, e, p)
		out = append(out, e)
	}
	return out
}

// Stretch is about n words of text from a third of the way in, where the
// novel's people talk most, cut at paragraphs.
func Stretch(text string, n int) string {
	start := len(text)/3 + strings.Index(text[len(text)/3:], "\n\n") + 2
	words := 0
	for i := start; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			words++
		}
		if words >= n && strings.HasPrefix(text[i:], "\n\n") {
			return text[start:i]
		}
	}
	return text[start:]
}
