package codex

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// eachMarkdownFile calls fn with the path and bytes of every .md file
// under roots, in walk order: the sample book and the parser's test
// files that several readers are checked against.
func eachMarkdownFile(t *testing.T, roots []string, fn func(path string, src []byte)) {
	t.Helper()
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fn(p, src)
			return nil
		})
		require.NoError(t, err)
	}
}
