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
)

// TestNeovimDialogue opens a chapter of the sample book in a real
// Neovim 0.10+ (test/dialogue.lua) and reads back what the writer sees
// of its dialogue: the highlight groups the semantic tokens put on a
// line of dialogue and on a character's name, and the colour groups they
// link to; the uncertain modifier on a guessed line; the speaker hint
// before it; the hover of a line; :QuireLines in the quickfix list.
// Neovim older than 0.10 draws neither semantic tokens nor inlay hints:
// there the test says so and skips, and `make nvim-versions` runs it on
// trixie's 0.10 and sid's newest with QUIRE_REQUIRE_NVIM_DIALOGUE=1.
func TestNeovimDialogue(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	out, err := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "lua io.stdout:write(vim.fn.has('nvim-0.10'))", "-c", "qa!").Output()
	require.NoError(t, err)
	if strings.TrimSpace(string(out)) != "1" {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM_DIALOGUE", "this Neovim is older than 0.10, which draws semantic tokens and inlay hints (make nvim-versions runs this test on 0.10 and newer)")
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")

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
			"-c", "luafile " + filepath.Join(plugin, "test", "dialogue.lua")},
		Dir: book, TmpXDG: tmp, Cache: cache, Result: result,
		Timeout: 90 * time.Second,
		Env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + chapter,
			"QUIRE_RESULT=" + result,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	require.NoError(t, run.Err, report())
	for _, step := range []string{"attach", "colours", "uncertain", "hints", "hover", "lines"} {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
}
