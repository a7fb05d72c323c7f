package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The archives carry the README and what it leads to: the docs pages,
// the editors' pages and the files those name (quire.el, Helix's
// languages.toml), so that every relative link in a packed page opens a
// packed file. The set is found by following the links from README.md,
// not listed by hand, so a page added to the docs is packed once linked.

// markdownLink finds the target of a Markdown link or image: "](target".
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// docFiles are the files reached from README.md by relative links,
// README.md first and then in path order, as slash-separated paths
// relative to src. A link to a folder is not followed; a link to a file
// that does not exist is an error.
func docFiles(src string) ([]string, error) {
	seen := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		text, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil {
			return nil, fmt.Errorf("read %s for the archives: %w", name, err)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(string(text), -1) {
			target := relativeTarget(name, m[1])
			if target == "" || seen[target] {
				continue
			}
			info, err := os.Stat(filepath.Join(src, filepath.FromSlash(target)))
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s links to %s, which does not exist", name, target)
			}
			if err != nil {
				return nil, err
			}
			if info.IsDir() {
				continue
			}
			seen[target] = true
			queue = append(queue, target)
		}
	}
	rest := make([]string, 0, len(seen))
	for name := range seen {
		if name != "README.md" {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append([]string{"README.md"}, rest...), nil
}

// relativeTarget is the file a link in page leads to, relative to the
// source folder; "" for a link elsewhere (a URL, an anchor, an absolute
// path) or out of the folder.
func relativeTarget(page, link string) string {
	link, _, _ = strings.Cut(link, "#")
	if link == "" || strings.Contains(link, "://") || strings.HasPrefix(link, "/") || strings.HasPrefix(link, "mailto:") {
		return ""
	}
	target := path.Clean(path.Join(path.Dir(page), link))
	if target == "." || strings.HasPrefix(target, "../") || target == ".." {
		return ""
	}
	return target
}

// pluginDirs are the folders of the Neovim plugin a writer adds to
// 'runtimepath': with them, the archive's editors/nvim is the plugin,
// as the Neovim page's "without a plugin manager" says.
var pluginDirs = []string{"editors/nvim/lua", "editors/nvim/plugin", "editors/nvim/lsp", "editors/nvim/doc"}

// pluginFiles are the Neovim plugin's files, in path order, as
// slash-separated paths relative to src; its tests stay behind.
func pluginFiles(src string) ([]string, error) {
	var out []string
	for _, dir := range pluginDirs {
		err := filepath.WalkDir(filepath.Join(src, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("the Neovim plugin for the archives: %w", err)
		}
	}
	slices.Sort(out)
	return out, nil
}
