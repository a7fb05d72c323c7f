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
	emacs := lookEmacs(t)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	run, report := emacsRun{script: "slips.el", dir: filepath.Dir(filepath.Dir(slips.Chapter)), tmp: tmp, bin: bin,
		timeout: 2 * time.Minute, env: []string{"QUIRE_SLIPS=" + fixture},
		report: func(run *editortest.BatchRun, result string) string {
			events, _ := os.ReadFile(result + ".events")
			return "emacs stdout:\n" + run.Stdout + "\neglot events (tail):\n" + tail(string(events), 8000)
		}}.run(t, emacs)
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
