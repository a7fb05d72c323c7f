package nvim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/goals"
)

// TestNeovimWordCounts opens a chapter of the sample book with a daily
// goal (test/words.lua): require("quire").status() shows the chapter's
// and the book's counts without asking and follows the keys the writer
// types, :Quire stats opens the summary, and the code lens above the
// title gives the chapter's count. The wanted figures are the counting
// rule's own, worked out here from the files.
func TestNeovimWordCounts(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\ngoals:\n  daily: 500\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	chapter := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")
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
		return "Ch. 1 · " + goals.Thousands(ch) + " words · today +" + goals.Thousands(today) + " of 500 · book " + goals.Thousands(book)
	}

	result := filepath.Join(tmp, "result.txt")
	cache := filepath.Join(tmp, "cache")
	reportOf := func(run *editortest.BatchRun) string {
		lsplog, _ := os.ReadFile(filepath.Join(cache, "nvim", "lsp.log"))
		if len(lsplog) > 6000 && os.Getenv("QUIRE_DEBUG") == "" {
			lsplog = lsplog[len(lsplog)-6000:]
		}
		return "result file:\n" + run.Result + "\nnvim stdout:\n" + run.Stdout + "\nnvim stderr:\n" + run.Stderr + "\nlsp.log (tail):\n" + string(lsplog)
	}
	run := editortest.Batch{Name: "nvim",
		Args: []string{nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE",
			"--cmd", "set rtp^=" + plugin,
			"-c", "luafile " + filepath.Join(plugin, "test", "words.lua")},
		Dir: book, TmpXDG: tmp, Cache: cache, Result: result,
		Timeout: 90 * time.Second,
		Env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + chapter,
			"QUIRE_RESULT=" + result,
			"QUIRE_TYPE=" + typed,
			"QUIRE_WANT_STATUS=" + line(mine, 0, total),
			"QUIRE_WANT_TYPED=" + line(mine+added, added, total+added),
			"QUIRE_WANT_LENS=" + goals.Thousands(mine+added) + " words",
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	require.NoError(t, run.Err, report())
	for _, step := range []string{"attach", "statusline", "typing", "stats", "code-lens"} {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	require.False(t, strings.Contains(run.Result, "FAIL"), report())
}
