package emacs_test

import (
	"os"
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
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	result := filepath.Join(tmp, "result.txt")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	run := editortest.Batch{Name: "emacs", Args: []string{emacs, "--batch", "-l", filepath.Join(here, "test", "outline.el")},
		Dir: book, TmpXDG: tmp, Cache: filepath.Join(tmp, "cache"), Result: result,
		Timeout: 2 * time.Minute,
		Env: []string{
			"QUIRE_SETUP=" + filepath.Join(here, "quire.el"),
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + filepath.Join(book, "manuscript", "01-thirteen-strokes.md"),
			"QUIRE_RESULT=" + result,
			"HOME=" + home,
		}}.Run(t, func(run *editortest.BatchRun) string {
		return "steps:\n" + run.Result + "\nemacs stderr (tail):\n" + tail(run.Stderr, 4000)
	})
	report := "steps:\n" + run.Result + "\nemacs stderr (tail):\n" + tail(run.Stderr, 4000)
	require.NoError(t, run.Err, report)
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report)
	items := strings.Join(run.Lines, "\n")
	t.Logf("what the writer sees:\n%s", items)
	require.Contains(t, items, "The Night Count", report)
	require.Contains(t, items, "The Causeway at Dawn", report)
}
