package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --open hands the page to xdg-open; without one, the writer is told
// where the page is.
func TestMapOpen(t *testing.T) {
	book, cache := sampleProject(t)
	bin := t.TempDir()
	opened := filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + opened + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755))
	t.Setenv("PATH", bin)

	out, errOut, err := run(t, "map", "--project", book, cache, "--open")
	require.NoError(t, err)
	assert.Empty(t, errOut)
	path := strings.TrimSpace(out)
	require.Eventually(t, func() bool {
		got, err := os.ReadFile(opened)
		return err == nil && string(got) == path
	}, 10*time.Second, 20*time.Millisecond, "xdg-open was given the map")

	t.Setenv("PATH", t.TempDir())
	out, errOut, err = run(t, "map", "--project", book, cache, "--open")
	require.NoError(t, err)
	assert.Equal(t, path, strings.TrimSpace(out))
	assert.Contains(t, errOut, "xdg-open is not installed")
	assert.Contains(t, errOut, "open "+path+" in your browser")
}
