package endpoint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

// writeSettings writes text as the quire.yaml of a new book and returns
// the book's folder.
func writeSettings(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "quire.yaml"), []byte(text), 0o644))
	return dir
}

// userConfig writes text as the writer's own config.yaml (none when
// empty) in the tests' config folder and returns its path.
func userConfig(t *testing.T, text string) string {
	t.Helper()
	dir := testhome.ConfigDir(t)
	if text != "" {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "quire"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "quire", "config.yaml"), []byte(text), 0o644))
	}
	return filepath.Join(dir, "quire", "config.yaml")
}
