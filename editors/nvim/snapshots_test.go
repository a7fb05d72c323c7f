package nvim_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/stretchr/testify/require"
)

// TestNeovimSnapshots is the writer who deletes a paragraph, saves, and
// takes it back from the chapter's snapshots in a diff split
// (test/snapshots.lua), then restores a whole version with :QuireRestore.
func TestNeovimSnapshots(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	chapter := filepath.Join(book, sampleChapter)
	_, lost := editortest.LongParagraph(t, chapter)
	run, report := scriptRun{script: "snapshots.lua", dir: book, tmp: tmp,
		env:   []string{"QUIRE_BIN=" + bin, "QUIRE_CHAPTER=" + chapter, "QUIRE_PARAGRAPH=" + lost},
		steps: []string{"attach", "delete-and-save", "diff-split", "diffget", "restore"},
	}.run(t, nvim)
	require.False(t, strings.Contains(run.Result, "FAIL"), report())
}
