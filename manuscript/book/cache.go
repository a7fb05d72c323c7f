package book

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/quire-ink/quire/codex"
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

// Progress is the file of the book's writing history (manuscript/progress);
// empty when there is no cache folder.
func (c Cache) Progress() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "progress.json")
}

// Builds is the folder `quire build` and the quire.build command write
// into when the writer names no file: outside the book, always.
func (c Cache) Builds() string {
	if c.Dir == "" {
		return ""
	}
	return filepath.Join(c.Dir, "build")
}
