package editortest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// WriteFiles writes files (slash-separated paths relative to dir, and
// their texts) under dir, making their folders.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

// TrustBook runs `bin trust book` with configHome as the writer's config
// folder (the XDG_CONFIG_HOME the editor's quire will read).
func TrustBook(t testing.TB, bin, book, configHome string) {
	t.Helper()
	trust := exec.Command(bin, "trust", book)
	trust.Env = append(os.Environ(), "XDG_CONFIG_HOME="+configHome)
	out, err := trust.CombinedOutput()
	require.NoError(t, err, "quire trust: %s", out)
}
