package manuscript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/linktest"
)

// Reading with the folders' real paths remembered (one reading of every
// chapter) confines exactly as resolving each path in full: links inside
// the project are followed, links out are refused, a missing file is
// fs.ErrNotExist.
func TestOpenInsideWithRealDirs(t *testing.T) {
	root := newProject(t, projectFiles{
		"manuscript/01-harbor.md": "# Harbor\n",
		"drafts/02-storm.md":      "# Storm\n",
	})
	root, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "03-secret.md"), []byte("# Secret\n"), 0o644))
	linktest.Symlink(t, filepath.Join(root, "drafts", "02-storm.md"), filepath.Join(root, "manuscript", "02-storm.md"))
	linktest.Symlink(t, filepath.Join(outside, "03-secret.md"), filepath.Join(root, "manuscript", "03-secret.md"))
	linktest.Symlink(t, outside, filepath.Join(root, "elsewhere"))
	linktest.Symlink(t, filepath.Join(root, "drafts"), filepath.Join(root, "linked"))

	tests := []struct {
		rel     string
		text    string
		refused bool
		missing bool
	}{
		{rel: "manuscript/01-harbor.md", text: "# Harbor\n"},
		{rel: "manuscript/02-storm.md", text: "# Storm\n"},
		{rel: "linked/02-storm.md", text: "# Storm\n"},
		{rel: "manuscript/03-secret.md", refused: true},
		{rel: "elsewhere/03-secret.md", refused: true},
		{rel: "manuscript/04-none.md", missing: true},
	}
	dirs := newRealDirs()
	for _, tt := range tests {
		for _, d := range []*realDirs{nil, dirs} {
			t.Run(tt.rel, func(t *testing.T) {
				text, sum, _, _, err := openInside(root, tt.rel, d, nil)
				switch {
				case tt.refused:
					assert.ErrorIs(t, err, ErrPathRefused)
				case tt.missing:
					assert.True(t, errors.Is(err, fs.ErrNotExist), "got %v", err)
				default:
					require.NoError(t, err)
					assert.Equal(t, tt.text, text)
					assert.NotZero(t, sum)
				}
			})
		}
	}
}
