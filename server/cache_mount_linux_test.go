package server

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/codex/disktest"
)

// A book too large for the cache disk used to crash the server inside
// bleve (issue 14, item 2); now it opens from memory and says so.
func TestBookWorksOnAFullCacheDisk(t *testing.T) {
	disk := disktest.SmallDisk(t, "256k", false)
	root := filepath.Join(t.TempDir(), "book")
	_, err := corpus.Generate(context.Background(), root, corpus.Options{Entries: 2000, Chapters: 1, ChapterWords: 50})
	require.NoError(t, err)
	for rel, text := range bookFiles {
		writeFileAt(t, root, rel, text)
	}
	c := startServer(t, Options{CacheDir: disk})
	c.initialize(root)

	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	requireSearchFinds(t, c, "harbormistress", "Ilse Dorn")
	requireToldInMemory(t, c, "is on a full disk")
}

// A read-only cache disk (issue 14, item 11).
func TestBookWorksOnAReadOnlyCacheDisk(t *testing.T) {
	disk := disktest.SmallDisk(t, "1m", true)
	c := startServer(t, Options{CacheDir: disk})
	c.initialize(writeProject(t, bookFiles))

	requireHover(t, c, "manuscript/01-harbor.md", 2, 1, "Mara Vell")
	requireSearchFinds(t, c, "harbormistress", "Ilse Dorn")
	requireToldInMemory(t, c, "is on a read-only disk")
}
