package manuscript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// discover lists the project-relative paths of the chapters the globs
// match, in reading order. Ignored paths (dot-folders, node_modules,
// .gitignore) are skipped; a symlinked chapter counts only when it
// points inside the project, and symlinked folders are not entered.
//
// It also lists, sorted, the chapters the globs would match that are
// only iCloud placeholders on this Mac (".03-storm.md.icloud" stands for
// "03-storm.md" until it is downloaded): they are not read, and the
// writer is told rather than finding the chapter silently gone.
func discover(ctx context.Context, root string, globs []glob, ig *codex.Ignore) ([]string, []string, error) {
	seen := map[string]bool{}
	var found, offline []string
	walked := map[string]bool{}
	for _, g := range globs {
		base := g.Base()
		if walked[base] {
			continue
		}
		walked[base] = true
		start := filepath.Join(root, filepath.FromSlash(base))
		if real, err := filepath.EvalSymlinks(start); err == nil && !within(root, real) {
			// The glob's folder is, or passes through, a link out of the
			// project: nothing there is the book's.
			continue
		}
		err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return ctxErr
			}
			if err != nil {
				if p == start && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll
				}
				// An unreadable folder costs its chapters, not the others.
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			rel, relErr := filepath.Rel(root, p)
			if relErr != nil || rel == "." {
				return nil
			}
			rel = filepath.ToSlash(rel)
			if !d.IsDir() {
				if stands := iCloudOriginal(rel); stands != "" && codex.IsMarkdown(stands) && !ig.Ignored(stands, false) &&
					slices.ContainsFunc(globs, func(g glob) bool { return g.Match(stands) }) {
					offline = append(offline, stands)
					return nil
				}
			}
			if ig.Ignored(rel, d.IsDir()) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() || !codex.IsMarkdown(d.Name()) || seen[rel] {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 && !symlinkInside(root, p) {
				return nil
			}
			if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			for _, g := range globs {
				if g.Match(rel) {
					seen[rel] = true
					found = append(found, rel)
					break
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("find chapters under %s: %w", base, err)
		}
	}
	slices.SortFunc(found, compareReadingOrder)
	slices.Sort(offline)
	return found, slices.Compact(offline), nil
}

// iCloudOriginal is the path an iCloud Drive placeholder stands for
// (folder/.name.icloud → folder/name), or "" when rel is none.
func iCloudOriginal(rel string) string {
	dir, name := path.Split(rel)
	if len(name) <= len("..icloud") || name[0] != '.' || !strings.HasSuffix(name, ".icloud") {
		return ""
	}
	return dir + strings.TrimSuffix(name[1:], ".icloud")
}

// symlinkInside reports whether the link at p resolves to a regular file
// inside root (which has no symlinks itself).
func symlinkInside(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil || !within(root, real) {
		return false
	}
	info, err := os.Stat(real)
	return err == nil && info.Mode().IsRegular()
}

// within reports whether p lies inside root (or is root).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// compareReadingOrder orders paths folder by folder: within a folder,
// names with a leading number come first, by that number, then the rest;
// ties go by name, ignoring case. "part-2/01-x.md" follows
// "part-1/30-y.md", and "10-storm.md" follows "9-calm.md".
func compareReadingOrder(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := compareName(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}

func compareName(a, b string) int {
	an, bn := hasLeadingNumber(a), hasLeadingNumber(b)
	switch {
	case an && !bn:
		return -1
	case bn && !an:
		return 1
	case an && bn:
		if c := leadingNumber(a) - leadingNumber(b); c != 0 {
			return c
		}
	}
	if c := strings.Compare(strings.ToLower(stemOf(a)), strings.ToLower(stemOf(b))); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func hasLeadingNumber(name string) bool { return name != "" && name[0] >= '0' && name[0] <= '9' }

func stemOf(name string) string { return strings.TrimSuffix(name, path.Ext(name)) }
