package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWithCache runs the quire binary with its user cache folder at cache
// (XDG_CACHE_HOME, or %LocalAppData% on Windows) and returns its output
// and exit code.
func runWithCache(t *testing.T, cache string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := quireCommand(t, args...)
	// The last value of a variable wins over quireCommand's own.
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+cache, "LOCALAPPDATA="+cache)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errOut.String(), code
}

// requireCommandsWorkInMemory runs index, lookup, search and explicate
// (whose manuscript index lives in the same cache) on book with
// the given cache: each answers, exits 0 and warns on stderr that the
// index is in memory and why. name is an entry of the book.
func requireCommandsWorkInMemory(t *testing.T, book, cache, why, name string) {
	t.Helper()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{args: []string{"index", "--project", book}, want: "Index: in memory"},
		{args: []string{"lookup", "--project", book, name}, want: name},
		{args: []string{"search", "--project", book, name}, want: name},
		{args: []string{"explicate", "--project", book, name + " rang the bell"}, want: "manuscript/"},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			stdout, stderr, code := runWithCache(t, cache, tt.args...)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			assert.Contains(t, stdout, tt.want)
			requireMemoryWarning(t, stderr, why)
		})
	}
}

// requireMemoryWarning checks that stderr tells the writer, in words,
// that the index is in memory and why, and shows no panic.
func requireMemoryWarning(t *testing.T, stderr, why string) {
	t.Helper()
	assert.NotContains(t, stderr, "panic")
	assert.Contains(t, stderr, "quire: warning: quire's index cache")
	assert.Contains(t, stderr, why)
	assert.Contains(t, stderr, "keeps the index in memory")
}

// A cache that cannot be written leaves every command working from an
// index in memory, with a warning (issue 14, item 11). A regular file
// where the cache folder should be refuses root as well as anyone, so
// no mount is needed.
func TestCommandsWorkWhenTheCacheCannotBeWritten(t *testing.T) {
	book, _ := sampleProject(t)
	cache := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.WriteFile(cache, []byte("not a folder"), 0o600))
	requireCommandsWorkInMemory(t, book, cache, "is not a folder", "Teodora Quill")
}
