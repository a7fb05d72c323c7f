package nvim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// TestNeovimWordCounts opens a chapter of the sample book with a daily
// goal (test/words.lua): require("quire").status() shows the chapter's
// and the book's counts without asking and follows the keys the writer
// types, :Quire stats opens the summary, and the code lens above the
// title gives the chapter's count. The wanted figures are the counting
// rule's own, worked out here from the files.
func TestNeovimWordCounts(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\ngoals:\n  daily: 500\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	chapter := filepath.Join(book, sampleChapter)
	chapters, err := filepath.Glob(filepath.Join(book, "manuscript", "*.md"))
	require.NoError(t, err)
	mine, total := 0, 0
	for _, c := range chapters {
		data, err := os.ReadFile(c)
		require.NoError(t, err)
		n := manuscript.ChapterWords(string(data))
		total += n
		if c == chapter {
			mine = n
		}
	}
	require.NotZero(t, mine)
	const typed = "The tide came in slow and grey over ten long stones."
	added := manuscript.CountWords(typed)
	line := func(ch, today, book int) string {
		return "Ch. 1 · " + count.Number(ch) + " words · today +" + count.Number(today) + " of 500 · book " + count.Number(book)
	}

	run, report := scriptRun{script: "words.lua", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + chapter,
			"QUIRE_TYPE=" + typed,
			"QUIRE_WANT_STATUS=" + line(mine, 0, total),
			"QUIRE_WANT_TYPED=" + line(mine+added, added, total+added),
			"QUIRE_WANT_LENS=" + count.Number(mine+added) + " words",
		},
		steps: []string{"attach", "statusline", "typing", "stats", "code-lens"},
	}.run(t, nvim)
	require.False(t, strings.Contains(run.Result, "FAIL"), report())
}
