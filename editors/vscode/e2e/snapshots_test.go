package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

var snapshotSteps = []string{"open-book", "delete-and-save", "compare", "restore"}

// TestVSCodeSnapshots is the writer who deletes a paragraph and saves,
// then finds it in the chapter's snapshots in the diff editor and
// restores it (snapshots.mjs), in a real VS Code.
func TestVSCodeSnapshots(t *testing.T) {
	tools := findBrowserTools(t)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	pkg := vsix(t, tmp, bin)
	data, err := os.ReadFile(filepath.Join(book, "manuscript", "01-thirteen-strokes.md"))
	require.NoError(t, err)
	// A long paragraph of the chapter, its line (from 1) and text.
	lines := strings.Split(string(data), "\n")
	at := 0
	for i, l := range lines {
		if i > 8 && len(l) > 120 && i+1 < len(lines) && lines[i+1] == "" {
			at = i
			break
		}
	}
	require.NotZero(t, at)
	shots := filepath.Join(artefacts(t), "snapshots")
	require.NoError(t, os.MkdirAll(shots, 0o755))
	stdout, report := runBrowser(t, tools, "snapshots.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
		"QUIRE_LINE=" + strconv.Itoa(at+1),
		"QUIRE_PARAGRAPH=" + lines[at],
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(snapshotSteps, ", "), "every step ran\n%s", report)
}
