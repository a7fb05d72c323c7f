package helix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestHelixSnapshots is the writer who deletes a paragraph and saves,
// then takes it back as Helix lets them: space a where it was, "quire:
// Restore the paragraph here as of …", then :w. quire kept the save on
// its own; the paragraph is back on screen and, saved, on disk.
func TestHelixSnapshots(t *testing.T) {
	tools := findHelix(t)
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "snapshots")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	_, para := editortest.LongParagraph(t, filepath.Join(book, chapter))
	// What the screen shows of it: its first words, before Helix wraps.
	shown := para[:40]

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1", book: book, chapter: chapter,
		extraPath: []string{filepath.Dir(bin)}})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))
	term.waitFor("shown", "the paragraph on screen", showsAll(shown))

	// The paragraph and the blank line after it go, and the chapter is
	// saved.
	term.keys("/")
	term.text(shown)
	term.keys("Enter", "x", "x", "d")
	term.command("w")
	term.waitFor("deleted", "the paragraph gone and the chapter saved", func(screen string) bool {
		return !strings.Contains(screen, shown) && strings.Contains(screen, "written")
	})

	// Where it was: the code action, offered once quire kept the save.
	const prefix = "quire: Restore the paragraph here as of"
	offered := showsAll(prefix)
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", "the restore in the code action menu", offered)
	term.pick("pick-restore", prefix)
	term.waitFor("restored", "the paragraph back on screen", showsAll(shown))

	term.command("w")
	require.Eventually(t, func() bool {
		now, err := os.ReadFile(filepath.Join(book, chapter))
		return err == nil && strings.Contains(string(now), para)
	}, 20*time.Second, 100*time.Millisecond, "the paragraph back in the file after :w\n%s", term.report())
}
