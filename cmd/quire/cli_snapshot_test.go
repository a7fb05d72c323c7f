package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/snapshot"
)

type snapshotList struct {
	Snapshots []snapshot.Version `json:"snapshots"`
	Store     snapshot.Stats     `json:"store"`
}

func listSnapshots(t *testing.T, book, cache string, args ...string) snapshotList {
	t.Helper()
	out, stderr, err := run(t, append([]string{"snapshot", "list", "--json", "--project", book, cache}, args...)...)
	require.NoError(t, err, stderr)
	var l snapshotList
	require.NoError(t, json.Unmarshal([]byte(out), &l), out)
	return l
}

// TestSnapshotsFromTheCommandLine is the writer's week: a paragraph
// deleted and saved, found in the chapter's snapshots, compared and
// restored; a chapter file deleted, found and restored; a named
// snapshot of the book. Nothing is written in the book but what
// restore writes.
func TestSnapshotsFromTheCommandLine(t *testing.T) {
	const para = "The bell rang a thirteenth time, and nobody on the quay said a word.\n\n"
	book, cache := writeBook(t, map[string]string{
		"manuscript/01-harbor.md": "# Harbor\n\nTeo walked to the Tally.\n\n" + para + "Moss followed her.\n",
		"manuscript/02-light.md":  "# Light\n\nThe lantern was dark.\n",
	})
	chapter := filepath.Join(book, "manuscript", "01-harbor.md")

	first := listSnapshots(t, book, cache)
	require.Len(t, first.Snapshots, 2, "the chapters as they are, kept at the first command")
	assert.Equal(t, 2, first.Store.Chapters)

	// The paragraph is deleted and the chapter saved.
	require.NoError(t, os.WriteFile(chapter, []byte("# Harbor\n\nTeo walked to the Tally.\n\nMoss followed her.\n"), 0o644))
	l := listSnapshots(t, book, cache, "1")
	require.Len(t, l.Snapshots, 2)
	old, now := l.Snapshots[0], l.Snapshots[1]
	assert.Equal(t, "manuscript/01-harbor.md", old.Path)
	assert.Equal(t, 14, now.Removed, "the paragraph's words")
	assert.Equal(t, 0, now.Added)

	text, _, err := run(t, "snapshot", "list", "1", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, text, old.ID)
	assert.Contains(t, text, "+0 −14")

	diff, _, err := run(t, "snapshot", "diff", old.ID, "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, diff, "0 words added, 14 words removed")
	assert.Contains(t, diff, "[-The bell rang a thirteenth time, and nobody on the quay said a word.")
	assert.NotContains(t, diff, "\x1b[", "no colour in a pipe")
	colored, _, err := run(t, "snapshot", "diff", old.ID[:5], "--color", "always", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, colored, "\x1b[31;9mThe bell rang")

	printed, _, err := run(t, "snapshot", "restore", old.ID, "--print", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, printed, para)
	data, err := os.ReadFile(chapter)
	require.NoError(t, err)
	assert.NotContains(t, string(data), para, "--print writes nothing")

	out, _, err := run(t, "snapshot", "restore", old.ID, "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "Restored manuscript/01-harbor.md")
	data, err = os.ReadFile(chapter)
	require.NoError(t, err)
	assert.Equal(t, "# Harbor\n\nTeo walked to the Tally.\n\n"+para+"Moss followed her.\n", string(data))
	l = listSnapshots(t, book, cache, "1")
	names := []string{}
	for _, v := range l.Snapshots {
		names = append(names, v.Name)
	}
	assert.Contains(t, names, "before restoring "+old.ID, "the text a restore replaced is kept first")

	// A chapter deleted by mistake.
	require.NoError(t, os.Remove(filepath.Join(book, "manuscript", "02-light.md")))
	l = listSnapshots(t, book, cache, "light")
	require.Len(t, l.Snapshots, 2)
	assert.True(t, l.Snapshots[1].Deleted)
	_, _, err = run(t, "snapshot", "restore", l.Snapshots[1].ID, "--project", book, cache)
	require.ErrorContains(t, err, "only notes that manuscript/02-light.md was deleted")
	_, _, err = run(t, "snapshot", "restore", l.Snapshots[0].ID, "--project", book, cache)
	require.NoError(t, err)
	data, err = os.ReadFile(filepath.Join(book, "manuscript", "02-light.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Light\n\nThe lantern was dark.\n", string(data))

	// A named snapshot of the book.
	out, _, err = run(t, "snapshot", "save", "before the big rewrite", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, `Kept 2 chapters as "before the big rewrite".`)
	out, _, err = run(t, "snapshot", "prune", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "Let go of 0 versions")

	_, _, err = run(t, "snapshot", "show", "zz", "--project", book, cache)
	require.ErrorContains(t, err, "at least 4 of its 8 digits")
	_, _, err = run(t, "snapshot", "show", "ffffffff", "--project", book, cache)
	require.ErrorContains(t, err, "no snapshot has the id ffffffff")

	// Nothing of quire's is in the book.
	err = filepath.WalkDir(book, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if !d.IsDir() {
			assert.True(t, strings.HasSuffix(p, ".md"), "%s in the book", p)
		}
		return nil
	})
	require.NoError(t, err)
}
