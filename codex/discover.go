package codex

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
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
	root    string // absolute, symlinks resolved
	ignore  *Ignore
	visited map[string]bool // real paths of folders walked, against link cycles
	out     []candidate
}

// discover lists every Markdown file under root that quire may read as
// canon, in a stable order.
func discover(ctx context.Context, root string, ig *Ignore) ([]candidate, error) {
	w := &walker{root: root, ignore: ig, visited: map[string]bool{}}
	if err := w.dir(ctx, root, "", ""); err != nil {
		return nil, err
	}
	return w.out, nil
}

// discoverUnder lists candidates below the project-relative folder rel,
// for a folder that appeared or moved while watching.
func discoverUnder(ctx context.Context, root string, ig *Ignore, rel string) ([]candidate, error) {
	w := &walker{root: root, ignore: ig, visited: map[string]bool{}}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := w.dir(ctx, abs, rel, folderTypeOf(rel)); err != nil {
		return nil, err
	}
	return w.out, nil
}

// folderTypeOf is the type implied by the nearest type folder among the
// folders of rel, a project-relative folder path.
func folderTypeOf(rel string) Type {
	segs := strings.Split(strings.Trim(rel, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if t, ok := TypeFromFolder(segs[i]); ok {
			return t
		}
	}
	return ""
}

func (w *walker) dir(ctx context.Context, abs, rel string, folderType Type) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil // vanished while walking
	}
	if w.visited[real] {
		return nil
	}
	w.visited[real] = true
	list, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read project folder %s: %w", abs, err)
		}
		return nil // unreadable subfolder: skip it, keep the rest
	}

	isTypeFolder := false
	if t, ok := TypeFromFolder(path.Base(rel)); ok && rel != "" {
		folderType, isTypeFolder = t, true
	}
	// A folder below a type folder that holds an index.md is one entry:
	// index.md is the entry, soul.md its companion, other notes are not
	// entries unless they say so with `type:`.
	indexID := ""
	if folderType != "" && !isTypeFolder {
		for _, de := range list {
			if de.Name() == entryIndex {
				indexID = path.Join(rel, entryIndex)
			}
		}
	}

	for _, de := range list {
		name := de.Name()
		childAbs := filepath.Join(abs, name)
		childRel := path.Join(rel, name)
		info, err := de.Info()
		if err != nil {
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
		}
		if info.IsDir() {
			if w.ignore.Ignored(childRel, true) {
				continue
			}
			if err := w.dir(ctx, childAbs, childRel, folderType); err != nil {
				return err
			}
			continue
		}
		if !info.Mode().IsRegular() || !IsMarkdown(name) || w.ignore.Ignored(childRel, false) {
			continue
		}
		c := candidate{ID: childRel, Abs: childAbs, Size: info.Size(), ModTime: info.ModTime()}
		c.FolderType, c.SoulOf = fileRole(name, folderType, isTypeFolder, indexID, childRel)
		w.out = append(w.out, c)
	}
	return nil
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
// the entry folder's index.md when the folder is one.
func fileRole(name string, folderType Type, isTypeFolder bool, indexID, id string) (Type, string) {
	switch {
	case indexID != "" && name == entrySoul:
		return folderType, indexID
	case indexID != "" && id != indexID:
		return "", ""
	case isTypeFolder && isOverviewPage(name):
		return "", ""
	}
	return folderType, ""
}

// classify builds the candidate for one file, as discover would.
func classify(root, rel string, info os.FileInfo) candidate {
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	folderType := folderTypeOf(dir)
	_, isTypeFolder := TypeFromFolder(path.Base(dir))
	isTypeFolder = isTypeFolder && dir != ""
	indexID := ""
	if folderType != "" && !isTypeFolder {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), entryIndex)); err == nil && st.Mode().IsRegular() {
			indexID = path.Join(dir, entryIndex)
		}
	}
	c := candidate{ID: rel, Abs: filepath.Join(root, filepath.FromSlash(rel)), Size: info.Size(), ModTime: info.ModTime()}
	c.FolderType, c.SoulOf = fileRole(path.Base(rel), folderType, isTypeFolder, indexID, rel)
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
