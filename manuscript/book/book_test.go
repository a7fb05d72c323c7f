package book

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/testhome"
)

func writeBook(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	real, err := codex.ProjectRoot(root)
	require.NoError(t, err)
	return real
}

var small = map[string]string{
	"codex/people/ana.md":    "---\ntype: character\nname: Ana Brisk\n---\n# Ana Brisk\n",
	"manuscript/01-storm.md": "# Storm\n\nAna Brisk watched the storm.\n",
}

// The command line names a book's own folder, the server a folder of
// books; a book's folder is named the same under that as in the user cache.
func TestCacheLayout(t *testing.T) {
	testhome.CacheDir(t)
	root := "/books/salt-ledger"
	user, err := CacheFor(root, CacheOptions{})
	require.NoError(t, err)
	want, err := codex.CacheDirFor(root)
	require.NoError(t, err)
	assert.Equal(t, want, user.Dir)

	under, err := CacheFor(root, CacheOptions{Base: "/cache"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("/cache", filepath.Base(user.Dir)), under.Dir)
	assert.Equal(t, filepath.Join(under.Dir, "manuscript"), under.Passages())
	assert.Equal(t, under.Dir, under.Provenance())
	assert.Equal(t, filepath.Join(under.Dir, "map.html"), under.Map())

	own, err := CacheFor(root, CacheOptions{Dir: "/mine", Base: "/cache"})
	require.NoError(t, err)
	assert.Equal(t, "/mine", own.Dir)
}

func TestOpenFallsBackToMemoryWhenLocked(t *testing.T) {
	root := writeBook(t, small)
	cache := t.TempDir()
	held, err := codex.Open(context.Background(), root, codex.Options{CacheDir: cache})
	require.NoError(t, err)
	defer held.Close()

	_, err = Open(context.Background(), root, Options{Cache: CacheOptions{Dir: cache}, FailWhenLocked: true})
	require.ErrorIs(t, err, codex.ErrIndexLocked)

	told := false
	b, err := Open(context.Background(), root, Options{Cache: CacheOptions{Dir: cache}, OnLocked: func() { told = true }})
	require.NoError(t, err)
	defer b.Close()
	assert.True(t, told)
	assert.True(t, b.Locked)
	assert.Equal(t, "", b.Store.Report().CacheDir, "in memory")
	assert.Equal(t, 1, len(b.Manuscript.Snapshot().Units()))

	p, err := b.OpenPassages(context.Background(), func(string) {})
	require.NoError(t, err)
	defer p.Close()
}

func TestOpenLayersTheUsersGlobsUnderTheBooks(t *testing.T) {
	root := writeBook(t, map[string]string{
		"quire.yaml":        "codex: [lore/**/*.md]\n",
		"draft/01-storm.md": "# Storm\n\nThe storm came.\n",
		"lore/ana.md":       small["codex/people/ana.md"],
	})
	src := settings.Sources{
		Book: os.DirFS(root),
		User: func() ([]byte, string, error) {
			return []byte("manuscript: draft/*.md\ncodex: elsewhere/*.md\n"), "config.yaml", nil
		},
	}
	b, err := Open(context.Background(), root, Options{Settings: src, Cache: CacheOptions{Dir: t.TempDir()}})
	require.NoError(t, err)
	defer b.Close()
	assert.Equal(t, Globs{Codex: []string{"lore/**/*.md"}, Manuscript: []string{"draft/*.md"}}, b.Globs)
	assert.Equal(t, 1, len(b.Manuscript.Snapshot().Units()))
	require.Equal(t, 1, b.Store.Catalog().Len())
	assert.Equal(t, "Ana Brisk", b.Store.Catalog().All()[0].Name)

	_, err = Open(context.Background(), root, Options{Settings: settings.Sources{Book: fstest.MapFS{settings.Name: {Data: []byte("codex: [\n")}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quire.yaml: yaml: line")
}

// TestChapterCacheNeverInsideTheBook keeps the chapter cache out of the
// book by the codex's own rule: a cache folder in the book, one reached
// through a link into it, or one merely named like "..notes" inside it
// gets no chapter cache; one outside the book does.
func TestChapterCacheNeverInsideTheBook(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "..notes"), 0o755))
	link := filepath.Join(outside, "into-the-book")
	linktest.Symlink(t, root, link)
	tests := []struct {
		name, dir string
		kept      bool
	}{
		{"outside", filepath.Join(outside, "cache"), true},
		{"inside", filepath.Join(root, ".cache"), false},
		{"named like a parent", filepath.Join(root, "..notes", "cache"), false},
		{"through a link", filepath.Join(link, "cache"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := CacheFor(root, CacheOptions{Dir: tc.dir})
			require.NoError(t, err)
			assert.Equal(t, tc.kept, chapterCache(root, c) != "", tc.dir)
		})
	}
}
