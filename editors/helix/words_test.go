package helix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/manuscript"
)

// TestHelixWordCounts: in a chapter of the sample book with a daily
// goal, space a offers "Word counts and goals", and choosing it shows
// the chapter's count and the book's in the status line, in the
// writer's words: Helix has no code lens, so this is where it reads them.
func TestHelixWordCounts(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "words")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\ngoals:\n  daily: 500\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	data, err := os.ReadFile(filepath.Join(book, chapter))
	require.NoError(t, err)
	words := count.Number(manuscript.ChapterWords(string(data)))

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1",
		book:    book, chapter: chapter})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	offered := showsAll("Word counts and goals")
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", "\"Word counts and goals\" in the code action menu", offered)
	term.pick("pick-words", "Word counts and goals")
	term.waitFor("message", "the chapter's count in the status line", showsAll("Thirteen Strokes: "+words+" words."))
	screen := term.screen(false)
	for _, code := range []string{"-32", "jsonrpc", "quire/stats", "quire.wordCounts"} {
		if strings.Contains(screen, code) {
			t.Fatalf("the message shows %q, which is not for a writer:\n%s", code, screen)
		}
	}
}
