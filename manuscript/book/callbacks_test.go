package book

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The book's codex and its series' open side by side, and both may say
// their cache failed: the caller's callbacks are called one at a time,
// so a command writing its warnings to one stream needs no lock (run
// under -race, the plain slice below would be a data race otherwise).
func TestCallbacksOfTwoCodexesOneAtATime(t *testing.T) {
	one, _ := twoBooksOfASeries(t)
	// A cache folder under a file cannot be made: both codexes keep
	// their index in memory and say why.
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o644))
	var said []string
	b, err := Open(context.Background(), one, Options{
		Cache:      CacheOptions{Dir: filepath.Join(blocker, "cache")},
		Trust:      trusted(t, one),
		OnFallback: func(why string) { said = append(said, why) },
	})
	require.NoError(t, err)
	defer b.Close()
	require.NotNil(t, b.Series, "the series is read, in memory")
	assert.Len(t, said, 2, "each codex says why once: %q", said)
}
