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

// TestNeovimSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean (test/slips.lua), and checks that
// Neovim then shows one diagnostic per slip at its words and none on a
// decoy; then applies the fixture's fix through Neovim's code-action
// menu. How long each slip took to show is logged, not asserted.
func TestNeovimSlips(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
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
			"-c", "luafile " + filepath.Join(plugin, "test", "slips.lua")},
		Dir: filepath.Dir(filepath.Dir(slips.Chapter)), TmpXDG: tmp, Cache: cache, Result: result,
		Timeout: 90 * time.Second,
		Env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_SLIPS=" + fixture,
			"QUIRE_RESULT=" + result,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	require.NoError(t, run.Err, report())
	lines, res := run.Lines, run.Result
	for _, step := range []string{"attach", "clean", "type", "settled", "fix"} {
		require.Contains(t, lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", lines[len(lines)-1], report())
	// The menu the writer saw held every fix the slip is offered, and the
	// line read as fixed: asserted here too, from what the script saw, so
	// a script that stops checking cannot pass.
	for _, title := range slips.Fix.Offered {
		require.Contains(t, lines, "offered "+title, report())
	}
	require.Contains(t, lines, "after "+slips.Fix.After, report())
	// Edit to diagnostic shown, per slip: for the writer's "within a
	// second of typing", measured, never asserted.
	run.LogTimes(t, "time ", "seen ", "nvim ", "offered ", "after ")
	for _, code := range slips.Codes() {
		require.True(t, strings.Contains(res, "time "+code+" "), "no time for %s\n%s", code, report())
	}
}
