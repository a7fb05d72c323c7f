package editortest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Batch is an editor run headless on a test script (Neovim's e2e.lua,
// Emacs's e2e.el, the slips scripts) that writes the steps it passed,
// one "ok STEP" a line and "PASS" last, to its result file.
type Batch struct {
	Name    string        // the editor, in messages ("nvim", "emacs")
	Args    []string      // the editor and its arguments
	Dir     string        // where the editor starts
	Env     []string      // added to this process's environment and TmpXDG's
	TmpXDG  string        // the test's folder: XDG_STATE/DATA/CONFIG_HOME and XDG_DOCUMENTS_DIR go in it
	Cache   string        // XDG_CACHE_HOME
	Result  string        // the result file the script writes
	Timeout time.Duration // above the sum of the script's own limits
}

// BatchRun is what a Batch left: its output, its exit, the result file.
type BatchRun struct {
	Stdout, Stderr string
	Err            error
	Result         string
	Lines          []string
}

// Run runs the editor until it exits; past b.Timeout the test fails with
// report's account of the run.
func (b Batch) Run(t testing.TB, report func(*BatchRun) string) *BatchRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), b.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.Args[0], b.Args[1:]...)
	cmd.Dir = b.Dir
	cmd.Env = append(os.Environ(), b.Env...)
	cmd.Env = append(cmd.Env,
		"XDG_CACHE_HOME="+b.Cache,
		"XDG_STATE_HOME="+filepath.Join(b.TmpXDG, "state"),
		"XDG_DATA_HOME="+filepath.Join(b.TmpXDG, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(b.TmpXDG, "config"),
		// quire build writes to the Documents folder: the test's own,
		// never the writer's.
		"XDG_DOCUMENTS_DIR="+Documents(t, b.TmpXDG),
	)
	// The editor must not wait for a terminal or keep the pipes open
	// after it exits (the quire it started could hold them).
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if b.Cache != "" {
		t.Cleanup(func() { removeWhenQuiet(b.Cache) })
	}
	runErr := cmd.Run()

	res, _ := os.ReadFile(b.Result)
	run := &BatchRun{Stdout: stdout.String(), Stderr: stderr.String(), Err: runErr,
		Result: string(res), Lines: strings.Split(strings.TrimSpace(string(res)), "\n")}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("%s did not finish within the timeout\n%s", b.Name, report(run))
	}
	return run
}

// removeWhenQuiet removes dir once nothing writes into it any more: the
// quire the editor started may still be saving its caches there as it
// exits after the editor, and the test's temporary folder, removed
// after this, would then not be empty. Registered after t.TempDir, it
// runs before that folder's removal.
func removeWhenQuiet(dir string) {
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		if err := os.RemoveAll(dir); err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		time.Sleep(500 * time.Millisecond)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
}

// LogTimes logs the result lines that start with one of prefixes: the
// times a slips script measured, for the writer's "within a second of
// typing", never asserted.
func (run *BatchRun) LogTimes(t testing.TB, prefixes ...string) {
	t.Helper()
	for _, l := range run.Lines {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				t.Log(l)
				break
			}
		}
	}
}

// Documents is the Documents folder of an editor run whose test folder
// is tmp (XDG_DOCUMENTS_DIR), made if need be: where quire build writes
// by default, as it would to ~/Documents/quire/<book folder>.
func Documents(t testing.TB, tmp string) string {
	t.Helper()
	dir := filepath.Join(tmp, "Documents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
