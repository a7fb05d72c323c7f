package emacs_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestEmacsSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean (test/slips.el), and checks that
// Flymake then shows, through eglot, one diagnostic per slip at its
// words and none on a decoy. How long each slip took to show is logged,
// not asserted.
func TestEmacsSlips(t *testing.T) {
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	result := filepath.Join(tmp, "result.txt")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-l", filepath.Join(here, "test", "slips.el"))
	cmd.Dir = filepath.Dir(filepath.Dir(slips.Chapter))
	cmd.Env = append(os.Environ(),
		"QUIRE_SETUP="+filepath.Join(here, "quire.el"),
		"QUIRE_BIN="+bin,
		"QUIRE_SLIPS="+fixture,
		"QUIRE_RESULT="+result,
		"HOME="+home,
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"),
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"),
	)
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()

	res, _ := os.ReadFile(result)
	report := func() string {
		events, _ := os.ReadFile(result + ".events")
		return "steps:\n" + string(res) + "\nemacs stderr (tail):\n" + tail(stderr.String(), 4000) +
			"\nemacs stdout:\n" + stdout.String() + "\neglot events (tail):\n" + tail(string(events), 8000)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("emacs did not finish within the timeout\n%s", report())
	}
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	for _, step := range []string{"connect", "clean", "type", "settled"} {
		require.Contains(t, lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", lines[len(lines)-1], report())
	require.NoError(t, runErr, report())
	// Edit to diagnostic shown, per slip: for the writer's "within a
	// second of typing", measured, never asserted.
	for _, l := range lines {
		if strings.HasPrefix(l, "time ") || strings.HasPrefix(l, "seen ") {
			t.Log(l)
		}
	}
	for _, code := range slips.Codes() {
		require.Contains(t, string(res), "time "+code+" ", report())
	}
}
