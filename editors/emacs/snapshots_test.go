package emacs_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestEmacsSnapshots is the writer who deletes a paragraph, saves, and
// takes it back with one code action (test/snapshots.el), in Emacs with
// eglot.
func TestEmacsSnapshots(t *testing.T) {
	emacs := lookEmacs(t)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")
	_, para := editortest.LongParagraph(t, chapter)
	run, report := emacsRun{script: "snapshots.el", dir: book, tmp: tmp, bin: bin, timeout: 3 * time.Minute,
		env: []string{"QUIRE_CHAPTER=" + chapter, "QUIRE_PARAGRAPH=" + para}}.run(t, emacs)
	require.NoError(t, run.Err, report())
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	t.Logf("what the writer was offered:\n%s", strings.Join(run.Lines, "\n"))
}
