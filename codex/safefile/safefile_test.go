package safefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }

// TestReplaceAFileHeldOpen: a file another reader holds open (Go's
// os.Open shares reading and writing, not deletion, as most Windows
// programs do) is replaced once the reader lets go; on Windows a plain
// rename fails with "Access is denied" meanwhile.
func TestReplaceAFileHeldOpen(t *testing.T) {
	tests := []struct {
		name string
		hold time.Duration
	}{
		{"let go soon", 150 * time.Millisecond},
		{"not held", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "state.json")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
			if tt.hold > 0 {
				reader, err := os.Open(target)
				require.NoError(t, err)
				time.AfterFunc(tt.hold, func() { _ = reader.Close() })
			}
			require.NoError(t, WriteFile(target, []byte("new"), 0o600))
			data, err := os.ReadFile(target)
			require.NoError(t, err)
			assert.Equal(t, "new", string(data))
			left, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, left, 1, "no temporary file is left behind")
		})
	}
}

// TestReplaceGivesUp: a target held open for good fails after a while,
// with the system's error, and the source stays for the caller to
// remove; where a rename never waits for readers it simply succeeds.
func TestReplaceGivesUp(t *testing.T) {
	dir := t.TempDir()
	target, src := filepath.Join(dir, "state.json"), filepath.Join(dir, "state.json.tmp")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	require.NoError(t, os.WriteFile(src, []byte("new"), 0o644))
	reader, err := os.Open(target)
	require.NoError(t, err)
	defer reader.Close()
	start := time.Now()
	err = Replace(src, target)
	if err == nil {
		data, rerr := os.ReadFile(target)
		require.NoError(t, rerr)
		assert.Equal(t, "new", string(data))
		return
	}
	assert.True(t, heldOpen(err), "%v", err)
	assert.GreaterOrEqual(t, time.Since(start), patience)
	assert.FileExists(t, src)
}
