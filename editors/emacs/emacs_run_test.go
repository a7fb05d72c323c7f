package emacs_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// emacsRun is one run of a test script (test/*.el, which loads
// test/harness.el) in a batch Emacs with eglot and quire.el.
type emacsRun struct {
	script  string // the file under test/
	dir     string // where Emacs starts
	tmp     string // the test's folder: XDG_*, the cache, HOME, the result file
	bin     string // the quire binary
	env     []string
	timeout time.Duration
	// report adds what the test shows beside the steps when it fails;
	// result is the result file's path, for the files kept beside it.
	report func(run *editortest.BatchRun, result string) string
}

// lookEmacs is Emacs with eglot; without them the test fails in CI
// (QUIRE_REQUIRE_EMACS) and skips, saying so, elsewhere.
func lookEmacs(t *testing.T) string {
	t.Helper()
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	return emacs
}

// run runs the script and returns the run and its report, the steps
// and Emacs's stderr first.
func (r emacsRun) run(t *testing.T, emacs string) (*editortest.BatchRun, func() string) {
	t.Helper()
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	result := filepath.Join(r.tmp, "result.txt")
	home := filepath.Join(r.tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	reportOf := func(run *editortest.BatchRun) string {
		out := "steps:\n" + run.Result + "\nemacs stderr (tail):\n" + tail(run.Stderr, 4000)
		if r.report != nil {
			out += "\n" + r.report(run, result)
		}
		return out
	}
	run := editortest.Batch{Name: "emacs", Args: []string{emacs, "--batch", "-l", filepath.Join(here, "test", r.script)},
		Dir: r.dir, TmpXDG: r.tmp, Cache: filepath.Join(r.tmp, "cache"), Result: result,
		Timeout: r.timeout,
		Env: append([]string{
			"QUIRE_SETUP=" + filepath.Join(here, "quire.el"),
			"QUIRE_BIN=" + r.bin,
			"QUIRE_RESULT=" + result,
			"HOME=" + home,
		}, r.env...)}.Run(t, reportOf)
	return run, func() string { return reportOf(run) }
}
