package trust

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/linktest"
)

func TestGrantTrustsExactlyThatHashUntilRevoked(t *testing.T) {
	book := t.TempDir()
	s := Open(filepath.Join(t.TempDir(), "quire", FileName))

	ok, err := s.Trusts(book, "sha256:a")
	require.NoError(t, err, "no file yet is no trust, and no error")
	assert.False(t, ok)

	require.NoError(t, s.Grant(book, "sha256:a", []string{"run the command x (mcp_servers.x)"}))
	for _, tt := range []struct {
		hash string
		want bool
	}{{"sha256:a", true}, {"sha256:b", false}, {"", false}} {
		ok, err := s.Trusts(book, tt.hash)
		require.NoError(t, err)
		assert.Equal(t, tt.want, ok, tt.hash)
	}
	other, err := s.Trusts(t.TempDir(), "sha256:a")
	require.NoError(t, err)
	assert.False(t, other, "trust is per book")

	info, err := os.Stat(s.Path())
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		// Windows has no such mode bits (Go reports 0666): the record is
		// kept private there by the folder it lives in, the writer's own
		// %AppData%.
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the record is the writer's alone")
	}

	had, err := s.Revoke(book)
	require.NoError(t, err)
	assert.True(t, had)
	ok, err = s.Trusts(book, "sha256:a")
	require.NoError(t, err)
	assert.False(t, ok)
	had, err = s.Revoke(book)
	require.NoError(t, err)
	assert.False(t, had)
}

func TestABookIsKnownByItsRealPath(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book")
	require.NoError(t, os.Mkdir(book, 0o755))
	link := filepath.Join(dir, "link")
	linktest.Symlink(t, book, link)
	s := Open(filepath.Join(t.TempDir(), FileName))
	require.NoError(t, s.Grant(link, "sha256:a", nil))

	ok, err := s.Trusts(book, "sha256:a")
	require.NoError(t, err)
	assert.True(t, ok, "the link and the folder are one book")

	// The link pointed elsewhere is another book.
	elsewhere := filepath.Join(dir, "elsewhere")
	require.NoError(t, os.Mkdir(elsewhere, 0o755))
	require.NoError(t, os.Remove(link))
	linktest.Symlink(t, elsewhere, link)
	ok, err = s.Trusts(link, "sha256:a")
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestAnUnreadableRecordTrustsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, []byte("{not json"), 0o600))
	s := Open(path)
	ok, err := s.Trusts(t.TempDir(), "sha256:a")
	assert.False(t, ok)
	assert.ErrorContains(t, err, "remove it to start over")
	assert.Error(t, s.Grant(t.TempDir(), "sha256:a", nil), "a record quire cannot read is not overwritten")

	var none *Store
	ok, err = none.Trusts(t.TempDir(), "sha256:a")
	assert.False(t, ok)
	assert.NoError(t, err)
}
