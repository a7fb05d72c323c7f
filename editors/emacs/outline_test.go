package emacs_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestEmacsOutline opens a chapter of the sample book in Emacs with
// eglot (test/outline.el): imenu, fed by quire's document symbols, lists
// the chapter and its scenes, as M-x imenu offers them to the writer.
func TestEmacsOutline(t *testing.T) {
	emacs := lookEmacs(t)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	run, report := emacsRun{script: "outline.el", dir: book, tmp: tmp, bin: bin, timeout: 2 * time.Minute,
		env: []string{"QUIRE_CHAPTER=" + filepath.Join(book, "manuscript", "01-thirteen-strokes.md")}}.run(t, emacs)
	require.NoError(t, run.Err, report())
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	items := strings.Join(run.Lines, "\n")
	t.Logf("what the writer sees:\n%s", items)
	require.Contains(t, items, "The Night Count", report())
	require.Contains(t, items, "The Causeway at Dawn", report())
}
