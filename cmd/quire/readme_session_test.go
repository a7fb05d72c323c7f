package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeSession is the README's first session: the commands of the
// first sh block under "## A first session", one per line, comments
// dropped.
func readmeSession(t *testing.T) []string {
	t.Helper()
	text := docPage(t, "README.md")
	_, after, ok := strings.Cut(text, "\n## A first session\n")
	require.True(t, ok, "the README has a first session")
	_, block, ok := strings.Cut(after, "```sh\n")
	require.True(t, ok, "the first session shows its commands in an sh block")
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)
	var commands []string
	sc := bufio.NewScanner(strings.NewReader(block))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		// A comment starts at a # after spaces; no command of the
		// session quotes one.
		if i := strings.Index(line, "  #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			commands = append(commands, line)
		}
	}
	return commands
}

// TestReadmeFirstSession runs every command the README's first session
// shows, in order, in a shell, as a writer would on a fresh account: a
// new home, no configuration, no keychain, no model, no display. Each
// must succeed and print no error; a build's last line is the file it
// wrote, and that file is outside the book.
func TestReadmeFirstSession(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the README's session is a POSIX shell session; Windows runs the same commands in the tests of each command")
	}
	commands := readmeSession(t)
	require.GreaterOrEqual(t, len(commands), 8, "%q", commands)
	require.Contains(t, commands, "quire build", "the session ends in a manuscript")

	// quire, on PATH, is this test binary running main.
	bin := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "quire"), []byte("#!/bin/sh\n"+asQuire+"=1 exec '"+self+"' \"$@\"\n"), 0o755))
	home := t.TempDir()
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "LANG=C.UTF-8",
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
	}
	dir := t.TempDir()
	var book string
	errorWord := regexp.MustCompile(`(?i)\berror\b|\bpanic\b|not found`)
	for _, line := range commands {
		if target, ok := strings.CutPrefix(line, "cd "); ok {
			dir = filepath.Join(dir, target)
			book = dir
			require.DirExists(t, dir, line)
			continue
		}
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		require.NoError(t, err, "%s\nstdout:\n%s\nstderr:\n%s", line, stdout.String(), stderr.String())
		assert.NotRegexp(t, errorWord, stderr.String(), "%s says on stderr", line)
		if line == "quire doctor" && runtime.GOOS == "linux" {
			// A fresh account here has no keychain (no D-Bus session):
			// the advice names what works without one.
			assert.Contains(t, stdout.String(), "quire key set --file", "doctor's key advice")
			assert.Contains(t, stdout.String(), "secret storage")
			assert.NotContains(t, stdout.String(), "store it in your keychain")
		}
		if strings.HasPrefix(line, "quire build") {
			out := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			last := strings.TrimSpace(out[len(out)-1])
			assert.FileExists(t, last, "%s: the last line is the file it wrote", line)
			require.NotEmpty(t, book)
			rel, err := filepath.Rel(book, last)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(rel, ".."), "%s wrote %s inside the book", line, last)
		}
	}
}
