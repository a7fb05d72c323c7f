package emacs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// seriesShelf writes a trusted book whose quire.yaml names a series
// folder beside it, with no version control above either, and returns
// the book, its chapter and the series file that defines Ilse Dorn.
func seriesShelf(t *testing.T, bin, tmp string) (book, chapter, seriesFile string) {
	t.Helper()
	for rel, text := range map[string]string{
		"shelf/tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor for [[Mara Vell]].\n",
		"shelf/one/quire.yaml":                    "title: Book One\nseries: ../tideward\n",
		"shelf/one/codex/characters/mara.md":      "---\ntype: character\nname: Mara Vell\nsummary: Smuggler who never sails twice.\n---\n# Mara Vell\n",
		"shelf/one/manuscript/01-harbor.md":       "# Harbor\n\nMara Vell met Ilse Dorn at the harbor.\n",
	} {
		p := filepath.Join(tmp, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	book = filepath.Join(tmp, "shelf", "one")
	// The series folder is outside the book: the writer trusts the book
	// first, in the config folder the editor's quire reads.
	trust := exec.Command(bin, "trust", book)
	trust.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"))
	out, err := trust.CombinedOutput()
	require.NoError(t, err, "quire trust: %s", out)
	return book, filepath.Join(book, "manuscript", "01-harbor.md"),
		filepath.Join(tmp, "shelf", "tideward", "codex", "characters", "ilse.md")
}

// TestEmacsSeries opens a chapter of a trusted series book in Emacs with
// eglot and quire.el (test/series.el): go to definition of a name only
// the series defines opens the series file, which the book's quire
// manages (no second quire starts for the series folder), and there a
// [[link]] and a name show the card of the book's canon. Reopened with
// C-x C-f before quire.el has the book's status, the series file still
// goes to the book's quire.
func TestEmacsSeries(t *testing.T) {
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book, chapter, seriesFile := seriesShelf(t, bin, tmp)
	result := filepath.Join(tmp, "result.txt")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))

	reportOf := func(run *editortest.BatchRun) string {
		events, _ := os.ReadFile(result + ".events")
		messages, _ := os.ReadFile(result + ".messages")
		return "steps:\n" + run.Result + "\n*Messages*:\n" + string(messages) +
			"\nemacs stderr (tail):\n" + tail(run.Stderr, 4000) + "\nemacs stdout:\n" + run.Stdout +
			"\neglot events (tail):\n" + tail(string(events), 8000)
	}
	run := editortest.Batch{Name: "emacs", Args: []string{emacs, "--batch", "-l", filepath.Join(here, "test", "series.el")},
		Dir: book, TmpXDG: tmp, Cache: filepath.Join(tmp, "cache"), Result: result,
		Timeout: 3 * time.Minute,
		Env: []string{
			"QUIRE_SETUP=" + filepath.Join(here, "quire.el"),
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + chapter,
			"QUIRE_SERIES_FILE=" + seriesFile,
			"QUIRE_RESULT=" + result,
			"HOME=" + home,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	for _, step := range []string{"connect", "hover", "definition", "one-quire", "series-hover", "reopen"} {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	require.NoError(t, run.Err, report())
	t.Logf("emacs steps:\n%s", run.Result)
}
