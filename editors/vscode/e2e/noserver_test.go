package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestVSCodeNoServer installs the universal .vsix, which carries no
// server, into code-server with no quire on its PATH (noserver.mjs) and
// checks what the writer sees: a message that says why quire cannot
// start and what to do, with buttons for the download page and the
// setting (the latter opens quire.serverPath in the Settings editor), and
// "quire: not running" in the status bar.
func TestVSCodeNoServer(t *testing.T) {
	tools := findBrowserTools(t)

	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "the-thirteenth-bell"))
	pkg := packageVsix(t, tmp, "universal", "")
	shots := filepath.Join(artefacts(t), "no-server")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "noserver.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
	})
	require.Contains(t, stdout, "PASS: "+strings.Join([]string{"open-book", "not-found-message", "open-settings"}, ", "), "every step ran\n%s", report)
}
