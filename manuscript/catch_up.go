package manuscript

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/quire-ink/quire/codex"
)

// CatchUp reads again the chapters whose files changed since they were
// read, and takes in the chapters that appeared or went meanwhile. A
// watcher reports only what happens once it is armed: a chapter written
// between the book's opening and that moment (an editor saving at once,
// a slow start under Wine) would otherwise stay as it was first read
// until its next change. It costs one stat per chapter; chapters with
// the editor's text are the editor's and left alone. It returns the
// paths it looked at again.
func (m *Manuscript) CatchUp(ctx context.Context) ([]string, error) {
	ig := codex.ParseIgnore(readGitignore(m.root))
	paths, _, err := discover(ctx, m.root, *m.globs.Load(), ig)
	if err != nil {
		return nil, err
	}
	snap := m.snap.Load()
	onDisk := make(map[string]bool, len(paths))
	var changed []string
	for _, rel := range paths {
		onDisk[rel] = true
		u, ok := snap.byPath[rel]
		if ok && u.Version != 0 {
			continue
		}
		if ok {
			info, err := os.Stat(filepath.Join(m.root, filepath.FromSlash(rel)))
			if err == nil && codex.StampOf(info) == u.stamp {
				continue
			}
		}
		changed = append(changed, rel)
	}
	for rel, u := range snap.byPath {
		if !onDisk[rel] && u.Version == 0 {
			changed = append(changed, rel)
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	slices.Sort(changed)
	_, err = m.Refresh(ctx, changed)
	return changed, err
}
