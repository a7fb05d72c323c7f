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

// fakeOpener puts an xdg-open on PATH that writes what it was given to
// the file it returns, and ends with status code.
func fakeOpener(t *testing.T, code string) (opened string) {
	t.Helper()
	bin := t.TempDir()
	opened = filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + opened + "\nexit " + code + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755))
	t.Setenv("PATH", bin)
	return opened
}

// lastLine is the last line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// --open hands the page to xdg-open; without a display, without
// xdg-open, or when xdg-open fails, the writer is told why and where
// the page is, the path is still the last line printed, and the status
// is 1.
func TestMapOpen(t *testing.T) {
	book, cache := sampleProject(t)
	opened := fakeOpener(t, "0")
	t.Setenv("DISPLAY", ":0")
	t.Setenv("WAYLAND_DISPLAY", "")

	out, errOut, err := run(t, "map", "--project", book, cache, "--open")
	require.NoError(t, err)
	assert.Empty(t, errOut)
	path := lastLine(out)
	require.Eventually(t, func() bool {
		got, err := os.ReadFile(opened)
		return err == nil && string(got) == path
	}, 10*time.Second, 20*time.Millisecond, "xdg-open was given the map")

	t.Run("no display", func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		require.NoError(t, os.Remove(opened))
		out, errOut, err := run(t, "map", "--project", book, cache, "--open")
		require.Equal(t, exitError{code: 1}, err)
		assert.Equal(t, path, lastLine(out))
		assert.Equal(t, "quire: could not open the book map: there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console). Open "+path+" in your browser.\n", errOut)
		assert.NoFileExists(t, opened, "xdg-open was not started")
	})
	t.Run("Wayland alone is a display", func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		t.Setenv("WAYLAND_DISPLAY", "wayland-0")
		_, errOut, err := run(t, "map", "--project", book, cache, "--open")
		require.NoError(t, err)
		assert.Empty(t, errOut)
	})
	t.Run("xdg-open fails", func(t *testing.T) {
		fakeOpener(t, "3")
		_, errOut, err := run(t, "map", "--project", book, cache, "--open")
		require.Equal(t, exitError{code: 1}, err)
		assert.Contains(t, errOut, "quire: could not open the book map: xdg-open could not open it (exit status 3). Open "+path+" in your browser.")
	})
	t.Run("no xdg-open", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		out, errOut, err := run(t, "map", "--project", book, cache, "--open")
		require.Equal(t, exitError{code: 1}, err)
		assert.Equal(t, path, lastLine(out))
		assert.Contains(t, errOut, "xdg-open is not installed")
		assert.Contains(t, errOut, "Open "+path+" in your browser.")
	})
}

// quire build --open opens the file it wrote as map --open does, and
// says as clearly when it cannot.
func TestBuildOpen(t *testing.T) {
	book, cache := sampleProject(t)
	opened := fakeOpener(t, "0")
	t.Setenv("DISPLAY", ":0")
	t.Setenv("WAYLAND_DISPLAY", "")

	out, errOut, err := run(t, "build", "--project", book, cache, "--open")
	require.NoError(t, err, errOut)
	path := lastLine(out)
	assert.True(t, strings.HasSuffix(path, "the-thirteenth-bell.docx"), path)
	assert.Equal(t, "quire: built the manuscript (DOCX, manuscript preset, 5 chapters, about 4,200 words):\n", errOut)
	require.Eventually(t, func() bool {
		got, err := os.ReadFile(opened)
		return err == nil && string(got) == path
	}, 10*time.Second, 20*time.Millisecond, "xdg-open was given the manuscript")

	t.Setenv("DISPLAY", "")
	out, errOut, err = run(t, "build", "--project", book, cache, "--open", "--format", "epub")
	require.Equal(t, exitError{code: 1}, err)
	path = lastLine(out)
	assert.True(t, strings.HasSuffix(path, "the-thirteenth-bell.epub"), path)
	assert.FileExists(t, path)
	assert.Contains(t, errOut, "quire: could not open the file: there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console). Open "+path+" yourself.\n")
}
