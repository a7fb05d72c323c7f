package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
)

// Where is the folder a build writes to when the request names no file.
type Where struct {
	Dir string
	// Warnings say why a folder a setting names was passed over.
	Warnings []string
}

// OutputFolder is where a build of the book t writes a file the request
// does not name: the one owner of that choice, for quire build and the
// language server's quire.build alike.
//
//  1. build: output: the book's quire.yaml's when it lies inside the
//     book or the writer trusted the book (trust.Asks.Output), else the
//     writer's config.yaml's as it stands;
//  2. else quire/<book folder's name> in the writer's Documents folder,
//     when there is one and it is not inside the book;
//  3. else the book's build folder in quire's cache (t.Cache).
//
// Only a folder the writer named can be inside the book.
func OutputFolder(t Target, s Settings) (Where, error) {
	var w Where
	for _, o := range []Output{s.Output, s.writerOutput} {
		if o.Dir == "" {
			continue
		}
		ok, why := outputAllowed(t, o)
		if ok {
			w.Dir = o.Dir
			return w, nil
		}
		w.Warnings = append(w.Warnings, why)
	}
	if docs := DocumentsDir(); docs != "" {
		dir := filepath.Join(docs, "quire", filepath.Base(t.Root))
		if !within(t.Root, dir) {
			w.Dir = dir
			return w, nil
		}
	}
	if t.Cache == "" {
		return w, errors.New("quire has no folder to write the build to (no Documents folder and no cache folder); set build: output, or name a file")
	}
	w.Dir = t.Cache
	return w, nil
}

// outputAllowed says whether the build may write to o, and else why not,
// for the writer to read.
func outputAllowed(t Target, o Output) (bool, string) {
	if !o.Book {
		return true, ""
	}
	asks, err := trust.AsksOf(bookFile(t))
	if err != nil {
		return false, fmt.Sprintf("quire.yaml's build: output (%s) is set aside: %v", o.Written, err)
	}
	if asks.Output == "" {
		// A folder inside the book by its name: it must be inside by
		// its real path too, a symbolic link out of the book not.
		if within(t.Root, o.Dir) {
			return true, ""
		}
		return false, fmt.Sprintf("quire.yaml's build: output (%s) leads out of the book through a symbolic link, so quire set it aside; name the folder itself", o.Written)
	}
	ok, err := t.Trust.Allows(t.Root, asks.Wants())
	if ok {
		return true, ""
	}
	why := fmt.Sprintf("quire.yaml's build: output (%s) is a folder outside the book, which quire writes to only once you trust the book (quire trust %s); until then the file goes where it would without it", o.Written, t.Root)
	if err != nil {
		why += fmt.Sprintf(" (%v)", err)
	}
	return false, why
}

func bookFile(t Target) *settings.File {
	if t.Settings == nil {
		return nil
	}
	return t.Settings.Book
}

// within says whether dir is root or lies in it, by real paths: the
// part of dir that exists has its symbolic links resolved.
func within(root, dir string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	dir = realPrefix(filepath.Clean(dir))
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// realPrefix is path with its longest existing part's symbolic links
// resolved and the rest joined on as written.
func realPrefix(path string) string {
	rest := ""
	for p := path; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// DocumentsDir is the writer's Documents folder, "" when there is none:
// on Linux and the BSDs the one xdg-user-dirs names (XDG_DOCUMENTS_DIR,
// in the environment or user-dirs.dirs), else ~/Documents; on macOS and
// Windows the Documents folder of the home folder. A folder that does
// not exist, or is the home folder itself (how xdg-user-dirs turns one
// off), is none.
func DocumentsDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	dir := filepath.Join(home, "Documents")
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		if x := xdgDocuments(home); x != "" {
			dir = x
		}
	}
	if filepath.Clean(dir) == filepath.Clean(home) {
		return ""
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	return dir
}

// xdgDocuments is XDG_DOCUMENTS_DIR from the environment, else from
// $XDG_CONFIG_HOME/user-dirs.dirs; "" when neither names it.
func xdgDocuments(home string) string {
	if d := os.Getenv("XDG_DOCUMENTS_DIR"); d != "" {
		return expandHome(d, home)
	}
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = filepath.Join(home, ".config")
	}
	data, err := os.ReadFile(filepath.Join(cfg, "user-dirs.dirs"))
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		v, ok := strings.CutPrefix(line, "XDG_DOCUMENTS_DIR=")
		if !ok {
			continue
		}
		return expandHome(strings.Trim(v, `"`), home)
	}
	return ""
}

// expandHome reads the $HOME of a user-dirs.dirs value.
func expandHome(v, home string) string {
	for _, h := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(v, h); ok {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(v) {
		return ""
	}
	return v
}
