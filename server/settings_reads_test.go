package server

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/testhome"
)

// readCounter counts the reads of a book's quire.yaml and of the
// writer's config.yaml through the sources a load is given.
type readCounter struct{ book, user atomic.Int32 }

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

func (r *readCounter) sources(root string) settings.Sources {
	disk := settings.Disk(root)
	return settings.Sources{Book: countingFS{disk.Book, &r.book}, User: func() ([]byte, string, error) {
		r.user.Add(1)
		return disk.User()
	}}
}

// TestOneLoadReadsTheSettingsOnce: loading a book reads its quire.yaml
// and the writer's config.yaml from disk once each, however many owners
// (advisor settings, provider, MCP servers, codex and manuscript globs)
// take a section of them.
func TestOneLoadReadsTheSettingsOnce(t *testing.T) {
	config := testhome.ConfigDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(config, "quire"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "quire", "config.yaml"), []byte("rules: [Be brief.]\n"), 0o644))
	files := map[string]string{"quire.yaml": "title: T\nrules: [Use British spelling.]\nprovider: {model: m}\nmanuscript: [manuscript/*.md]\ncodex: [codex/**/*.md]\nmcp_servers:\n  dict: {command: dict-server}\n"}
	for k, v := range bookFiles {
		files[k] = v
	}
	root := writeProject(t, files)
	var reads readCounter
	p := newOpenBook(root)
	p.load(context.Background(), Options{CacheDir: t.TempDir(), settingsSources: reads.sources}, slog.New(slog.DiscardHandler), nil, nil)
	require.NoError(t, p.err)
	defer p.close()
	assert.Equal(t, int32(1), reads.book.Load(), "reads of quire.yaml")
	assert.Equal(t, int32(1), reads.user.Load(), "reads of config.yaml")
	c := p.configOf()
	assert.Equal(t, []string{"manuscript/*.md"}, c.globs)
	assert.Equal(t, []string{"Be brief.", "Use British spelling."}, c.settings.Rules)
	assert.Equal(t, "m", c.provider.Model)
}
