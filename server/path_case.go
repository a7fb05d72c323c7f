package server

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// foldsCase says the file systems here do not tell case apart by
// default: Windows' and macOS's (APFS and HFS+ unless formatted
// case-sensitive, where a name that exists as written still wins below).
const foldsCase = runtime.GOOS == "windows" || runtime.GOOS == "darwin"

// maxSpellings bounds the spellings a project remembers.
const maxSpellings = 4096

// diskSpelling is rel as the book's folder spells it on disk. Where the
// file system does not tell case apart, an editor may name
// manuscript\01-harbor.md as Manuscript\01-Harbor.md (a path typed by
// hand, a link written in other case), and the book knows its files by
// the names on disk. Elsewhere, and for a part that does not exist,
// rel's own spelling stays.
func (p *openBook) diskSpelling(rel string) string {
	if !foldsCase {
		return rel
	}
	if v, ok := p.spellings.Load(rel); ok {
		return v.(string)
	}
	parts := strings.Split(rel, "/")
	dir := p.real
	for i, part := range parts {
		entries, err := os.ReadDir(dir)
		if err != nil {
			break
		}
		name := ""
		for _, e := range entries {
			if e.Name() == part {
				name = part
				break
			}
			if name == "" && strings.EqualFold(e.Name(), part) {
				name = e.Name()
			}
		}
		if name == "" {
			break
		}
		parts[i] = name
		dir = filepath.Join(dir, name)
	}
	out := strings.Join(parts, "/")
	if p.spellingCount.Add(1) <= maxSpellings {
		p.spellings.Store(rel, out)
	}
	return out
}
