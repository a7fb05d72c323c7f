package manuscript

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// oddChapter is a chapter named as a URL would escape it; Windows allows
// no "?" in a file name, so there it goes without one.
var oddChapter = func() string {
	if runtime.GOOS == "windows" {
		return "manuscript/07-ch%20#.md"
	}
	return "manuscript/07-ch%20#?.md"
}()

// utf16LE is s as UTF-16, little end first, with no byte-order mark:
// what some exports save.
func utf16LE(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// Chapters quire finds but cannot read, or reads with a flaw, are said
// where they are found: none vanishes from the book with only a log
// line, and none is handed on misread.
func TestChaptersFoundButUnreadableAreSaid(t *testing.T) {
	ctx := context.Background()
	files := projectFiles{
		"manuscript/01-dawn.md": chapterText("Dawn", "Dawn."),
		// A name a URL would escape is a file name like any other.
		oddChapter: chapterText("Seven", "The seventh."),
		// UTF-16 without a mark: NULs between the letters.
		"manuscript/08-wide.md": utf16LE(chapterText("Wide", "Mara sailed.")),
		// Latin-1 bytes: read, with the bad byte said.
		"manuscript/09-latin.md": "# Caf\xe9\n\nThey met at the caf\xe9.\n",
		// Classic Mac line ends: its front matter and heading read.
		"manuscript/10-mac.md": "---\rpov: Mara\rday: 3\r---\r# Harbor\r\rMara waited.\r",
	}
	if runtime.GOOS != "windows" {
		files["manuscript/11-new\nline.md"] = chapterText("Eleven", "The eleventh.")
	}
	root := newProject(t, files)
	m := openProject(t, root, Options{})
	s := m.Snapshot()

	want := []string{"manuscript/01-dawn.md", oddChapter, "manuscript/09-latin.md", "manuscript/10-mac.md"}
	if runtime.GOOS != "windows" {
		want = append(want, "manuscript/11-new\nline.md")
	}
	assert.Equal(t, want, paths(s.Units()))

	un := s.Unreadable()
	assert.Equal(t, []string{"manuscript/08-wide.md"}, problemPaths(un), "the binary-looking chapter is left out and said")
	assert.Equal(t, []string{codex.CodeBinary}, problemCodes(un))
	assert.Contains(t, un[0].Message, "UTF-8")
	assert.Equal(t, codex.SeverityError, un[0].Severity)

	latin, _ := s.Unit("manuscript/09-latin.md")
	assert.Equal(t, []string{codex.CodeEncoding}, problemCodes(latin.Meta.Problems))
	assert.Equal(t, codex.Range{Start: 5, End: 6}, latin.Meta.Problems[0].Range, "at the first bad byte")

	mac, _ := s.Unit("manuscript/10-mac.md")
	assert.Equal(t, "Mara", mac.Meta.POV)
	assert.Equal(t, 3, mac.Meta.Day)
	assert.Equal(t, "Harbor", mac.Title)
	assert.Equal(t, 3, mac.Words, "the front matter is not prose")
	assert.Empty(t, mac.Meta.Problems)

	seven, _ := s.Unit(oddChapter)
	assert.Equal(t, 7, seven.Number)
	assert.Empty(t, seven.Meta.Problems)

	if runtime.GOOS != "windows" {
		nl, _ := s.Unit("manuscript/11-new\nline.md")
		assert.Equal(t, []string{codex.CodeFileName}, problemCodes(nl.Meta.Problems))
		assert.Contains(t, nl.Meta.Problems[0].Message, `11-new\nline.md`, "the name is printed escaped")
	}

	// Saved again as UTF-8, the chapter joins and its problem goes.
	writeFile(t, root, "manuscript/08-wide.md", chapterText("Wide", "Mara sailed."))
	changed, err := m.Refresh(ctx, []string{"manuscript/08-wide.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Empty(t, m.Snapshot().Unreadable())
	_, ok := m.Snapshot().Unit("manuscript/08-wide.md")
	assert.True(t, ok)

	// Broken again by a later save, it leaves and is said again; and an
	// edit elsewhere keeps what is said.
	writeFile(t, root, "manuscript/08-wide.md", utf16LE("# Wide"))
	_, err = m.Refresh(ctx, []string{"manuscript/08-wide.md"})
	require.NoError(t, err)
	writeFile(t, root, "manuscript/01-dawn.md", chapterText("Dawn", "Dawn again."))
	_, err = m.Refresh(ctx, []string{"manuscript/01-dawn.md"})
	require.NoError(t, err)
	assert.Equal(t, []string{"manuscript/08-wide.md"}, problemPaths(m.Snapshot().Unreadable()))

	// Deleted, it is no longer said.
	require.NoError(t, os.Remove(filepath.Join(root, "manuscript", "08-wide.md")))
	_, err = m.Refresh(ctx, []string{"manuscript/08-wide.md"})
	require.NoError(t, err)
	assert.Empty(t, m.Snapshot().Unreadable())
}

// What a chapter's flaws are survives the chapter cache: a warm start
// says the same as a cold one.
func TestChapterProblemsSurviveTheCache(t *testing.T) {
	root := newProject(t, projectFiles{
		"manuscript/09-latin.md": "# Caf\xe9\n\nThey met.\n",
		"manuscript/10-mac.md":   "---\rpov: Mara\r---\r# Harbor\r\rMara waited.\r",
	})
	cache := filepath.Join(t.TempDir(), "chapters.bin")
	m := openProject(t, root, Options{ChapterCache: cache})
	require.NoError(t, m.SaveCache())
	warm := openProject(t, root, Options{ChapterCache: cache})
	for _, rel := range []string{"manuscript/09-latin.md", "manuscript/10-mac.md"} {
		a, _ := m.Snapshot().Unit(rel)
		b, _ := warm.Snapshot().Unit(rel)
		assert.Equal(t, a.Meta, b.Meta, rel)
		assert.Equal(t, a.Title, b.Title, rel)
		assert.Equal(t, a.Text, b.Text, rel)
	}
	assert.Positive(t, warm.Snapshot().cache.hitCount(), "read from the cache")
}
