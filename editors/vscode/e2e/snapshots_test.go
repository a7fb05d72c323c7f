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
	at, para := editortest.LongParagraph(t, filepath.Join(book, "manuscript", "01-thirteen-strokes.md"))
	shots := filepath.Join(artefacts(t), "snapshots")
	require.NoError(t, os.MkdirAll(shots, 0o755))
	stdout, report := runBrowser(t, tools, "snapshots.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
		"QUIRE_LINE=" + strconv.Itoa(at+1),
		"QUIRE_PARAGRAPH=" + para,
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(snapshotSteps, ", "), "every step ran\n%s", report)
}
