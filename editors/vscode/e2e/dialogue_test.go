package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

var dialogueSteps = []string{"open-book", "open-chapter", "colours", "speaker-hint", "hover", "settle"}

// TestVSCodeDialogue opens a chapter of the sample book in a real VS Code
// (dialogue.mjs) and checks what the writer sees of its dialogue: a line
// of dialogue, its tag and the speaker's name in three colours (read
// from the rendered editor, and kept as a screenshot), the speaker hint
// before a line no tag names with the guessed line in italics, the
// hover of a line saying who speaks it and by which tag, and the quick
// fix that settles the guessed line by writing its speaker line.
func TestVSCodeDialogue(t *testing.T) {
	tools := findBrowserTools(t)

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	pkg := vsix(t, tmp, bin)
	shots := filepath.Join(artefacts(t), "dialogue")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "dialogue.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(dialogueSteps, ", "), "every step ran\n%s", report)
}
