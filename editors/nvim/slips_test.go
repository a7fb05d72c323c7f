package nvim_test

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

// TestNeovimSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean (test/slips.lua), and checks that
// Neovim then shows one diagnostic per slip at its words and none on a
// decoy. How long each slip took to show is logged, not asserted.
func TestNeovimSlips(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	result := filepath.Join(tmp, "result.txt")
	cache := filepath.Join(tmp, "cache")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE",
		"--cmd", "set rtp^="+plugin,
		"-c", "luafile "+filepath.Join(plugin, "test", "slips.lua"))
	cmd.Dir = filepath.Dir(filepath.Dir(slips.Chapter))
	cmd.Env = append(os.Environ(),
		"QUIRE_BIN="+bin,
		"QUIRE_SLIPS="+fixture,
		"QUIRE_RESULT="+result,
		"XDG_CACHE_HOME="+cache,
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
		lsplog, _ := os.ReadFile(filepath.Join(cache, "nvim", "lsp.log"))
		if len(lsplog) > 6000 && os.Getenv("QUIRE_DEBUG") == "" {
			lsplog = lsplog[len(lsplog)-6000:]
		}
		return "result file:\n" + string(res) + "\nnvim stdout:\n" + stdout.String() + "\nnvim stderr:\n" + stderr.String() + "\nlsp.log (tail):\n" + string(lsplog)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("nvim did not finish within the timeout\n%s", report())
	}
	require.NoError(t, runErr, report())
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	for _, step := range []string{"attach", "clean", "type", "settled"} {
		require.Contains(t, lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", lines[len(lines)-1], report())
	// Edit to diagnostic shown, per slip: for the writer's "within a
	// second of typing", measured, never asserted.
	for _, l := range lines {
		if strings.HasPrefix(l, "time ") || strings.HasPrefix(l, "seen ") || strings.HasPrefix(l, "nvim ") {
			t.Log(l)
		}
	}
	for _, code := range slips.Codes() {
		require.True(t, strings.Contains(string(res), "time "+code+" "), "no time for %s\n%s", code, report())
	}
}
