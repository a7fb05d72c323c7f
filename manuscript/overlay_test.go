package manuscript

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOverlay(t *testing.T) {
	o := NewOverlay()
	_, ok := o.Get("manuscript/01.md")
	assert.False(t, ok)
	assert.Empty(t, o.Paths())

	assert.True(t, o.Set("manuscript/01.md", "v1", 1))
	assert.True(t, o.Set("manuscript/01.md", "v3", 3))
	assert.False(t, o.Set("manuscript/01.md", "v2", 2), "a late, older version is ignored")
	d, ok := o.Get("manuscript/01.md")
	require.True(t, ok)
	assert.Equal(t, Document{Text: "v3", Version: 3}, d)

	assert.True(t, o.Set("manuscript/01.md", "v3 again", 3), "the same version is taken")
	assert.True(t, o.Set("manuscript/01.md", "unversioned", 0), "version 0 carries no order")
	d, _ = o.Get("manuscript/01.md")
	assert.Equal(t, "unversioned", d.Text)

	o.Set("notes/idea.md", "idea", 1)
	paths := o.Paths()
	slices.Sort(paths)
	assert.Equal(t, []string{"manuscript/01.md", "notes/idea.md"}, paths)

	o.Close("manuscript/01.md")
	_, ok = o.Get("manuscript/01.md")
	assert.False(t, ok)
	assert.Equal(t, []string{"notes/idea.md"}, o.Paths())
	o.Close("never/opened.md") // no-op

	// Closing forgets the version too: a reopened document starts afresh.
	o.Set("a.md", "ten", 10)
	o.Close("a.md")
	assert.True(t, o.Set("a.md", "one", 1))
}

func TestOverlayConcurrent(t *testing.T) {
	o := NewOverlay()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rel := fmt.Sprintf("manuscript/%02d.md", g%2)
			for v := range int32(200) {
				o.Set(rel, fmt.Sprint(v), v+1)
				o.Get(rel)
				o.Paths()
				if v%50 == 0 {
					o.Close(rel)
				}
			}
		})
	}
	wg.Wait()
	for _, rel := range o.Paths() {
		d, ok := o.Get(rel)
		require.True(t, ok)
		assert.Equal(t, int32(200), d.Version, "the newest version wins")
	}
}

func TestOpenDocumentReplacesDisk(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Disk text of dawn."),
		"manuscript/02-storm.md": chapterText("Storm", "Disk text of storm."),
		"codex/notes.md":         "# Notes\n\nDisk notes.\n",
	})
	m := openProject(t, root, Options{})
	before := m.Snapshot()

	require.NoError(t, m.OpenDocument(ctx, "manuscript/01-dawn.md", chapterText("Sunrise", "Editor text, not yet saved."), 3))
	s := m.Snapshot()
	u, ok := s.Unit("manuscript/01-dawn.md")
	require.True(t, ok)
	assert.Equal(t, "Sunrise", u.Title)
	assert.Contains(t, u.Text, "Editor text")
	assert.Equal(t, int32(3), u.Version)
	assert.Equal(t, 1, u.Position)
	assert.Equal(t, 6, u.Words)

	// Every read goes through the overlay: units, documents, references,
	// context and turn metadata.
	d, err := s.Document("manuscript/01-dawn.md")
	require.NoError(t, err)
	assert.Contains(t, d.Text, "Editor text")
	r, err := s.Resolve("1", Place{})
	require.NoError(t, err)
	assert.Contains(t, r.Text, "Editor text")
	r, err = s.Resolve("sunrise", Place{})
	require.NoError(t, err)
	assert.Equal(t, "manuscript/01-dawn.md", r.Path)
	c, err := s.Context([]string{"current"}, Place{Current: "manuscript/01-dawn.md"}, Limits{})
	require.NoError(t, err)
	assert.Contains(t, c.Units[0].Text, "Editor text")
	tc, ok := s.TurnContext(Place{Current: "manuscript/01-dawn.md"})
	require.True(t, ok)
	assert.Equal(t, 6, tc.DocumentWords)

	// A snapshot taken before is untouched.
	old, _ := before.Unit("manuscript/01-dawn.md")
	assert.Contains(t, old.Text, "Disk text of dawn.")
	assert.Zero(t, old.Version)

	// A stale edit is ignored.
	require.NoError(t, m.OpenDocument(ctx, "manuscript/01-dawn.md", chapterText("Stale", "Older text."), 2))
	u, _ = m.Snapshot().Unit("manuscript/01-dawn.md")
	assert.Equal(t, "Sunrise", u.Title)
	assert.Equal(t, int32(3), u.Version)

	// Closing falls back to disk.
	require.NoError(t, m.CloseDocument(ctx, "manuscript/01-dawn.md"))
	u, _ = m.Snapshot().Unit("manuscript/01-dawn.md")
	assert.Equal(t, "Dawn", u.Title)
	assert.Contains(t, u.Text, "Disk text of dawn.")
	assert.Zero(t, u.Version)
	d, err = m.Snapshot().Document("manuscript/01-dawn.md")
	require.NoError(t, err)
	assert.NotContains(t, d.Text, "Editor text")
}

func TestOpenDocumentNotAChapter(t *testing.T) {
	ctx := context.Background()
	m := openFiles(t, projectFiles{
		"manuscript/01-dawn.md": chapterText("Dawn", "Dawn."),
		"codex/notes.md":        "# Notes\n\nDisk notes.\n",
	})
	require.NoError(t, m.OpenDocument(ctx, "codex/notes.md", "# Notes\n\nEditor notes.\n", 1))
	s := m.Snapshot()
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(s.Units()), "an open document is not a chapter")
	d, err := s.Document("codex/notes.md")
	require.NoError(t, err)
	assert.Contains(t, d.Text, "Editor notes.")
	assert.Zero(t, d.Position)

	require.NoError(t, m.CloseDocument(ctx, "codex/notes.md"))
	d, err = m.Snapshot().Document("codex/notes.md")
	require.NoError(t, err)
	assert.Contains(t, d.Text, "Disk notes.")
}

func TestOpenDocumentUnsavedChapter(t *testing.T) {
	ctx := context.Background()
	root := newProject(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn."),
		"manuscript/03-storm.md": chapterText("Storm", "Storm."),
	})
	m := openProject(t, root, Options{})

	// A chapter created in the editor and never saved.
	require.NoError(t, m.OpenDocument(ctx, "manuscript/02-calm.md", chapterText("Calm", "Only in the editor."), 1))
	s := m.Snapshot()
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/02-calm.md", "manuscript/03-storm.md"}, paths(s.Units()))
	for i, u := range s.Units() {
		assert.Equal(t, i+1, u.Position, u.Path)
	}
	u, err := s.Resolve("2", Place{})
	require.NoError(t, err)
	assert.Equal(t, "Calm", u.Title)

	// A full reload keeps it: it exists, just not on disk.
	require.NoError(t, m.Reload(ctx))
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/02-calm.md", "manuscript/03-storm.md"}, paths(m.Snapshot().Units()))

	// Closed without saving, it is gone.
	require.NoError(t, m.CloseDocument(ctx, "manuscript/02-calm.md"))
	assert.Equal(t, []string{"manuscript/01-dawn.md", "manuscript/03-storm.md"}, paths(m.Snapshot().Units()))
	_, err = m.Snapshot().Resolve("2", Place{})
	assert.Error(t, err)
	assert.Equal(t, 2, m.Snapshot().Units()[1].Position)
}

func TestOpenDocumentOutsideProjectIsRefused(t *testing.T) {
	ctx := context.Background()
	m := openFiles(t, projectFiles{"manuscript/01-dawn.md": chapterText("Dawn", "Dawn.")})
	for _, rel := range []string{"../outside.md", "manuscript/../../outside.md", "/etc/passwd.md", ".git/notes.md"} {
		require.NoError(t, m.OpenDocument(ctx, rel, secretSentence, 1), rel)
		s := m.Snapshot()
		assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(s.Units()), rel)
		_, err := s.Document(rel)
		assert.ErrorIs(t, err, ErrPathRefused, rel)
		_, err = s.Resolve("current", Place{Current: rel})
		assert.ErrorIs(t, err, ErrPathRefused, rel)
	}
	require.NoError(t, m.Reload(ctx))
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()))
}

func TestOverlayReadsAreConcurrencySafe(t *testing.T) {
	ctx := context.Background()
	m := openFiles(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn."),
		"manuscript/02-storm.md": chapterText("Storm", "Storm."),
	})
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := range int32(100) {
			assert.NoError(t, m.OpenDocument(ctx, "manuscript/01-dawn.md", chapterText("Dawn", prose(int(v)+1)), v+1))
		}
	})
	wg.Go(func() {
		for range 100 {
			assert.NoError(t, m.OpenDocument(ctx, "manuscript/05-new.md", "new", 1))
			assert.NoError(t, m.CloseDocument(ctx, "manuscript/05-new.md"))
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 100 {
				s := m.Snapshot()
				units := s.Units()
				for i, u := range units {
					assert.Equal(t, i+1, u.Position)
				}
				_, _ = s.Context([]string{"1", "storm"}, Place{Current: "manuscript/01-dawn.md"}, Limits{})
			}
		})
	}
	wg.Wait()
	u, ok := m.Snapshot().Unit("manuscript/01-dawn.md")
	require.True(t, ok)
	assert.Equal(t, int32(100), u.Version)
	assert.Equal(t, 101, u.Words)
	assert.Len(t, m.Snapshot().Units(), 2)
}
