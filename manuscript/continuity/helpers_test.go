package continuity

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// openBook reads the book at root: its codex parsed file by file, its
// manuscript opened as the server opens it.
func openBook(t testing.TB, root string, opts Options) (*Timeline, *manuscript.Snapshot) {
	return openBookEdited(t, root, opts, nil)
}

// openBookEdited is openBook with each codex file's text passed through
// edit before it is parsed.
func openBookEdited(t testing.TB, root string, opts Options, edit func(rel string, src []byte) []byte) (*Timeline, *manuscript.Snapshot) {
	t.Helper()
	canon, m := openManuscript(t, root, opts, edit)
	snap := m.Snapshot()
	return NewTimeline(canon, snap), snap
}

// openManuscript reads the book at root as openBookEdited does, and
// returns its canon and its manuscript, for a test to edit chapters.
func openManuscript(t testing.TB, root string, opts Options, edit func(rel string, src []byte) []byte) (*Canon, *manuscript.Manuscript) {
	t.Helper()
	var entries []*codex.Entry
	err := filepath.WalkDir(filepath.Join(root, "codex"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" || d.Name() == "soul.md" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		var typ codex.Type
		for dir := path.Dir(rel); dir != "." && typ == ""; dir = path.Dir(dir) {
			typ, _ = codex.TypeFromFolder(path.Base(dir))
		}
		if edit != nil {
			src = edit(rel, src)
		}
		if e, _ := codex.Parse(rel, src, typ); e != nil {
			entries = append(entries, e)
		}
		return nil
	})
	require.NoError(t, err)
	cat := codex.NewCatalog(entries, nil)
	m, err := manuscript.Open(context.Background(), root, manuscript.Options{})
	require.NoError(t, err)
	// The chapters are scanned for the canon's names, as the server and
	// the command line scan them, so the checks reuse that scan.
	canon := NewCanon(cat, opts)
	m.SetMatcher(canon.Matcher())
	return canon, m
}

// writeBook writes files (project-relative path → text) into a new
// folder.
func writeBook(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return root
}
