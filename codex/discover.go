package codex

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// candidate is a Markdown file that may hold canon.
type candidate struct {
	ID  string // project-relative, slash-separated
	Abs string // path to read, inside the project
	// FolderType is the type implied by the nearest type folder, or ""
	// when only a `type:` key can make the file an entry.
	FolderType Type
	// SoulOf is set for a soul.md: the ID of its entry's index.md.
	SoulOf  string
	Size    int64
	ModTime time.Time
}

// IsMarkdown reports whether a file name has a Markdown extension.
func IsMarkdown(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".md" || ext == ".markdown"
}

// walker walks a project tree once, following symlinks only where they
// stay inside the project.
type walker struct {
	root   string // absolute, symlinks resolved
	ignore *Ignore
	// stack holds the real paths of the folders being walked: a link back
	// to one of them is a cycle. visits bounds how often links lead into
	// the same folder.
	stack  map[string]bool
	visits map[string]int
	out    []candidate
	links  []linkPair
	// lean stats each folder's files on one goroutine: a walk behind the
	// writer's requests (Store.Check) leaves them the other cores.
	lean bool
}

// linkPair records a symlink inside the project and what it points to,
// both project-relative: a change seen under one path is a change under
// the other too.
type linkPair struct{ link, target string }

// maxFolderVisits bounds how many paths may lead into one real folder.
const maxFolderVisits = 8

// folderContext is what a folder hands down to what it holds.
type folderContext struct {
	// folderType is the type of the nearest type folder above.
	folderType Type
	// entry is the index.md of the entry folder this lies in, if any:
	// everything below an entry folder belongs to that entry.
	entry string
}

// enterFolder computes the context inside the folder rel from the context
// around it; hasIndex reports whether rel holds an index.md. It also says
// whether rel is a type folder.
func enterFolder(around folderContext, rel string, hasIndex func() bool) (folderContext, bool) {
	if rel == "" || around.entry != "" {
		return around, false
	}
	if t, ok := TypeFromFolder(path.Base(rel)); ok {
		around.folderType = t
		return around, true
	}
	if around.folderType != "" && hasIndex() {
		around.entry = path.Join(rel, entryIndex)
	}
	return around, false
}

// contextOf computes the context inside the project folder dir by
// entering each folder from the root down.
func contextOf(root, dir string) (folderContext, bool) {
	var fc folderContext
	isTypeFolder := false
	if dir == "" || dir == "." {
		return fc, false
	}
	segs := strings.Split(dir, "/")
	for i := range segs {
		d := path.Join(segs[:i+1]...)
		fc, isTypeFolder = enterFolder(fc, d, func() bool {
			return isIndexFile(root, filepath.Join(root, filepath.FromSlash(d), entryIndex))
		})
	}
	return fc, isTypeFolder
}

// isIndexFile reports whether path is an index.md quire may read: a file,
// or a link to a file inside the project.
func isIndexFile(root, path string) bool {
	info, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil || !within(root, target) {
			return false
		}
		info, err = os.Stat(target)
		if err != nil {
			return false
		}
	}
	return info.Mode().IsRegular()
}

func newWalker(root string, ig *Ignore) *walker {
	return &walker{root: root, ignore: ig, stack: map[string]bool{}, visits: map[string]int{}}
}

// discover lists every Markdown file under root that quire may read as
// canon, and the symlinks it followed.
func discover(ctx context.Context, root string, ig *Ignore) ([]candidate, []linkPair, error) {
	return discoverLean(ctx, root, ig, false)
}

// discoverLean is discover, its files statted on one goroutine when lean
// (walker.lean).
func discoverLean(ctx context.Context, root string, ig *Ignore, lean bool) ([]candidate, []linkPair, error) {
	w := newWalker(root, ig)
	w.lean = lean
	if err := w.dir(ctx, root, root, "", folderContext{}); err != nil {
		return nil, nil, err
	}
	return w.out, w.links, nil
}

// discoverUnder lists candidates below the project-relative folder rel,
// for a folder that appeared or moved while watching.
func discoverUnder(ctx context.Context, root string, ig *Ignore, rel string) ([]candidate, []linkPair, error) {
	w := newWalker(root, ig)
	abs := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || !within(root, real) {
		return nil, nil, nil // gone, or a link out of the project
	}
	around, _ := contextOf(root, parentDir(rel))
	if err := w.dir(ctx, abs, real, rel, around); err != nil {
		return nil, nil, err
	}
	return w.out, w.links, nil
}

func parentDir(rel string) string {
	if d := path.Dir(rel); d != "." {
		return d
	}
	return ""
}

// dir walks the folder at abs, whose symlink-free path is real, given the
// context of the folder around it.
func (w *walker) dir(ctx context.Context, abs, real, rel string, around folderContext) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.stack[real] || w.visits[real] >= maxFolderVisits {
		return nil
	}
	w.stack[real] = true
	defer delete(w.stack, real)
	w.visits[real]++
	list, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read project folder %s: %w", abs, err)
		}
		return nil // unreadable subfolder: skip it, keep the rest
	}
	workers := runtime.GOMAXPROCS(0)
	if w.lean {
		workers = 1
	}
	infos := statAll(list, workers)
	inside, isTypeFolder := enterFolder(around, rel, func() bool {
		return slices.ContainsFunc(list, func(de os.DirEntry) bool { return de.Name() == entryIndex }) &&
			isIndexFile(w.root, filepath.Join(abs, entryIndex))
	})

	for i, de := range list {
		name := de.Name()
		childAbs := filepath.Join(abs, name)
		childRel := path.Join(rel, name)
		childReal := filepath.Join(real, name)
		info := infos[i]
		if info == nil {
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, ok := w.inside(childAbs)
			if !ok {
				continue // links out of the project are never followed
			}
			if info, err = os.Stat(target); err != nil {
				continue
			}
			childReal = target
			// A link back to a folder being walked is a cycle, not a name.
			if targetRel, err := filepath.Rel(w.root, target); err == nil && !w.stack[target] {
				w.links = append(w.links, linkPair{link: childRel, target: filepath.ToSlash(targetRel)})
			}
		}
		if info.IsDir() {
			if w.ignore.Ignored(childRel, true) {
				continue
			}
			if err := w.dir(ctx, childAbs, childReal, childRel, inside); err != nil {
				return err
			}
			continue
		}
		if !info.Mode().IsRegular() || !IsMarkdown(name) || w.ignore.Ignored(childRel, false) {
			continue
		}
		c := candidate{ID: childRel, Abs: childAbs, Size: info.Size(), ModTime: info.ModTime()}
		c.FolderType, c.SoulOf = fileRole(name, inside.folderType, isTypeFolder, inside.entry, childRel)
		w.out = append(w.out, c)
	}
	return nil
}

// statAll reads the file info of a folder listing. Big folders are
// statted by several goroutines: each stat is a system call, and a
// codex folder can hold thousands of entries.
func statAll(list []os.DirEntry, most int) []os.FileInfo {
	infos := make([]os.FileInfo, len(list))
	stat := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if info, err := list[i].Info(); err == nil {
				infos[i] = info
			}
		}
	}
	const perWorker = 512
	if len(list) < 2*perWorker || most < 2 {
		stat(0, len(list))
		return infos
	}
	workers := min(most, len(list)/perWorker)
	var wg sync.WaitGroup
	step := (len(list) + workers - 1) / workers
	for lo := 0; lo < len(list); lo += step {
		wg.Go(func() { stat(lo, min(lo+step, len(list))) })
	}
	wg.Wait()
	return infos
}

// File names with a meaning inside an entry folder.
const (
	entryIndex = "index.md"
	entrySoul  = "soul.md"
)

// fileRole decides how a Markdown file in a folder is read: the type its
// folder implies ("" when only `type:` can make it an entry), and for a
// soul.md the entry it belongs to. folderType is the folder's implied
// type, isTypeFolder whether the folder itself is a type folder, indexID
// the index.md of the entry folder the file lies in, if any.
func fileRole(name string, folderType Type, isTypeFolder bool, indexID, id string) (Type, string) {
	switch {
	case indexID == "":
	case id == indexID:
		return folderType, ""
	case name == entrySoul && path.Dir(id) == path.Dir(indexID):
		return folderType, indexID
	default:
		return "", "" // notes that belong to an entry folder
	}
	if isTypeFolder && isOverviewPage(name) {
		return "", ""
	}
	return folderType, ""
}

// classify builds the candidate for one file, as discover would.
func classify(root, rel string, info os.FileInfo) candidate {
	fc, isTypeFolder := contextOf(root, parentDir(rel))
	c := candidate{ID: rel, Abs: filepath.Join(root, filepath.FromSlash(rel)), Size: info.Size(), ModTime: info.ModTime()}
	c.FolderType, c.SoulOf = fileRole(path.Base(rel), fc.folderType, isTypeFolder, fc.entry, rel)
	return c
}

// isOverviewPage is a README or index page directly inside a type
// folder: it describes the folder, it is not an entry.
func isOverviewPage(name string) bool {
	stem := strings.ToLower(strings.TrimSuffix(name, path.Ext(name)))
	return stem == "readme" || stem == "index"
}

// inside resolves a symlink and reports whether its target lies within
// the project.
func (w *walker) inside(link string) (string, bool) {
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		return "", false
	}
	return target, within(w.root, target)
}

// within reports whether path p is root or lies below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
