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

// The VS Code tests share how they find what they drive (node, npm,
// Chromium, code-server, playwright-core) and how they run a browser
// script (run.mjs, slips.mjs) and read what it printed.

// browserTools are this folder, node and Chromium; anything missing is
// Unavailable (npm too: vsix packs the extension with npx).
type browserTools struct {
	here, node, chromium string
}

func findBrowserTools(t *testing.T) browserTools {
	t.Helper()
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	node, err := exec.LookPath("node")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "node is not on PATH; `make vscode-e2e` installs everything")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "npm is not on PATH; `make vscode-e2e` installs everything")
	}
	browser := chromium(t)
	if _, err := os.Stat(filepath.Join(here, "node_modules", "code-server", "lib", "vscode", "node_modules")); err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "code-server is not installed in editors/vscode/e2e (run editors/vscode/e2e/install.sh); `make vscode-e2e` installs everything")
	}
	if _, err := os.Stat(filepath.Join(here, "node_modules", "playwright-core")); err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "playwright-core is not installed in editors/vscode/e2e (run editors/vscode/e2e/install.sh); `make vscode-e2e` installs everything")
	}
	return browserTools{here: here, node: node, chromium: browser}
}

// runBrowser runs script (run.mjs, slips.mjs) with node, code-server's
// folder and the screenshots' in its environment beside env, and the
// test's XDG folders in tmp. It fails the test when the script runs past
// its time or exits with an error, and returns what it printed and the
// report a failing check adds.
func runBrowser(t *testing.T, tools browserTools, script, tmp, shots string, env []string) (stdout, report string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tools.node, filepath.Join(tools.here, script))
	cmd.Dir = tools.here
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env,
		"QUIRE_WORK="+filepath.Join(tmp, "code-server"),
		"QUIRE_SHOTS="+shots,
		"QUIRE_CHROMIUM="+tools.chromium,
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"),
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"),
		// quire build writes to the Documents folder: the test's own.
		"XDG_DOCUMENTS_DIR="+editortest.Documents(t, tmp),
	)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = 10 * time.Second
	runErr := cmd.Run()
	report = script + " output:\n" + out.String() + "\n" + script + " errors:\n" + errOut.String() + "\nscreenshots: " + shots
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("the browser run did not finish in time\n%s", report)
	}
	require.NoError(t, runErr, report)
	t.Logf("%s", report)
	return out.String(), report
}
