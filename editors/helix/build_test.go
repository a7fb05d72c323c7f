package helix_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// buildMessage is quire's message naming the manuscript's file, as the
// status line shows it.
var buildMessage = regexp.MustCompile(`quire built the manuscript \(DOCX, manuscript preset, 5 chapters, about 4,200 words\): (\S+\.docx)`)

// TestHelixBuildManuscript builds the standard manuscript as a writer does
// in Helix: cursor on a chapter's title, space a, "quire: Build manuscript
// (DOCX)"; the status line names the file last (Helix cannot open it: the
// writer copies the path), a DOCX in quire/<book folder> of the Documents
// folder of the test's home, not in the book.
func TestHelixBuildManuscript(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "build")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	const title = "# Thirteen Strokes"
	text, err := os.ReadFile(filepath.Join(book, chapter))
	require.NoError(t, err)
	before, _, ok := strings.Cut(string(text), "\n"+title+"\n")
	require.True(t, ok, "the chapter has the heading %q", title)
	titleLine := strings.Count(before, "\n") + 2

	docs := filepath.Join(tmp, "home", "Documents")
	require.NoError(t, os.MkdirAll(docs, 0o755))
	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1", book: book, chapter: chapter,
		extraPath: []string{filepath.Dir(bin)}})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	term.keys("/")
	term.text(title)
	term.keys("Enter", ";")
	term.waitFor("on-title", fmt.Sprintf("the cursor on the title's line %d", titleLine), cursorOn(titleLine, 0))

	const action = "quire: Build manuscript (DOCX)"
	offered := showsAll(action)
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", fmt.Sprintf("%q in the code action menu", action), offered)
	term.pick("pick-build", action)

	screen := term.waitFor("build-message", "quire's message naming the manuscript's file", buildMessage.MatchString)
	file := buildMessage.FindStringSubmatch(screen)[1]
	t.Logf("the manuscript: %s", file)
	require.Equal(t, filepath.Join(docs, "quire", "book", "the-thirteenth-bell.docx"), file,
		"the manuscript is in the Documents folder")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "PK", string(data[:2]), "a DOCX is a zip")
}
