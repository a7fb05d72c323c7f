package linktest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }

// TestSymlink: a link this helper makes leads to its target; where the
// probe says links cannot be made, the reason is given. Linux always
// makes them, so the tests there never skip a link case.
func TestSymlink(t *testing.T) {
	if runtime.GOOS == "linux" {
		require.Empty(t, Unsupported(), "Linux makes links")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target.md")
	require.NoError(t, os.WriteFile(target, []byte("canon"), 0o644))
	link := filepath.Join(dir, "link.md")
	Symlink(t, target, link) // skips, with the reason, where links are not made
	data, err := os.ReadFile(link)
	require.NoError(t, err)
	assert.Equal(t, "canon", string(data))
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&os.ModeSymlink)
}
