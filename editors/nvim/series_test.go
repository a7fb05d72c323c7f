package nvim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestNeovimSeries opens a chapter of a trusted book whose quire.yaml
// names a series folder beside it (test/series.lua): hovering a name
// the series alone defines shows "Series canon", go to definition
// opens the series file, and there a [[link]] and a name show the card
// of the book's canon.
func TestNeovimSeries(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)

	// The series folder is outside the book: the writer trusts the book
	// first, in the config folder the editor's quire reads.
	shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	book := shelf.Book

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
			"-c", "luafile " + filepath.Join(plugin, "test", "series.lua")},
		Dir: book, TmpXDG: tmp, Cache: cache, Result: result,
		Timeout: 60 * time.Second,
		Env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + shelf.Chapter,
			"QUIRE_SERIES_FILE=" + shelf.SeriesFile,
			"QUIRE_RESULT=" + result,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	require.NoError(t, run.Err, report())
	for _, step := range []string{"attach", "hover", "definition", "series hover"} {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
}
