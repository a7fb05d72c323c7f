package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longBook is a book of 61 chapters, as long as Pride and Prejudice:
// chapter n mentions Darcy n%4 times (by his alias), chapter 40 is
// called "Darcy", and Elizabeth appears in every chapter.
func longBook(t *testing.T) (book, cache string, darcy map[int]int) {
	t.Helper()
	files := map[string]string{
		"codex/characters/darcy.md":     "---\ntype: character\nname: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\n---\n# Fitzwilliam Darcy\n",
		"codex/characters/elizabeth.md": "---\ntype: character\nname: Elizabeth Bennet\naliases: [Elizabeth]\n---\n# Elizabeth Bennet\n",
		"codex/characters/jane.md":      "---\ntype: character\nname: Jane Bennet\n---\n# Jane Bennet\n",
	}
	darcy = map[int]int{}
	for n := 1; n <= 61; n++ {
		title := fmt.Sprintf("Chapter %d", n)
		if n == 40 {
			title = "Darcy"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\nElizabeth walked on.\n", title)
		for range n % 4 {
			b.WriteString("\nShe thought of Darcy again.\n")
		}
		darcy[n] = n % 4
		if n == 40 {
			darcy[n]++ // its title: a heading mentions him too
		}
		files[fmt.Sprintf("manuscript/%02d-ch.md", n)] = b.String()
	}
	book, cache = writeBook(t, files)
	return book, cache, darcy
}

func TestMentionsOfAnEntryOnALongBook(t *testing.T) {
	book, cache, darcy := longBook(t)
	want := 0
	for _, c := range darcy {
		want += c
	}

	t.Run("by an alias, as JSON", func(t *testing.T) {
		out, stderr, err := run(t, "mentions", "Darcy", "--json", "--project", book, cache)
		require.NoError(t, err)
		assert.Contains(t, stderr, `"Darcy" is a codex entry and a chapter's title`, "the writer hears which one was taken")
		assert.Contains(t, stderr, "quire mentions --chapter Darcy")
		var got mentionsEntryOutput
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		assert.Equal(t, "Fitzwilliam Darcy", got.Name)
		assert.Equal(t, want, got.Total)
		assert.Equal(t, 61, got.Of)
		byNumber := map[int]int{}
		for _, a := range got.Chapters {
			byNumber[a.Chapter.Number] = a.Count
			assert.Positive(t, a.First.Line)
		}
		for n, c := range darcy {
			assert.Equal(t, c, byNumber[n], "chapter %d", n)
		}
	})

	t.Run("as text, every chapter that mentions him", func(t *testing.T) {
		out, _, err := run(t, "mentions", "--entry", "mr. darcy", "--project", book, cache)
		require.NoError(t, err)
		assert.Contains(t, out, fmt.Sprintf("Fitzwilliam Darcy (character): %d mentions in 47 chapters of 61.", want))
		for n, c := range darcy {
			line := regexp.MustCompile(fmt.Sprintf(`(?m)^%d\. (Chapter %d|Darcy)\s+%d\s+manuscript/%02d-ch\.md:\d+$`, n, n, c, n))
			if c == 0 {
				assert.NotRegexp(t, line, out, "chapter %d does not mention him", n)
			} else {
				assert.Regexp(t, line, out, "chapter %d", n)
			}
		}
	})

	t.Run("by part of the name, as quire lookup finds it", func(t *testing.T) {
		out, stderr, err := run(t, "mentions", "Fitzwilliam", "--project", book, cache)
		require.NoError(t, err)
		assert.Contains(t, out, "Fitzwilliam Darcy (character):")
		assert.Contains(t, stderr, `quire: taking "Fitzwilliam" as Fitzwilliam Darcy (partial match)`)
		_, _, err = run(t, "mentions", "Bennet", "--project", book, cache)
		require.Error(t, err, "two entries fit as well")
		assert.ErrorContains(t, err, `"Bennet" could be `)
		assert.ErrorContains(t, err, "Elizabeth Bennet")
		assert.ErrorContains(t, err, "Jane Bennet")
		assert.ErrorContains(t, err, "give the full name")
	})

	t.Run("the chapter, by flag or number", func(t *testing.T) {
		for _, args := range [][]string{{"--chapter", "Darcy"}, {"40"}} {
			out, _, err := run(t, append([]string{"mentions", "--project", book, cache}, args...)...)
			require.NoError(t, err, args)
			assert.Contains(t, out, "40. Darcy (manuscript/40-ch.md, ", args)
		}
	})

	t.Run("the whole table lists every chapter's count", func(t *testing.T) {
		out, _, err := run(t, "mentions", "--project", book, cache)
		require.NoError(t, err)
		assert.Contains(t, out, "Mentions by chapter, 61 chapters")
		assert.Contains(t, out, "Elizabeth Bennet (character): 61 mentions in 61 chapters")
		// Every chapter appears in Elizabeth's list, each once.
		_, list, ok := strings.Cut(out, "Elizabeth Bennet (character)")
		require.True(t, ok)
		list, _, _ = strings.Cut(list, "\n\n")
		for n := 1; n <= 61; n++ {
			assert.Regexp(t, fmt.Sprintf(`(^|\s)%d×1(\s|$)`, n), list, "chapter %d", n)
		}
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "    ") {
				continue
			}
			assert.LessOrEqual(t, len([]rune(line)), listWidth, "lines wrap: %q", line)
		}
	})

	t.Run("mistakes say which argument is which", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"Wickham"}, `"Wickham" is neither a codex entry (a name or alias) nor a chapter (a number, title or path)`},
			{[]string{"--entry", "Wickham"}, `no codex entry is called "Wickham"`},
			{[]string{"Darcy", "--chapter", "2"}, "give either"},
			{[]string{"--entry", "Darcy", "--chapter", "2"}, "none of the others can be"},
		} {
			_, _, err := run(t, append([]string{"mentions", "--project", book, cache}, tc.args...)...)
			require.Error(t, err, tc.args)
			assert.Contains(t, err.Error(), tc.want, tc.args)
		}
	})
}
