package manuscript

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{"file.md": "x"})

	_, err := Open(ctx, filepath.Join(root, "missing"), Options{})
	assert.Error(t, err)
	_, err = Open(ctx, filepath.Join(root, "file.md"), Options{})
	assert.ErrorContains(t, err, "not a folder")
	_, err = Open(ctx, root, Options{Globs: []string{"../elsewhere/*.md"}})
	assert.ErrorContains(t, err, "inside the project")
	_, err = Open(ctx, root, Options{Globs: []string{"manuscript/[.md"}})
	assert.Error(t, err)
}

func TestOpenRootThroughSymlink(t *testing.T) {
	root := newProject(t, projectFiles{"manuscript/01-a.md": chapterText("A", "Text.")})
	link := filepath.Join(t.TempDir(), "book")
	symlink(t, root, filepath.Dir(link), filepath.Base(link))

	m := openProject(t, link, Options{})
	assert.Equal(t, root, m.Root(), "the root is kept without symlinks")
	assert.Equal(t, root, m.Snapshot().Root())
	assert.Equal(t, []string{"manuscript/01-a.md"}, paths(m.Snapshot().Units()))

	// A relative root is made absolute.
	t.Chdir(filepath.Dir(root))
	m = openProject(t, filepath.Base(root), Options{})
	assert.Equal(t, root, m.Root())
}

func TestIsChapter(t *testing.T) {
	m := openProject(t, newProject(t, nil), Options{})
	tests := map[string]bool{
		"manuscript/01.md":            true,
		"manuscript/part/01.markdown": true,
		"manuscript/01.txt":           false,
		"codex/characters/mara.md":    false,
		"01.md":                       false,
		"manuscript":                  false,
	}
	for rel, want := range tests {
		assert.Equal(t, want, m.IsChapter(rel), rel)
	}

	custom := openProject(t, newProject(t, nil), Options{Globs: []string{"chapters/*.md"}})
	assert.True(t, custom.IsChapter("chapters/01.md"))
	assert.False(t, custom.IsChapter("chapters/deep/01.md"))
	assert.False(t, custom.IsChapter("manuscript/01.md"))
}

func TestRefresh(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn text."),
		"manuscript/03-storm.md": chapterText("Storm", "Storm text."),
		"codex/mara.md":          "# Mara\n",
	})
	m := openProject(t, root, Options{})
	first := m.Snapshot()

	// Added: a new file joins in reading order.
	writeFile(t, root, "manuscript/02-calm.md", chapterText("Calm", "Calm text here."))
	changed, err := m.Refresh(ctx, []string{"manuscript/02-calm.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	s := m.Snapshot()
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/02-calm.md", "manuscript/03-storm.md"}, paths(s.Units()))
	storm, _ := s.Unit("manuscript/03-storm.md")
	assert.Equal(t, 3, storm.Position, "positions follow")
	assert.Equal(t, 1+2+1+3+1+2, s.Words())

	// The earlier snapshot is immutable.
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/03-storm.md"}, paths(first.Units()))
	oldStorm, _ := first.Unit("manuscript/03-storm.md")
	assert.Equal(t, 2, oldStorm.Position)

	// Changed.
	writeFile(t, root, "manuscript/01-dawn.md", chapterText("Daybreak", "New dawn text."))
	changed, err = m.Refresh(ctx, []string{"manuscript/01-dawn.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	u, _ := m.Snapshot().Unit("manuscript/01-dawn.md")
	assert.Equal(t, "Daybreak", u.Title)
	assert.Equal(t, 4, u.Words)

	// Unchanged: nothing to publish.
	s = m.Snapshot()
	changed, err = m.Refresh(ctx, []string{"manuscript/01-dawn.md", "manuscript/03-storm.md"})
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Same(t, s, m.Snapshot())

	// Not chapters: ignored.
	writeFile(t, root, "codex/mara.md", "# Mara changed\n")
	writeFile(t, root, "manuscript/notes.txt", "notes")
	changed, err = m.Refresh(ctx, []string{"codex/mara.md", "manuscript/notes.txt", "../outside.md"})
	require.NoError(t, err)
	assert.False(t, changed)

	// Deleted.
	removeFile(t, root, "manuscript/02-calm.md")
	changed, err = m.Refresh(ctx, []string{"manuscript/02-calm.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/03-storm.md"}, paths(m.Snapshot().Units()))
	storm, _ = m.Snapshot().Unit("manuscript/03-storm.md")
	assert.Equal(t, 2, storm.Position)

	// Deleting what was never there changes nothing.
	changed, err = m.Refresh(ctx, []string{"manuscript/09-never.md"})
	require.NoError(t, err)
	assert.False(t, changed)

	// A batch: one added, one changed, one deleted.
	writeFile(t, root, "manuscript/part-2/01-return.md", chapterText("Return", "Back."))
	writeFile(t, root, "manuscript/03-storm.md", chapterText("Tempest", "Wind."))
	removeFile(t, root, "manuscript/01-dawn.md")
	changed, err = m.Refresh(ctx, []string{"manuscript/part-2/01-return.md", "manuscript/03-storm.md", "manuscript/01-dawn.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	s = m.Snapshot()
	assert.Equal(t, []string{"manuscript/03-storm.md", "manuscript/part-2/01-return.md"}, paths(s.Units()))
	assert.Equal(t, "Tempest", s.Units()[0].Title)
	assert.Equal(t, []int{1, 2}, []int{s.Units()[0].Position, s.Units()[1].Position})

	// A full reload agrees with the refreshes.
	require.NoError(t, m.Reload(ctx))
	assert.Equal(t, paths(s.Units()), paths(m.Snapshot().Units()))
}

func TestRefreshKeepsIgnoredOut(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		".gitignore":            "manuscript/old/\n*.bak.md\n",
		"manuscript/01-dawn.md": chapterText("Dawn", "Dawn."),
	})
	m := openProject(t, root, Options{})
	for _, rel := range []string{"manuscript/old/02-x.md", "manuscript/03-y.bak.md", "manuscript/.hidden/04-z.md", "manuscript/node_modules/05.md"} {
		writeFile(t, root, rel, chapterText("Ignored", "Ignored."))
		changed, err := m.Refresh(ctx, []string{rel})
		require.NoError(t, err)
		assert.False(t, changed, rel)
		// An open document in an ignored place stays out of the manuscript too.
		require.NoError(t, m.OpenDocument(ctx, rel, chapterText("Ignored", "Ignored."), 1))
	}
	require.NoError(t, m.Reload(ctx))
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()))
}

func TestRefreshSymlinks(t *testing.T) {
	ctx := context.Background()
	outside := newProject(t, projectFiles{"secret.md": secretSentence + "\n"})
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md": chapterText("Dawn", "Dawn."),
		"drafts/two.md":         chapterText("Two", "Two."),
	})
	m := openProject(t, root, Options{})

	symlink(t, filepath.Join(outside, "secret.md"), root, "manuscript/05-out.md")
	changed, err := m.Refresh(ctx, []string{"manuscript/05-out.md"})
	require.NoError(t, err)
	assert.False(t, changed, "a link out of the project never joins")

	symlink(t, "../drafts/two.md", root, "manuscript/02-two.md")
	changed, err = m.Refresh(ctx, []string{"manuscript/02-two.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/02-two.md"}, paths(m.Snapshot().Units()))

	// A chapter replaced by a link that leaves the project leaves too.
	removeFile(t, root, "manuscript/01-dawn.md")
	symlink(t, filepath.Join(outside, "secret.md"), root, "manuscript/01-dawn.md")
	changed, err = m.Refresh(ctx, []string{"manuscript/01-dawn.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"manuscript/02-two.md"}, paths(m.Snapshot().Units()))
}

func TestRefreshUnreadableChapterSparesTheBatch(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn."),
		"manuscript/02-storm.md": chapterText("Storm", "Storm."),
	})
	m := openProject(t, root, Options{})
	writeFile(t, root, "manuscript/01-dawn.md", chapterText("Daybreak", "Changed."))
	unreadable(t, root, "manuscript/02-storm.md")
	writeFile(t, root, "manuscript/03-calm.md", chapterText("Calm", "Added."))

	changed, err := m.Refresh(ctx, []string{"manuscript/02-storm.md", "manuscript/01-dawn.md", "manuscript/03-calm.md"})
	require.NoError(t, err)
	assert.True(t, changed)
	s := m.Snapshot()
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/03-calm.md"}, paths(s.Units()))
	assert.Equal(t, "Daybreak", s.Units()[0].Title)
}

func TestRefreshCanceled(t *testing.T) {
	root := newProject(t, projectFiles{"manuscript/01-dawn.md": chapterText("Dawn", "Dawn.")})
	m := openProject(t, root, Options{})
	writeFile(t, root, "manuscript/02-new.md", "new")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	changed, err := m.Refresh(ctx, []string{"manuscript/02-new.md"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, changed)
	assert.Len(t, m.Snapshot().Units(), 1)
	assert.ErrorIs(t, m.Reload(ctx), context.Canceled)
}

func TestReload(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{"manuscript/01-dawn.md": chapterText("Dawn", "Dawn.")})
	m := openProject(t, root, Options{})
	writeFile(t, root, "manuscript/02-new.md", chapterText("New", "New."))
	removeFile(t, root, "manuscript/01-dawn.md")
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()), "disk changes wait for a reload")
	require.NoError(t, m.Reload(ctx))
	assert.Equal(t, []string{"manuscript/02-new.md"}, paths(m.Snapshot().Units()))
}

func TestReloadManyChapters(t *testing.T) {
	files := projectFiles{}
	var want []string
	for i := 1; i <= 120; i++ {
		rel := filepath.ToSlash(filepath.Join("manuscript", "part", strconv.Itoa(i)+"-ch.md"))
		files[rel] = chapterText("Chapter "+strconv.Itoa(i), prose(i))
		want = append(want, rel)
	}
	m := openFiles(t, files)
	s := m.Snapshot()
	assert.Equal(t, want, paths(s.Units()))
	total := 0
	for i, u := range s.Units() {
		assert.Equal(t, i+1, u.Number)
		assert.Equal(t, i+1, u.Position)
		assert.Equal(t, i+3, u.Words) // "Chapter N" and N words
		total += u.Words
	}
	assert.Equal(t, total, s.Words())
}

func TestLogsCarryNoProse(t *testing.T) {
	ctx := context.Background()
	log, buf := debugLogger()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", secretSentence),
		"manuscript/02-storm.md": chapterText("Storm", secretSentence),
	})
	m := openProject(t, root, Options{Logger: log})
	require.NoError(t, m.OpenDocument(ctx, "manuscript/03-new.md", secretSentence, 1))
	writeFile(t, root, "manuscript/01-dawn.md", chapterText("Dawn", secretSentence+" Again."))
	_, err := m.Refresh(ctx, []string{"manuscript/01-dawn.md"})
	require.NoError(t, err)
	removeFile(t, root, "manuscript/02-storm.md")
	require.NoError(t, m.Reload(ctx))
	require.NoError(t, m.CloseDocument(ctx, "manuscript/03-new.md"))
	assert.NotEmpty(t, buf.String())
	assert.NotContains(t, buf.String(), "lighthouse")
}

func TestSetGlobs(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md": chapterText("Dawn", "Dawn."),
		"draft/01-storm.md":     chapterText("Storm", "Storm."),
	})
	m := openProject(t, root, Options{})
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()))
	require.NoError(t, m.SetGlobs(ctx, []string{"draft/*.md"}))
	assert.Equal(t, []string{"draft/01-storm.md"}, paths(m.Snapshot().Units()))
	assert.True(t, m.IsChapter("draft/02-calm.md"))
	assert.False(t, m.IsChapter("manuscript/01-dawn.md"))
	require.NoError(t, m.SetGlobs(ctx, nil))
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()), "none means the default")
	require.Error(t, m.SetGlobs(ctx, []string{"  "}))
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()), "a bad glob changes nothing")
}

func TestGlobsFromText(t *testing.T) {
	for _, tt := range []struct {
		yaml string
		want []string
		err  string
	}{
		{yaml: "", want: nil},
		{yaml: "manuscript: draft/**/*.md\n", want: []string{"draft/**/*.md"}},
		{yaml: "manuscript: [a/*.md, b/*.md]\n", want: []string{"a/*.md", "b/*.md"}},
		{yaml: "manuscript: ['  ']\n", err: "empty"},
		{yaml: "manuscript: [\n", err: "quire.yaml"},
	} {
		got, err := GlobsFromText([]byte(tt.yaml))
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.yaml)
			continue
		}
		require.NoError(t, err, tt.yaml)
		assert.Equal(t, tt.want, got)
	}
}
