package e2e_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestVSCodeSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean, with the keyboard of a real VS Code
// (slips.mjs), and checks that its Problems panel lists the slips, each
// with its code at its words, and nothing for the decoys; then that the
// quick fix menu (Ctrl+.) offers the fixture's fixes at the misspelled
// name, and its Change to Séverine, picked there, leaves the line as the
// fixture's After (on screen and, saved, on disk) and the other slips'
// problems in place. The panel's screenshot is an artefact; how long
// each slip took to show is logged, not asserted.
func TestVSCodeSlips(t *testing.T) {
	tools := findBrowserTools(t)

	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "slip-book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	pkg := vsix(t, tmp, bin)
	shots := filepath.Join(artefacts(t), "slips")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "slips.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + filepath.Dir(filepath.Dir(slips.Chapter)),
		"QUIRE_SLIPS=" + fixture,
		"QUIRE_VSIX=" + pkg,
	})
	require.Contains(t, stdout, "PASS: open-book, open-chapter, clean, type, problems, fix", "every step ran\n%s", report)
	for _, code := range slips.Codes() {
		require.Contains(t, stdout, "time "+code+" ", report)
	}
}
