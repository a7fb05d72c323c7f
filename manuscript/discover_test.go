package manuscript

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// found opens the project with globs and lists its chapters in order.
func found(t *testing.T, files projectFiles, globs ...string) []string {
	t.Helper()
	m := openProject(t, newProject(t, files), Options{Globs: globs})
	return paths(m.Snapshot().Units())
}

// filesAt is a project holding an empty chapter at each path.
func filesAt(rels ...string) projectFiles {
	files := projectFiles{}
	for _, rel := range rels {
		files[rel] = "Text.\n"
	}
	return files
}

func TestDiscoverOrder(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  []string
	}{
		{
			name:  "numbers, not strings",
			files: []string{"manuscript/10-storm.md", "manuscript/2-calm.md", "manuscript/1-dawn.md"},
			want:  []string{"manuscript/1-dawn.md", "manuscript/2-calm.md", "manuscript/10-storm.md"},
		},
		{
			name:  "zero padding does not matter",
			files: []string{"manuscript/010-ten.md", "manuscript/9-nine.md", "manuscript/0011-eleven.md"},
			want:  []string{"manuscript/9-nine.md", "manuscript/010-ten.md", "manuscript/0011-eleven.md"},
		},
		{
			name:  "unnumbered after numbered, by name",
			files: []string{"manuscript/prologue.md", "manuscript/epilogue.md", "manuscript/2-b.md", "manuscript/1-a.md"},
			want:  []string{"manuscript/1-a.md", "manuscript/2-b.md", "manuscript/epilogue.md", "manuscript/prologue.md"},
		},
		{
			name:  "same number, then name",
			files: []string{"manuscript/3-zeta.md", "manuscript/3-alpha.md", "manuscript/1-x.md"},
			want:  []string{"manuscript/1-x.md", "manuscript/3-alpha.md", "manuscript/3-zeta.md"},
		},
		{
			name:  "case does not matter",
			files: []string{"manuscript/charlie.md", "manuscript/Bravo.md", "manuscript/alpha.md", "manuscript/Delta.md"},
			want:  []string{"manuscript/alpha.md", "manuscript/Bravo.md", "manuscript/charlie.md", "manuscript/Delta.md"},
		},
		{
			name: "numbered part folders",
			files: []string{
				"manuscript/02-part-two/01-return.md", "manuscript/02-part-two/10-end.md", "manuscript/02-part-two/2-middle.md",
				"manuscript/01-part-one/30-late.md", "manuscript/01-part-one/01-start.md",
				"manuscript/00-prologue.md",
			},
			want: []string{
				"manuscript/00-prologue.md",
				"manuscript/01-part-one/01-start.md", "manuscript/01-part-one/30-late.md",
				"manuscript/02-part-two/01-return.md", "manuscript/02-part-two/2-middle.md", "manuscript/02-part-two/10-end.md",
			},
		},
		{
			name:  "named part folders",
			files: []string{"manuscript/part-2/01-x.md", "manuscript/part-1/30-y.md", "manuscript/part-1/02-z.md"},
			want:  []string{"manuscript/part-1/02-z.md", "manuscript/part-1/30-y.md", "manuscript/part-2/01-x.md"},
		},
		{
			name:  "both extensions",
			files: []string{"manuscript/2-b.markdown", "manuscript/1-a.md"},
			want:  []string{"manuscript/1-a.md", "manuscript/2-b.markdown"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, found(t, filesAt(tt.files...)))
		})
	}
}

func TestDiscoverPositions(t *testing.T) {
	m := openFiles(t, filesAt("manuscript/10-c.md", "manuscript/2-b.md", "manuscript/1-a.md", "manuscript/notes.md"))
	for i, u := range m.Snapshot().Units() {
		assert.Equal(t, i+1, u.Position, u.Path)
	}
}

func TestDiscoverCustomGlobs(t *testing.T) {
	files := filesAt(
		"chapters/2-b.md", "chapters/1-a.md", "chapters/deep/3-c.md",
		"extra/one/x.markdown", "extra/two/three/y.markdown", "extra/z.md",
		"manuscript/1-default.md",
	)
	got := found(t, files, "chapters/*.md", "extra/**/*.markdown")
	assert.Equal(t, []string{"chapters/1-a.md", "chapters/2-b.md", "extra/one/x.markdown", "extra/two/three/y.markdown"}, got)

	// Overlapping globs list a chapter once.
	got = found(t, files, "chapters/**/*.md", "chapters/*.md", "**/1-a.md")
	assert.Equal(t, []string{"chapters/1-a.md", "chapters/2-b.md", "chapters/deep/3-c.md"}, got)

	// A glob whose folder does not exist finds nothing, and is no error.
	assert.Empty(t, found(t, files, "drafts/**/*.md"))
}

func TestDiscoverNoManuscriptFolder(t *testing.T) {
	m := openFiles(t, filesAt("codex/characters/mara.md"))
	assert.Empty(t, m.Snapshot().Units())
	assert.Zero(t, m.Snapshot().Words())
}

func TestDiscoverIgnores(t *testing.T) {
	files := filesAt(
		"manuscript/01-kept.md",
		"manuscript/.drafts/02-hidden-folder.md",
		"manuscript/.03-hidden-file.md",
		"manuscript/node_modules/04-vendored.md",
		"manuscript/old/05-ignored-folder.md",
		"manuscript/06-scratch.bak.md",
		"manuscript/07-kept-again.md",
		"manuscript/part/08-negated.bak.md",
	)
	files[".gitignore"] = "# old drafts\nmanuscript/old/\n*.bak.md\n!manuscript/part/08-negated.bak.md\n"
	assert.Equal(t, []string{"manuscript/01-kept.md", "manuscript/07-kept-again.md", "manuscript/part/08-negated.bak.md"}, found(t, files))
}

func TestDiscoverSkipsNonMarkdown(t *testing.T) {
	files := filesAt("manuscript/01-a.md", "manuscript/02-b.markdown")
	files["manuscript/03-notes.txt"] = "notes"
	files["manuscript/04-cover.png"] = "\x89PNG"
	files["manuscript/README"] = "readme"
	files["manuscript/05-c.md.orig"] = "backup"
	files["manuscript/06-folder.md/inner.txt"] = "a folder named like a chapter"
	assert.Equal(t, []string{"manuscript/01-a.md", "manuscript/02-b.markdown"}, found(t, files))
}

func TestDiscoverSymlinks(t *testing.T) {
	outside := newProject(t, projectFiles{"secret.md": "outside prose\n", "dir/9-far.md": "far\n"})
	root := newProject(t, projectFiles{
		"manuscript/01-real.md": chapterText("Real", "Real text."),
		"drafts/three.md":       chapterText("Three", "Linked from inside."),
		"drafts/part/4-x.md":    "x\n",
	})
	symlink(t, "../drafts/three.md", root, "manuscript/03-inside.md")
	symlink(t, filepath.Join(root, "drafts/three.md"), root, "manuscript/04-inside-absolute.md")
	symlink(t, filepath.Join(outside, "secret.md"), root, "manuscript/05-outside.md")
	symlink(t, "../../"+filepath.Base(outside)+"/secret.md", root, "manuscript/06-outside-relative.md")
	symlink(t, "missing.md", root, "manuscript/07-dangling.md")
	symlink(t, "../drafts", root, "manuscript/08-folder.md") // a folder, named like a chapter
	symlink(t, filepath.Join(outside, "dir"), root, "manuscript/outside-dir")
	symlink(t, "../drafts/part", root, "manuscript/inside-dir")

	m := openProject(t, root, Options{})
	assert.Equal(t, []string{"manuscript/01-real.md", "manuscript/03-inside.md", "manuscript/04-inside-absolute.md"}, paths(m.Snapshot().Units()))
	u, ok := m.Snapshot().Unit("manuscript/03-inside.md")
	require.True(t, ok)
	assert.Equal(t, "Three", u.Title)
	assert.Contains(t, u.Text, "Linked from inside.")
	for _, u := range m.Snapshot().Units() {
		assert.NotContains(t, u.Text, "outside prose")
	}
}

func TestDiscoverSymlinkedManuscriptFolderOutside(t *testing.T) {
	outside := newProject(t, projectFiles{"01-far.md": "far away prose\n"})
	root := newProject(t, projectFiles{"quire.yaml": ""})
	symlink(t, outside, root, "manuscript")
	m := openProject(t, root, Options{})
	assert.Empty(t, m.Snapshot().Units())

	// A glob whose fixed folder lies beyond a link out of the project
	// walks there, but reads none of it.
	writeFile(t, outside, "sub/02-farther.md", "farther prose\n")
	symlink(t, outside, root, "book")
	m = openProject(t, root, Options{Globs: []string{"book/sub/*.md", "book/*.md"}})
	assert.Empty(t, m.Snapshot().Units())
}

func TestDiscoverUnreadableFolder(t *testing.T) {
	root := newProject(t, filesAt("manuscript/01-a.md", "manuscript/locked/02-b.md", "manuscript/03-c.md"))
	unreadable(t, root, "manuscript/locked")
	m := openProject(t, root, Options{})
	assert.Equal(t, []string{"manuscript/01-a.md", "manuscript/03-c.md"}, paths(m.Snapshot().Units()))
}

func TestDiscoverUnreadableManuscriptFolder(t *testing.T) {
	root := newProject(t, filesAt("manuscript/01-a.md", "chapters/01-b.md"))
	unreadable(t, root, "manuscript")
	m := openProject(t, root, Options{Globs: []string{"manuscript/*.md", "chapters/*.md"}})
	assert.Equal(t, []string{"chapters/01-b.md"}, paths(m.Snapshot().Units()))
}

func TestDiscoverUnreadableChapter(t *testing.T) {
	root := newProject(t, filesAt("manuscript/01-a.md", "manuscript/02-b.md"))
	writeFile(t, root, "manuscript/02-b.md", secretSentence)
	unreadable(t, root, "manuscript/02-b.md")
	log, buf := debugLogger()
	m := openProject(t, root, Options{Logger: log})
	assert.Equal(t, []string{"manuscript/01-a.md"}, paths(m.Snapshot().Units()))
	assert.Contains(t, buf.String(), "manuscript/02-b.md")
	assert.NotContains(t, buf.String(), "lighthouse")
}

func TestDiscoverCanceled(t *testing.T) {
	root := newProject(t, filesAt("manuscript/01-a.md"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, err := compileGlob(DefaultGlobs[0])
	require.NoError(t, err)
	_, _, err = discover(ctx, root, []glob{g}, codex.ParseIgnore(""))
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Open(ctx, root, Options{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestCompareReadingOrder(t *testing.T) {
	sorted := []string{
		"manuscript/0-zero.md",
		"manuscript/1-a.md",
		"manuscript/1-B.md",
		"manuscript/2-x.markdown",
		"manuscript/2-x.md",
		"manuscript/10-a.md",
		"manuscript/100-a.md",
		"manuscript/A.md",
		"manuscript/a.md",
		"manuscript/b.md",
		"manuscript/part/1-a.md",
	}
	for i := range sorted {
		for j := range sorted {
			c := compareReadingOrder(sorted[i], sorted[j])
			switch {
			case i < j:
				assert.Negative(t, c, "%s < %s", sorted[i], sorted[j])
			case i > j:
				assert.Positive(t, c, "%s > %s", sorted[i], sorted[j])
			default:
				assert.Zero(t, c)
			}
		}
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, compareReadingOrder)
	assert.Equal(t, sorted, shuffled)
}
