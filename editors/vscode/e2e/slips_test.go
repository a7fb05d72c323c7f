package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestVSCodeSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean, with the keyboard of a real VS Code
// (slips.mjs), and checks that its Problems panel lists the five, each
// with its code at its words, and nothing for the decoys. The panel's
// screenshot is an artefact; how long each slip took to show is logged,
// not asserted.
func TestVSCodeSlips(t *testing.T) {
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	node, err := exec.LookPath("node")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "node is not on PATH; `make vscode-e2e` installs everything")
	}
	browser := chromium(t)
	if _, err := os.Stat(filepath.Join(here, "node_modules", "code-server", "lib", "vscode", "node_modules")); err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "code-server is not installed in editors/vscode/e2e (run editors/vscode/e2e/install.sh); `make vscode-e2e` installs everything")
	}
	if _, err := os.Stat(filepath.Join(here, "node_modules", "playwright-core")); err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "playwright-core is not installed in editors/vscode/e2e (run editors/vscode/e2e/install.sh); `make vscode-e2e` installs everything")
	}

	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "slip-book"))
	fixture := filepath.Join(tmp, "slips.json")
	slips.WriteJSON(t, fixture)
	pkg := vsix(t, tmp)
	shots := filepath.Join(artefacts(t), "slips")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(here, "slips.mjs"))
	cmd.Dir = here
	cmd.Env = append(os.Environ(),
		"QUIRE_BIN="+bin,
		"QUIRE_BOOK="+filepath.Dir(filepath.Dir(slips.Chapter)),
		"QUIRE_SLIPS="+fixture,
		"QUIRE_VSIX="+pkg,
		"QUIRE_WORK="+filepath.Join(tmp, "code-server"),
		"QUIRE_SHOTS="+shots,
		"QUIRE_CHROMIUM="+browser,
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"),
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"),
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	runErr := cmd.Run()
	report := "slips.mjs output:\n" + stdout.String() + "\nslips.mjs errors:\n" + stderr.String() + "\nscreenshots: " + shots
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("the browser run did not finish in time\n%s", report)
	}
	require.NoError(t, runErr, report)
	t.Logf("%s", report)
	require.Contains(t, stdout.String(), "PASS: open-book, open-chapter, clean, type, problems", "every step ran\n%s", report)
	for _, code := range slips.Codes() {
		require.Contains(t, stdout.String(), "time "+code+" ", report)
	}
}
