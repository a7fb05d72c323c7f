package codex_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/stretchr/testify/require"
)

// TestFusedDocumentsOfACorpus compares the fused analysis with bleve's,
// and the fast reading of front matter with the YAML decoder's, over
// every entry of a generated corpus, the shape the scale benchmarks
// index.
func TestFusedDocumentsOfACorpus(t *testing.T) {
	dir := t.TempDir()
	_, err := corpus.Generate(context.Background(), dir, corpus.Options{Entries: 400, Chapters: 1, ChapterWords: 100, Seed: 7})
	require.NoError(t, err)
	check := codex.NewFusedChecker(t)
	n, fast := 0, 0
	err = filepath.WalkDir(filepath.Join(dir, "codex"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || filepath.Base(p) == "soul.md" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if codex.CheckFastFrontMatter(t, src) {
			fast++
		}
		rel, _ := filepath.Rel(dir, p)
		e, _ := codex.Parse(filepath.ToSlash(rel), src, codex.ParseType(filepath.Base(filepath.Dir(p))))
		if e != nil {
			check(e)
			n++
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 300)
	require.Equal(t, n, fast, "every generated entry's front matter is read fast")
}
