package book

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/testhome"
)

// TestTheHistoryMovesOutOfTheCache: older quire kept the writing
// history in the cache, which a writer may clear; it moves to the data
// folder on the first start, once.
func TestTheHistoryMovesOutOfTheCache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the data folder's variable is Linux's; the move is the same code everywhere")
	}
	testhome.CacheDir(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	root := t.TempDir()
	cache, err := CacheFor(root, CacheOptions{})
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(cache.Dir, 0o700))
	old := filepath.Join(cache.Dir, "progress.json")
	require.NoError(t, os.WriteFile(old, []byte(`{"version":1}`), 0o600))

	d, err := DataFor(root, CacheOptions{})
	require.NoError(t, err)
	want, err := codex.DataDirFor(root)
	require.NoError(t, err)
	assert.Equal(t, want, d.Dir)
	assert.NotEqual(t, cache.Dir, d.Dir, "the data folder is not the cache")
	moved, err := d.Migrate()
	require.NoError(t, err)
	assert.True(t, moved)
	got, err := os.ReadFile(d.Progress())
	require.NoError(t, err)
	assert.JSONEq(t, `{"version":1}`, string(got))
	assert.NoFileExists(t, old)

	// Clearing the cache keeps it.
	require.NoError(t, os.RemoveAll(cache.Dir))
	moved, err = d.Migrate()
	require.NoError(t, err)
	assert.False(t, moved)
	assert.FileExists(t, d.Progress())
	assert.Equal(t, filepath.Join(d.Dir, "snapshots"), d.Snapshots())

	// A cache folder named by the writer holds the data too.
	mine := t.TempDir()
	d, err = DataFor(root, CacheOptions{Dir: mine})
	require.NoError(t, err)
	assert.Equal(t, mine, d.Dir)
}
