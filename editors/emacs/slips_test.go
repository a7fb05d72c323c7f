package emacs_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestEmacsSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean (test/slips.el), and checks that
// Flymake then shows, through eglot, one diagnostic per slip at its
// words and none on a decoy; then applies the fixture's fix through
// eglot's code-action menu. How long each slip took to show is logged,
// not asserted.
func TestEmacsSlips(t *testing.T) {
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	result := filepath.Join(tmp, "result.txt")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))

	reportOf := func(run *editortest.BatchRun) string {
		events, _ := os.ReadFile(result + ".events")
		return "steps:\n" + run.Result + "\nemacs stderr (tail):\n" + tail(run.Stderr, 4000) +
			"\nemacs stdout:\n" + run.Stdout + "\neglot events (tail):\n" + tail(string(events), 8000)
	}
	run := editortest.Batch{Name: "emacs", Args: []string{emacs, "--batch", "-l", filepath.Join(here, "test", "slips.el")},
		Dir: filepath.Dir(filepath.Dir(slips.Chapter)), TmpXDG: tmp, Cache: filepath.Join(tmp, "cache"), Result: result,
		Timeout: 2 * time.Minute,
		Env: []string{
			"QUIRE_SETUP=" + filepath.Join(here, "quire.el"),
			"QUIRE_BIN=" + bin,
			"QUIRE_SLIPS=" + fixture,
			"QUIRE_RESULT=" + result,
			"HOME=" + home,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	lines, res, runErr := run.Lines, run.Result, run.Err
	for _, step := range []string{"connect", "clean", "type", "settled", "fix"} {
		require.Contains(t, lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", lines[len(lines)-1], report())
	require.NoError(t, runErr, report())
	// The menu the writer saw held every fix the slip is offered, and the
	// line read as fixed: asserted here too, from what the script saw, so
	// a script that stops checking cannot pass.
	for _, title := range slips.Fix.Offered {
		require.Contains(t, lines, "offered "+title, report())
	}
	require.Contains(t, lines, "after "+slips.Fix.After, report())
	// Edit to diagnostic shown, per slip: for the writer's "within a
	// second of typing", measured, never asserted.
	run.LogTimes(t, "time ", "seen ", "offered ", "after ")
	for _, code := range slips.Codes() {
		require.Contains(t, res, "time "+code+" ", report())
	}
}
