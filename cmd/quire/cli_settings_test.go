package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/testhome"
)

type countingFS struct {
	fs.FS
	n *atomic.Int32
}

func (c countingFS) Open(name string) (fs.File, error) {
	if name == settings.Name {
		c.n.Add(1)
	}
	return c.FS.Open(name)
}

// TestOneAskReadsTheSettingsOnce: `quire ask` opens the book once, and
// the provider, the advisor's settings, the MCP servers and the globs
// all come from one reading of quire.yaml and of config.yaml.
func TestOneAskReadsTheSettingsOnce(t *testing.T) {
	config := testhome.ConfigDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(config, "quire"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "quire", "config.yaml"), []byte("rules: [Be brief.]\n"), 0o644))
	book, cache := sampleProject(t)
	var bookReads, userReads atomic.Int32
	var out, errOut bytes.Buffer
	g := &globalOptions{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		settingsSources: func(root string) settings.Sources {
			disk := settings.Disk(root)
			return settings.Sources{Book: countingFS{disk.Book, &bookReads}, User: func() ([]byte, string, error) {
				userReads.Add(1)
				return disk.User()
			}}
		}}
	cmd := newRoot(g)
	cmd.SetArgs([]string{"ask", "--peek", "--project", book, cache, "--base-url", "http://127.0.0.1:9/v1", "--model", "fake", "Hello?"})
	require.NoError(t, cmd.ExecuteContext(context.Background()), errOut.String())
	assert.Contains(t, out.String(), "Be brief.", "the user's rules reach the prompt")
	assert.Equal(t, int32(1), bookReads.Load(), "reads of quire.yaml")
	assert.Equal(t, int32(1), userReads.Load(), "reads of config.yaml")
}

// TestUserConfigGlobsFindTheChapters: the writer's config.yaml says where
// chapters and codex entries are, and the command line looks there when
// the book's quire.yaml does not say (the README promises it).
func TestUserConfigGlobsFindTheChapters(t *testing.T) {
	config := testhome.ConfigDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(config, "quire"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "quire", "config.yaml"),
		[]byte("manuscript: [draft/*.md]\ncodex: [lore/**/*.md]\n"), 0o644))
	book := t.TempDir()
	for rel, text := range map[string]string{
		"quire.yaml":          "title: The Salt Ledger\n",
		"draft/01-storm.md":   "# Storm\n\nThe storm came over Ana's roof.\n",
		"lore/people/ana.md":  "---\ntype: character\nname: Ana Brisk\n---\n# Ana Brisk\n",
		"codex/people/bel.md": "---\ntype: character\nname: Bel Morrow\n---\n# Bel Morrow\n",
	} {
		path := filepath.Join(book, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	cache := "--cache-dir=" + filepath.Join(t.TempDir(), "cache")

	out, _, err := run(t, "context", "--project", book, cache, "1")
	require.NoError(t, err)
	assert.Contains(t, out, "The storm came over")

	out, _, err = run(t, "list", "--project", book, cache, "character")
	require.NoError(t, err)
	assert.Contains(t, out, "Ana Brisk")
	assert.NotContains(t, out, "Bel Morrow", "only the codex globs of config.yaml are looked in")
}
