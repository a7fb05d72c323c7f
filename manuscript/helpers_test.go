package manuscript

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/linktest"
)

// projectFiles maps project-relative, slash-separated paths to contents.
type projectFiles map[string]string

// newProject writes files into a fresh temporary folder and returns it,
// symlinks resolved, as Manuscript.Root reports it.
func newProject(t testing.TB, files projectFiles) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	writeFiles(t, root, files)
	return root
}

func writeFiles(t testing.TB, root string, files projectFiles) {
	t.Helper()
	for rel, content := range files {
		writeFile(t, root, rel, content)
	}
}

// writeFile writes one file, creating its folders.
func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func removeFile(t testing.TB, root, rel string) {
	t.Helper()
	require.NoError(t, os.RemoveAll(filepath.Join(root, filepath.FromSlash(rel))))
}

// symlink makes rel (inside root) a link to target, skipping the test
// where the system cannot make links.
func symlink(t testing.TB, target, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	linktest.Symlink(t, target, p)
}

// unreadable makes rel unreadable until the test ends, skipping the test
// when that is impossible (as root, permissions do not bind). make test
// runs these tests again as an ordinary user (make unprivileged) with
// QUIRE_REQUIRE_UNREADABLE=1, which turns that skip into a failure.
func unreadable(t testing.TB, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Stat(p)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(p, 0))
	t.Cleanup(func() { _ = os.Chmod(p, info.Mode().Perm()) })
	var probe error
	if info.IsDir() {
		_, probe = os.ReadDir(p)
	} else {
		_, probe = os.ReadFile(p)
	}
	if probe == nil {
		if os.Getenv("QUIRE_REQUIRE_UNREADABLE") == "1" {
			t.Fatal("QUIRE_REQUIRE_UNREADABLE=1, but permissions do not stop this user from reading")
		}
		t.Skip("permissions do not stop this user from reading; run the tests as an ordinary user")
	}
}

// openProject opens the manuscript of root with opts.
func openProject(t testing.TB, root string, opts Options) *Manuscript {
	t.Helper()
	m, err := Open(context.Background(), root, opts)
	require.NoError(t, err)
	return m
}

// openFiles writes a project and opens its manuscript with the defaults.
func openFiles(t testing.TB, files projectFiles) *Manuscript {
	t.Helper()
	return openProject(t, newProject(t, files), Options{})
}

// paths lists the units' paths in order.
func paths(units []*Unit) []string {
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = u.Path
	}
	return out
}

// chapterText is a chapter file: a level-1 heading, then the body.
func chapterText(title, body string) string {
	return "# " + title + "\n\n" + body + "\n"
}

// prose is n words of filler, n ≥ 1.
func prose(n int) string {
	return strings.TrimSpace(strings.Repeat("word ", n))
}

// secretSentence is prose that must never reach JSON meant for prompts,
// metadata or logs.
const secretSentence = "The lighthouse keeper buried the ledger beneath the seventh stair."

// syncBuffer is a bytes.Buffer that a logger may write from several
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// debugLogger logs everything, as text, into a buffer.
func debugLogger() (*slog.Logger, *syncBuffer) {
	buf := &syncBuffer{}
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), buf
}

// problemPaths lists the paths of problems, in order.
func problemPaths(ps []codex.Problem) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

// problemCodes lists the codes of problems, in order.
func problemCodes(ps []codex.Problem) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}
