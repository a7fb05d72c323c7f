package nvim_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestNeovimSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean (test/slips.lua), and checks that
// Neovim then shows one diagnostic per slip at its words and none on a
// decoy; then applies the fixture's fix through Neovim's code-action
// menu. How long each slip took to show is logged, not asserted.
func TestNeovimSlips(t *testing.T) {
	nvim := lookNvim(t)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	run, report := scriptRun{script: "slips.lua", dir: filepath.Dir(filepath.Dir(slips.Chapter)), tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_SLIPS=" + fixture,
		},
		steps: []string{"attach", "clean", "type", "settled", "fix"},
	}.run(t, nvim)
	lines, res := run.Lines, run.Result
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
