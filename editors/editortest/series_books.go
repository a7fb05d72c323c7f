package editortest

import (
	"path/filepath"
	"testing"
)

// SeriesBooks is the shelf of SeriesShelf with a second book of the same
// series beside the first, both trusted, as an editor that opens several
// books in one window (VS Code's multi-root workspace) sees them: the
// series alone defines Ilse Dorn; it defines Oren Tull too, and book one
// overrides him with its own entry, so his card differs between the
// books.
type SeriesBooks struct {
	Shelf
	// ChapterOne is book one's chapter naming Ilse Dorn and Oren Tull;
	// BookTwo and ChapterTwo are the second book and its chapter naming
	// both.
	ChapterOne, BookTwo, ChapterTwo string
	// SeriesOnly is the summary of Ilse Dorn (the series canon);
	// SeriesOren and BookOneOren the summaries of Oren Tull in the
	// series and in book one's override.
	SeriesOnly, SeriesOren, BookOneOren string
}

// TwoSeriesBooks writes the shelf of two books in dir and trusts both
// with bin, in the config folder configHome (the XDG_CONFIG_HOME the
// editor's quire will read).
func TwoSeriesBooks(t testing.TB, bin, dir, configHome string) SeriesBooks {
	t.Helper()
	s := SeriesBooks{
		Shelf:       SeriesShelf(t, bin, dir, configHome),
		SeriesOnly:  "Harbor master of Tideward.",
		SeriesOren:  "Lamplighter of the Tideward quay.",
		BookOneOren: "Drowned keeper whose lamps still burn.",
	}
	WriteFiles(t, dir, map[string]string{
		"tideward/codex/characters/oren.md": "---\ntype: character\nname: Oren Tull\nsummary: " + s.SeriesOren + "\n---\n# Oren Tull\n",
		"one/codex/characters/oren.md":      "---\ntype: character\nname: Oren Tull\noverrides: Oren Tull\nsummary: " + s.BookOneOren + "\n---\n# Oren Tull\n",
		"one/manuscript/02-quay.md":         "# Quay\n\nIlse Dorn walked the quay where Oren Tull lit the lamps.\n",
		"two/quire.yaml":                    "title: Book Two\nseries: ../tideward\n",
		"two/manuscript/01-return.md":       "# Return\n\nYears on, Ilse Dorn still met Oren Tull at dusk.\n",
	})
	s.ChapterOne = filepath.Join(s.Book, "manuscript", "02-quay.md")
	s.BookTwo = filepath.Join(dir, "two")
	s.ChapterTwo = filepath.Join(s.BookTwo, "manuscript", "01-return.md")
	TrustBook(t, bin, s.BookTwo, configHome)
	return s
}
