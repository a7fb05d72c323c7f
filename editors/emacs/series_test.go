package emacs_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestEmacsSeries opens a chapter of a trusted series book in Emacs with
// eglot and quire.el (test/series.el): go to definition of a name only
// the series defines opens the series file, which the book's quire
// manages (no second quire starts for the series folder), and there a
// [[link]] and a name show the card of the book's canon. Reopened with
// C-x C-f before quire.el has the book's status, the series file still
// goes to the book's quire; opened before any book, it starts no quire,
// and goes to the book's once a chapter is open.
func TestEmacsSeries(t *testing.T) {
	emacs := lookEmacs(t)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	run, report := emacsRun{script: "series.el", dir: shelf.Book, tmp: tmp, bin: bin, timeout: 3 * time.Minute,
		env: []string{"QUIRE_CHAPTER=" + shelf.Chapter, "QUIRE_SERIES_FILE=" + shelf.SeriesFile},
		report: func(run *editortest.BatchRun, result string) string {
			events, _ := os.ReadFile(result + ".events")
			messages, _ := os.ReadFile(result + ".messages")
			return "*Messages*:\n" + string(messages) + "\nemacs stdout:\n" + run.Stdout +
				"\neglot events (tail):\n" + tail(string(events), 8000)
		}}.run(t, emacs)
	for _, step := range []string{"connect", "hover", "definition", "one-quire", "series-hover", "reopen", "series-first"} {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	require.NoError(t, run.Err, report())
	t.Logf("emacs steps:\n%s", run.Result)
}
