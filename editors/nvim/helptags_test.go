package nvim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// The plugin ships doc/tags so that :help quire works without the writer
// running :helptags. This test regenerates the tags from doc/quire.txt in
// a copy and fails when the shipped file is not what Neovim makes of the
// current help text.
func TestHelpTagsAreCurrent(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	doc := filepath.Join(t.TempDir(), "doc")
	require.NoError(t, os.MkdirAll(doc, 0o755))
	help, err := os.ReadFile(filepath.Join("doc", "quire.txt"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(doc, "quire.txt"), help, 0o644))

	cmd := exec.Command(nvim, "--headless", "--clean", "-i", "NONE", "-c", "helptags "+doc, "-c", "qa!")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvim helptags: %s", out)

	want, err := os.ReadFile(filepath.Join(doc, "tags"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join("doc", "tags"))
	require.NoError(t, err, "editors/nvim/doc/tags is missing: run  nvim --headless -c 'helptags editors/nvim/doc' -c q")
	require.Equal(t, string(want), string(got),
		"editors/nvim/doc/tags is not current for doc/quire.txt: run  nvim --headless -c 'helptags editors/nvim/doc' -c q")
}
