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

// TestEmacsSnapshots is the writer who deletes a paragraph, saves, and
// takes it back with one code action (test/snapshots.el), in Emacs with
// eglot.
func TestEmacsSnapshots(t *testing.T) {
	emacs := lookEmacs(t)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")
	data, err := os.ReadFile(chapter)
	require.NoError(t, err)
	var para string
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if i > 8 && len(l) > 120 && i+1 < len(lines) && lines[i+1] == "" {
			para = l
			break
		}
	}
	require.NotEmpty(t, para)
	run, report := emacsRun{script: "snapshots.el", dir: book, tmp: tmp, bin: bin, timeout: 3 * time.Minute,
		env: []string{"QUIRE_CHAPTER=" + chapter, "QUIRE_PARAGRAPH=" + para}}.run(t, emacs)
	require.NoError(t, run.Err, report())
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	t.Logf("what the writer was offered:\n%s", strings.Join(run.Lines, "\n"))
}
