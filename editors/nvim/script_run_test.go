package nvim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// scriptRun is one run of a test script (test/*.lua) in a headless
// Neovim with this plugin first on its runtimepath. The script writes
// "ok <step>" per step it passed and PASS at the end to its result file;
// when a check fails the test shows that file, Neovim's output, the tail
// of its LSP log and any further files the script keeps.
type scriptRun struct {
	script string // the file under test/
	// norc starts Neovim with -u NORC: no user config, but plugin/ loads
	// as it does for a writer. Otherwise --clean -u NONE.
	norc    bool
	dir     string        // where Neovim starts
	tmp     string        // the test's folder: XDG_*, the cache, the result file
	result  string        // the result file's name in tmp; result.txt if empty
	env     []string      // added to the environment, beside QUIRE_RESULT
	steps   []string      // the "ok" steps the script must pass
	also    []string      // suffixes of the result file's path whose files the report shows too
	timeout time.Duration // 90 s if zero
}

// run runs the script and requires it passed every step and ended in
// PASS; it returns the run and its report for the test's own checks.
func (s scriptRun) run(t *testing.T, nvim string) (*editortest.BatchRun, func() string) {
	t.Helper()
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	name := s.result
	if name == "" {
		name = "result.txt"
	}
	result := filepath.Join(s.tmp, name)
	cache := filepath.Join(s.tmp, "cache")
	reportOf := func(run *editortest.BatchRun) string {
		lsplog, _ := os.ReadFile(filepath.Join(cache, "nvim", "lsp.log"))
		if len(lsplog) > 6000 && os.Getenv("QUIRE_DEBUG") == "" {
			lsplog = lsplog[len(lsplog)-6000:]
		}
		out := "result file:\n" + run.Result
		for _, suffix := range s.also {
			data, _ := os.ReadFile(result + suffix)
			out += "\n" + suffix + ":\n" + string(data)
		}
		return out + "\nnvim stdout:\n" + run.Stdout + "\nnvim stderr:\n" + run.Stderr + "\nlsp.log (tail):\n" + string(lsplog)
	}
	args := []string{nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE"}
	if s.norc {
		args = []string{nvim, "--headless", "-u", "NORC", "-i", "NONE"}
	}
	timeout := s.timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	run := editortest.Batch{Name: "nvim",
		Args: append(args,
			"--cmd", "set rtp^="+plugin,
			"-c", "luafile "+filepath.Join(plugin, "test", s.script)),
		Dir: s.dir, TmpXDG: s.tmp, Cache: cache, Result: result,
		Timeout: timeout,
		Env:     append([]string{"QUIRE_RESULT=" + result}, s.env...),
	}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	require.NoError(t, run.Err, report())
	// What Neovim printed is what the writer would read on opening a
	// chapter: no warning of the plugin's (W18, a highlight group name an
	// older Neovim refuses).
	require.NotRegexp(t, `\bW\d+:`, run.Stdout+run.Stderr, report())
	for _, step := range s.steps {
		require.Contains(t, run.Lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], report())
	return run, report
}

// lookNvim is the nvim on PATH; without one the test fails in CI
// (QUIRE_REQUIRE_NVIM) and skips, saying so, elsewhere.
func lookNvim(t *testing.T) string {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	return nvim
}

// needNvim stops the test where nvim is older than version (0.10, …):
// it skips, saying why, unless requireEnv is set, where it fails.
func needNvim(t *testing.T, nvim, version, requireEnv, why string) {
	t.Helper()
	out, err := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE",
		"-c", "lua io.stdout:write(vim.fn.has('nvim-"+version+"'))", "-c", "qa!").Output()
	require.NoError(t, err)
	if strings.TrimSpace(string(out)) != "1" {
		editortest.Unavailable(t, requireEnv, "%s", why)
	}
}

// testDir is the test's folder, symlinks resolved. The quire servers
// Neovim started may still be saving to the index cache inside it for a
// moment after Neovim exits (the server saves what its start learned in
// the background), so the cache is emptied until it is gone before the
// folder is removed.
func testDir(t *testing.T) string {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() {
		cache := filepath.Join(tmp, "cache")
		require.Eventually(t, func() bool { return os.RemoveAll(cache) == nil }, 10*time.Second, 20*time.Millisecond,
			"the index cache could not be removed")
	})
	return tmp
}

// sampleBook builds quire and writes the sample book in a folder of its
// own; it returns the binary, the book and the test's folder.
func sampleBook(t *testing.T) (bin, book, tmp string) {
	t.Helper()
	tmp = testDir(t)
	bin = editortest.QuireBinary(t, tmp)
	book = editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	return bin, book, tmp
}

const sampleChapter = "manuscript/01-thirteen-strokes.md"
