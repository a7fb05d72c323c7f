package codex

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/linktest"
)

// Generous bounds for effects that happen asynchronously (the watcher).
// They only matter when a test fails; nothing asserts a duration.
const (
	waitFor = 10 * time.Second
	tick    = 10 * time.Millisecond
)

// projectFiles maps project-relative, slash-separated paths to contents.
type projectFiles map[string]string

// newProject writes files into a fresh temporary folder and returns it.
func newProject(t *testing.T, files projectFiles) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

func writeFiles(t *testing.T, root string, files projectFiles) {
	t.Helper()
	for rel, content := range files {
		writeFile(t, root, rel, content)
	}
}

// writeFile writes one file, creating its folders.
func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// removeAll deletes rel as a writer would. On Windows a folder whose
// files another program still has open is not deleted until they are
// closed (where deletes are not POSIX-style, as in Wine): the watcher
// holds the folders it watches until it hears of their deletion, so the
// delete is tried again for a while there, as Explorer does.
func removeAll(t *testing.T, root, rel string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	err := os.RemoveAll(path)
	for deadline := time.Now().Add(5 * time.Second); err != nil && runtime.GOOS == "windows" && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		err = os.RemoveAll(path)
	}
	if err != nil && runtime.GOOS == "windows" && os.Getenv("QUIRE_UNDER_WINE") != "" {
		// Windows 10 and later delete POSIX-style (Go asks for it), so a
		// folder the watcher holds open (fsnotify shares it for deletion)
		// goes at once; Wine 8.0 has no such delete and keeps the tree.
		// What this case checks cannot happen there: say so, not pass.
		t.Skipf("Wine cannot delete a folder the watcher holds open (%v); this case needs Windows itself", err)
	}
	require.NoError(t, err)
}

func renamePath(t *testing.T, root, from, to string) {
	t.Helper()
	dst := filepath.Join(root, filepath.FromSlash(to))
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.Rename(filepath.Join(root, filepath.FromSlash(from)), dst))
}

func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	linktest.Symlink(t, target, p)
}

// entryMD is a codex entry file: front matter lines, then a body.
func entryMD(frontMatter, body string) string {
	return "---\n" + strings.TrimSpace(frontMatter) + "\n---\n" + body
}

// entryNamed is the smallest entry file: a name and a one-line body.
func entryNamed(name string) string {
	return entryMD("name: "+name, "# "+name+"\n\n"+name+" is part of the canon.\n")
}

// openStore opens a store on root and closes it when the test ends. A
// store that is not in memory gets its own cache folder.
func openStore(t *testing.T, root string, opts Options) *Store {
	t.Helper()
	if !opts.InMemory && opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	s, err := Open(context.Background(), root, opts)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

// memStore opens an in-memory store on root.
func memStore(t *testing.T, root string) *Store {
	t.Helper()
	return openStore(t, root, Options{InMemory: true})
}

// reopen opens the project again with the same cache folder, after the
// caller closed the previous store.
func reopen(t *testing.T, root, cacheDir string) *Store {
	t.Helper()
	return openStore(t, root, Options{CacheDir: cacheDir})
}

// entryIDs lists a catalog's entry IDs, sorted.
func entryIDs(c *Catalog) []string {
	out := make([]string, 0, c.Len())
	for _, e := range c.All() {
		out = append(out, e.ID)
	}
	slices.Sort(out)
	return out
}

// entryTypes maps a catalog's entry IDs to their types.
func entryTypes(c *Catalog) map[string]Type {
	out := make(map[string]Type, c.Len())
	for _, e := range c.All() {
		out[e.ID] = e.Type
	}
	return out
}

// resultIDs lists result paths in result order.
func resultIDs(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.RelativePath
	}
	return out
}

func resultNames(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

// codesIn lists the problem codes reported for one file.
func codesIn(c *Catalog, path string) []string {
	var out []string
	for _, p := range c.ProblemsIn(path) {
		out = append(out, p.Code)
	}
	return out
}

// fileSnapshot is what a file looked like: enough to tell any write.
type fileSnapshot struct {
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	Hash    [sha256.Size]byte
	Link    string
}

// snapshotTree records every path under root, without following links.
func snapshotTree(t *testing.T, root string) map[string]fileSnapshot {
	t.Helper()
	out := map[string]fileSnapshot{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		snap := fileSnapshot{Mode: info.Mode(), ModTime: info.ModTime()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			snap.Link, err = os.Readlink(p)
		case info.Mode().IsRegular():
			var data []byte
			data, err = os.ReadFile(p)
			snap.Size, snap.Hash = int64(len(data)), sha256.Sum256(data)
		}
		out[filepath.ToSlash(rel)] = snap
		return err
	})
	require.NoError(t, err)
	return out
}

// stateFiles are the cache folder's files other than the stamp and the
// index: the persisted catalog, whatever its format.
func stateFiles(t *testing.T, cacheDir string) []string {
	t.Helper()
	list, err := os.ReadDir(cacheDir)
	require.NoError(t, err)
	var out []string
	for _, de := range list {
		if de.Type().IsRegular() && de.Name() != metaName {
			out = append(out, filepath.Join(cacheDir, de.Name()))
		}
	}
	require.NotEmpty(t, out, "the cache folder holds no state file")
	return out
}

// watchRecorder runs Store.Watch for a test and records what it reports.
type watchRecorder struct {
	mu      sync.Mutex
	changes []Change
}

func (w *watchRecorder) record(ch Change) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.changes = append(w.changes, ch)
}

func (w *watchRecorder) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.changes = nil
}

// updated and removed collect the IDs of every change reported so far.
func (w *watchRecorder) updated() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, ch := range w.changes {
		out = append(out, ch.Updated...)
	}
	return out
}

func (w *watchRecorder) removed() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, ch := range w.changes {
		out = append(out, ch.Removed...)
	}
	return out
}

func (w *watchRecorder) all() []Change {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.changes)
}

// Names in a cache folder that the tests rely on: the stamp and the
// index. Everything else in it is the persisted state.
const (
	metaName  = "meta.json"
	indexName = "index.bleve"
)

// isBelow reports whether path p lies inside folder dir.
func isBelow(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// probeID is the file startWatch writes to learn that the watcher runs.
const probeID = "quire-watch-probe.md"

// startWatch runs s.Watch until the test ends and returns once the
// watcher demonstrably applies changes: a probe file written and removed
// came and went in the catalog. Register it after openStore so that the
// watcher stops before the store closes.
func startWatch(t *testing.T, s *Store) *watchRecorder {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRecorder{}
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, w.record) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err, "Watch")
		case <-time.After(waitFor):
			t.Error("Watch did not return after its context ended")
		}
	})

	writeFile(t, s.Root(), probeID, entryMD("type: concept\nname: Watch Probe", "probe\n"))
	eventually(t, "the watcher never picked up its probe file", func(c *assert.CollectT) {
		_, ok := s.Catalog().Get(probeID)
		assert.True(c, ok)
	})
	removeAll(t, s.Root(), probeID)
	eventually(t, "the watcher never dropped its probe file", func(c *assert.CollectT) {
		_, ok := s.Catalog().Get(probeID)
		assert.False(c, ok)
	})
	w.reset()
	return w
}

// eventually waits until check passes, failing the test with msg and the
// last check's complaints when it never does.
func eventually(t *testing.T, msg string, check func(c *assert.CollectT)) {
	t.Helper()
	require.EventuallyWithT(t, check, waitFor, tick, msg)
}

// unixAbs is an absolute path written the Unix way, as the tests' fixed
// paths are, made absolute on this system: on Windows on drive C:.
func unixAbs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}
