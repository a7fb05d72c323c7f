package codex_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/norm"

	"github.com/quire-ink/quire/codex"
)

// One folder, one cache and one trust record, however its name is
// spelled where the file system does not tell the spellings apart:
// Windows and macOS ignore case, macOS ignores Unicode normalization.
// Linux keeps them apart, and so does PathKey there (two folders may
// really be called Book and book).
func TestPathKeyFoldsWhatTheFileSystemFolds(t *testing.T) {
	base := t.TempDir()
	composed := filepath.Join(base, norm.NFC.String("Séverine's Book"))
	require.NoError(t, os.Mkdir(composed, 0o755))
	upper := filepath.Join(base, strings.ToUpper(norm.NFC.String("Séverine's Book")))
	decomposed := filepath.Join(base, norm.NFD.String("Séverine's Book"))

	key := codex.PathKey(composed)
	cacheA, err := codex.CacheDirFor(composed)
	require.NoError(t, err)
	cacheB, err := codex.CacheDirFor(upper)
	require.NoError(t, err)
	switch runtime.GOOS {
	case "windows", "darwin":
		assert.Equal(t, key, codex.PathKey(upper), "another case names the same folder")
		assert.Equal(t, cacheA, cacheB, "one cache for one folder")
	case "linux":
		assert.Equal(t, composed, key, "Linux paths are kept as they are")
		assert.NotEqual(t, cacheA, cacheB, "Book and BOOK are two folders on Linux")
		// A second folder spelled another way is really another one.
		require.NoError(t, os.Mkdir(upper, 0o755))
		assert.NotEqual(t, key, codex.PathKey(upper))
	}
	if runtime.GOOS == "darwin" {
		assert.Equal(t, key, codex.PathKey(decomposed), "NFD and NFC name one folder on macOS")
	} else {
		assert.Equal(t, decomposed, codex.PathKey(decomposed), "a path that is no folder is kept as it is")
	}
	missing := filepath.Join(base, "Not There")
	assert.Equal(t, missing, codex.PathKey(missing))
}
