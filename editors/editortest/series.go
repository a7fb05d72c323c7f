package editortest

import (
	"path/filepath"
	"testing"
)

// Shelf is a folder holding a book whose quire.yaml names a series
// folder beside it, the book trusted, as the series editor tests use it:
// the series alone defines Ilse Dorn, the book Mara Vell, and the
// series' entry links [[Mara Vell]].
type Shelf struct {
	Dir, Book, Series string
	Chapter           string // the book's chapter, naming both
	SeriesFile        string // the series entry of Ilse Dorn
}

// SeriesShelf writes the shelf in dir and trusts its book with bin,
// in the config folder configHome (the XDG_CONFIG_HOME the editor's
// quire will read).
func SeriesShelf(t testing.TB, bin, dir, configHome string) Shelf {
	t.Helper()
	WriteFiles(t, dir, map[string]string{
		"tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor for [[Mara Vell]].\n",
		"one/quire.yaml":                    "title: Book One\nseries: ../tideward\n",
		"one/codex/characters/mara.md":      "---\ntype: character\nname: Mara Vell\nsummary: Smuggler who never sails twice.\n---\n# Mara Vell\n",
		"one/manuscript/01-harbor.md":       "# Harbor\n\nMara Vell met Ilse Dorn at the harbor.\n",
	})
	s := Shelf{Dir: dir, Book: filepath.Join(dir, "one"), Series: filepath.Join(dir, "tideward")}
	s.Chapter = filepath.Join(s.Book, "manuscript", "01-harbor.md")
	s.SeriesFile = filepath.Join(s.Series, "codex", "characters", "ilse.md")
	// The series folder is outside the book: the writer trusts the book
	// first.
	TrustBook(t, bin, s.Book, configHome)
	return s
}
