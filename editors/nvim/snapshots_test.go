package nvim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNeovimSnapshots is the writer who deletes a paragraph, saves, and
// takes it back from the chapter's snapshots in a diff split
// (test/snapshots.lua), then restores a whole version with :QuireRestore.
func TestNeovimSnapshots(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	chapter := filepath.Join(book, sampleChapter)
	data, err := os.ReadFile(chapter)
	require.NoError(t, err)
	// A paragraph of the chapter, a line of its own followed by a blank.
	var lost string
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if i > 8 && len(l) > 80 && i+1 < len(lines) && lines[i+1] == "" {
			lost = l
			break
		}
	}
	require.NotEmpty(t, lost)
	run, report := scriptRun{script: "snapshots.lua", dir: book, tmp: tmp,
		env:   []string{"QUIRE_BIN=" + bin, "QUIRE_CHAPTER=" + chapter, "QUIRE_PARAGRAPH=" + lost},
		steps: []string{"attach", "delete-and-save", "diff-split", "diffget", "restore"},
	}.run(t, nvim)
	require.False(t, strings.Contains(run.Result, "FAIL"), report())
}
