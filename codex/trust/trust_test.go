package trust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

// Four books trusted at the same instant, from four processes (four
// terminals running quire trust, or editors answering the trust
// question), all stay trusted: each change reads and writes the record
// under a lock the others wait for. Without it the last writer's copy,
// read before the others wrote, dropped their books in a quarter of the
// rounds.
func TestBooksTrustedAtOnceFromManyProcessesAllStayTrusted(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	const books, rounds = 4, 12
	for round := range rounds {
		dir := t.TempDir()
		store := filepath.Join(dir, "quire", FileName)
		start := filepath.Join(dir, "start")
		var roots []string
		var cmds []*exec.Cmd
		for i := range books {
			root := filepath.Join(dir, fmt.Sprintf("book%d", i))
			require.NoError(t, os.Mkdir(root, 0o755))
			roots = append(roots, root)
			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), grantChildEnv+"="+store, grantBookEnv+"="+root, grantStartEnv+"="+start)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			cmds = append(cmds, cmd)
			t.Cleanup(func() {
				if t.Failed() && stderr.Len() > 0 {
					t.Log(stderr.String())
				}
			})
		}
		require.NoError(t, os.WriteFile(start, nil, 0o600))
		for _, cmd := range cmds {
			require.NoError(t, cmd.Wait(), "round %d", round)
		}
		for _, root := range roots {
			ok, err := Open(store).Trusts(root, "sha256:"+root)
			require.NoError(t, err)
			require.True(t, ok, "round %d: the record lost %s", round, filepath.Base(root))
		}
	}
}

// The same holds for changes from one process's goroutines (a server
// answering two books' trust questions at once).
func TestConcurrentGrantsAndRevokesKeepEachOther(t *testing.T) {
	store := filepath.Join(t.TempDir(), "quire", FileName)
	var roots []string
	for i := range 8 {
		root := filepath.Join(t.TempDir(), fmt.Sprintf("book%d", i))
		require.NoError(t, os.Mkdir(root, 0o755))
		roots = append(roots, root)
	}
	require.NoError(t, Open(store).Grant(roots[0], "sha256:gone", nil))
	var wg sync.WaitGroup
	for _, root := range roots[1:] {
		wg.Go(func() { assert.NoError(t, Open(store).Grant(root, "sha256:x", nil)) })
	}
	wg.Go(func() {
		had, err := Open(store).Revoke(roots[0])
		assert.NoError(t, err)
		assert.True(t, had)
	})
	wg.Wait()
	for _, root := range roots[1:] {
		ok, err := Open(store).Trusts(root, "sha256:x")
		require.NoError(t, err)
		assert.True(t, ok, filepath.Base(root))
	}
	_, had, err := Open(store).Lookup(roots[0])
	require.NoError(t, err)
	assert.False(t, had)
}
