package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/codex/disktest"
)

// The repro: a 256 KB disk as the user cache and `quire index`
// on 5,000 entries panicked with exit 2 (issue 14, item 2).
func TestIndexOnAFullCacheDisk(t *testing.T) {
	disk := disktest.SmallDisk(t, "256k", false)
	c, err := corpus.Generate(context.Background(), filepath.Join(t.TempDir(), "book"),
		corpus.Options{Entries: 5000, Chapters: 1, ChapterWords: 50})
	require.NoError(t, err)

	stdout, stderr, code := runWithCache(t, disk, "index", "--project", c.Root)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, "Indexed 5000 codex entries")
	assert.Contains(t, stdout, "Index: in memory")
	requireMemoryWarning(t, stderr, "is on a full disk")

	name := c.Entries[0].Name
	stdout, stderr, code = runWithCache(t, disk, "lookup", "--project", c.Root, name)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, name)
	requireMemoryWarning(t, stderr, "is on a full disk")
}

// A read-only cache disk (issue 14, item 11).
func TestCommandsWorkOnAReadOnlyCacheDisk(t *testing.T) {
	disk := disktest.SmallDisk(t, "1m", true)
	book, _ := sampleProject(t)
	requireCommandsWorkInMemory(t, book, disk, "is on a read-only disk", "Teodora Quill")
}

// explicate keeps the manuscript's paragraphs in the same cache: a codex
// that fits the disk and chapters that do not made bleve panic in the
// passage index's workers. Now explicate answers from memory and warns.
func TestExplicateOnAFullCacheDisk(t *testing.T) {
	disk := disktest.SmallDisk(t, "1m", false)
	c, err := corpus.Generate(context.Background(), filepath.Join(t.TempDir(), "book"),
		corpus.Options{Entries: 50, Chapters: 150})
	require.NoError(t, err)

	stdout, stderr, code := runWithCache(t, disk, "explicate", "--project", c.Root, "the tide lamp by the harbor")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, "manuscript/")
	assert.NotContains(t, stderr, "panic")
	assert.Contains(t, stderr, "quire: warning: quire's manuscript index could not be saved")
	assert.Contains(t, stderr, "keeps it in memory")
}
