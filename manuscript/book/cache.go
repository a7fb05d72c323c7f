package book

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/safefile"
)

// Cache is where quire keeps a book's files, outside the book: the codex
// index in Dir, the manuscript's paragraph index in Dir/manuscript, what
// reading and scanning each chapter found in Dir/chapters.bin and
// the record of provider calls in Dir/provenance.jsonl. The command line
// and the language server lay it out the same way.
type Cache struct {
	// Dir is the book's folder in the cache.
	Dir string
}

// CacheOptions say where a book's cache folder is.
type CacheOptions struct {
	// Dir is the book's own folder (the command line's --cache-dir).
	Dir string
	// Base is a folder holding one folder per book (the language server,
	// which may serve several, is given one).
	Base string
}

// CacheFor is the cache of the book at root (its real path): Dir when
// set, else root's folder under Base, else its folder in the user cache
// (codex.CacheDirFor). A book's folder has the same name under Base as in
// the user cache.
func CacheFor(root string, o CacheOptions) (Cache, error) {
	switch {
	case o.Dir != "":
		return Cache{Dir: o.Dir}, nil
	case o.Base != "":
		return Cache{Dir: filepath.Join(o.Base, cacheKey(root))}, nil
	}
	dir, err := codex.CacheDirFor(root)
	return Cache{Dir: dir}, err
}

// cacheKey names root's folder: as codex.CacheDirFor does.
func cacheKey(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:8])
}

// Passages is the folder of the manuscript's paragraph index.
func (c Cache) Passages() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "manuscript")
}

// Chapters is the file of the chapter cache (manuscript.Options.ChapterCache).
func (c Cache) Chapters() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "chapters.bin")
}

// Names is the file of the names matcher (manuscript.Options.MatcherCache).
func (c Cache) Names() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "names.bin")
}

// Provenance is the folder of the record of provider calls.
func (c Cache) Provenance() string { return c.Dir }

// Map is the book map's page (`quire map`, the quire.bookMap command);
// empty when there is no cache folder.
func (c Cache) Map() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "map.html")
}

// Data is where quire keeps a book's files that a cleared cache must not
// erase, outside the book: the writing history (Progress) and the
// snapshots of its chapters (Snapshots).
type Data struct {
	// Dir is the book's folder in the user data folder.
	Dir string
	// OldProgress is where older quire kept the history, in the cache:
	// Migrate moves it here.
	OldProgress string
}

// DataFor is the data folder of the book at root: the cache folder
// when the cache options name one (the command line's --cache-dir, a
// server given a base: tests and writers who want one folder), else
// its folder in the user data folder (codex.DataDirFor).
func DataFor(root string, o CacheOptions) (Data, error) {
	if o.Dir != "" || o.Base != "" {
		c, err := CacheFor(root, o)
		return Data{Dir: c.Dir}, err
	}
	dir, err := codex.DataDirFor(root)
	if err != nil {
		return Data{}, err
	}
	d := Data{Dir: dir}
	if c, err := CacheFor(root, o); err == nil && c.Dir != "" {
		d.OldProgress = filepath.Join(c.Dir, progressFile)
	}
	return d, nil
}

const progressFile = "progress.json"

// Progress is the file of the book's writing history (manuscript/progress);
// empty when there is no data folder.
func (d Data) Progress() string {
	if d.Dir == "" {
		return ""
	}
	return filepath.Join(d.Dir, progressFile)
}

// Snapshots is the folder of the snapshots of the book's chapters
// (manuscript/snapshot); empty when there is no data folder.
func (d Data) Snapshots() string {
	if d.Dir == "" {
		return ""
	}
	return filepath.Join(d.Dir, "snapshots")
}

// Migrate makes the data folder and moves a writing history older quire
// kept in the cache into it, unless it holds one already. It says what
// it moved; a failure leaves the old file where it was.
func (d Data) Migrate() (moved bool, err error) {
	if d.Dir == "" {
		return false, nil
	}
	if err := os.MkdirAll(d.Dir, 0o700); err != nil {
		return false, fmt.Errorf("the data folder %s: %w", d.Dir, err)
	}
	if d.OldProgress == "" {
		return false, nil
	}
	if _, err := os.Stat(d.Progress()); err == nil {
		return false, nil
	}
	data, err := os.ReadFile(d.OldProgress)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("the writing history in %s: %w", d.OldProgress, err)
	}
	if err := safefile.WriteFile(d.Progress(), data, 0o600); err != nil {
		return false, fmt.Errorf("moving the writing history to %s: %w", d.Dir, err)
	}
	_ = os.Remove(d.OldProgress)
	return true, nil
}

// Builds is the folder `quire build` and the quire.build command write
// into when the writer names no file: outside the book, always.
func (c Cache) Builds() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "build")
}
