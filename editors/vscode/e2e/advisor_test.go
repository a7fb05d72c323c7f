package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

var advisorSteps = []string{"open-book", "no-provider", "config-outside", "quire-yaml-outside"}

// TestVSCodeAdvisorFollowsTheSettingsFiles (advisor.mjs): the advisor's
// status bar item went stale when quire.yaml or the writer's config.yaml
// changed outside VS Code. With no provider in VS Code's settings it
// says "no provider"; a config.yaml written outside VS Code that names
// a scripted model makes it "advisor ready", and a quire.yaml naming a
// model that server does not offer makes it "advisor needs a look", each
// with no restart.
func TestVSCodeAdvisorFollowsTheSettingsFiles(t *testing.T) {
	tools := findBrowserTools(t)

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	pkg := vsix(t, tmp, bin)
	model := editortest.ScriptedModel(t, []evalserver.Step{})
	shots := filepath.Join(artefacts(t), "advisor")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "advisor.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
		"QUIRE_MODEL_URL=" + model.BaseURL(),
		// runBrowser gives the editor tmp/config as XDG_CONFIG_HOME.
		"QUIRE_USER_CONFIG=" + filepath.Join(tmp, "config", "quire", "config.yaml"),
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(advisorSteps, ", "), "every step ran\n%s", report)
}
