package testhome

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(Run(m)) }

// TestIsolateMovesEveryUserFolder: after Isolate, each folder Go finds for
// the user on this system lies under the new home, whichever variables
// the system reads.
func TestIsolateMovesEveryUserFolder(t *testing.T) {
	for _, v := range Vars {
		t.Setenv(v, os.Getenv(v)) // restored after the test
	}
	home := t.TempDir()
	require.NoError(t, Isolate(home))
	for _, tc := range []struct {
		name string
		dir  func() (string, error)
	}{
		{"home", os.UserHomeDir},
		{"config", os.UserConfigDir},
		{"cache", os.UserCacheDir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := tc.dir()
			require.NoError(t, err)
			rel, err := filepath.Rel(home, dir)
			require.NoError(t, err)
			assert.False(t, rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)), "%s folder %s is outside %s", tc.name, dir, home)
		})
	}
}

// TestRunIsolatedThisBinary: Run already moved the user folders of this
// very test binary away from the writer's.
func TestRunIsolatedThisBinary(t *testing.T) {
	dir, err := os.UserConfigDir()
	require.NoError(t, err)
	assert.Contains(t, dir, "quire-test-home-")
	dir, err = os.UserCacheDir()
	require.NoError(t, err)
	assert.Contains(t, dir, "quire-test-home-")
	assert.NotEmpty(t, os.Getenv(BenchCacheEnv))
	assert.NotContains(t, os.Getenv(BenchCacheEnv), "quire-test-home-", "benchmark corpora stay in the real cache")
}

// TestSnapshotSeesWrites: the guard Run ends with notices a new trust
// file, a changed one, a new book cache and a removed file.
func TestSnapshotSeesWrites(t *testing.T) {
	config, cache := filepath.Join(t.TempDir(), "quire"), filepath.Join(t.TempDir(), "quire")
	require.NoError(t, os.MkdirAll(filepath.Join(cache, "book-1"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cache, "book-1", "state.json"), []byte("{}"), 0o644))
	require.NoError(t, os.MkdirAll(config, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "config.yaml"), []byte("a: 1\n"), 0o644))
	folders := []string{config, cache}
	before := snapshot(folders)
	assert.Empty(t, diff(before, snapshot(folders)), "nothing changed yet")

	require.NoError(t, os.WriteFile(filepath.Join(config, "trust.json"), []byte("{}"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(config, "config.yaml"), []byte("a: 12\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(cache, "book-2"), 0o755))
	require.NoError(t, os.Remove(filepath.Join(cache, "book-1", "state.json")))
	assert.ElementsMatch(t, []string{
		"changed " + filepath.Join(config, "config.yaml"),
		"created " + filepath.Join(cache, "book-2"),
		"created " + filepath.Join(config, "trust.json"),
		"removed " + filepath.Join(cache, "book-1", "state.json"),
	}, diff(before, snapshot(folders)))
}
