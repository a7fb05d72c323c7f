package helix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestHelixSeries opens a chapter of a trusted book whose quire.yaml
// names a series folder beside it, as a writer does in Helix: space k on
// a name only the series defines shows its card ("Series canon"), g d
// opens the series file, and there space k on a [[link]] and on the
// entry's name shows the cards of the book's canon. Helix is started in
// the book's folder, as the README says, and in the folder above that
// holds the book and the series. The quire Helix runs is a wrapper that
// writes down each start: one quire serves the book and its series file.
func TestHelixSeries(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	for _, tc := range []struct {
		name string
		// where Helix starts, relative to the shelf
		dir string
	}{
		{"in the book", "one"},
		{"above the book", "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			artefacts := artefactsDir(t, tmp, "series-"+strings.ReplaceAll(tc.name, " ", "-"))
			bin := editortest.QuireBinary(t, tmp)
			shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
			starts := filepath.Join(tmp, "starts.txt")
			wrapper := filepath.Join(tmp, "quire-wrapper")
			require.NoError(t, os.WriteFile(wrapper, []byte("#!/bin/sh\necho \"$PWD\" >>'"+starts+"'\nexec '"+bin+"' \"$@\"\n"), 0o755))

			start := filepath.Join(shelf.Dir, tc.dir)
			chapter, err := filepath.Rel(start, shelf.Chapter)
			require.NoError(t, err)
			term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: wrapper,
				baseURL: "http://127.0.0.1:9/v1", book: start, chapter: chapter})

			// 1. The chapter is open.
			term.waitFor("open", "the chapter", showsAll("Mara Vell met Ilse Dorn", "01-harbor.md", "NOR"))

			// 2. space k on Ilse Dorn: the series' card.
			term.keys("/")
			term.text("Ilse Dorn")
			term.keys("Enter", ";")
			card := showsAll("Ilse Dorn · character", "Harbor master of Tideward.", "Series canon")
			term.askUntil(card, "Space", "k")
			term.waitFor("hover", "Ilse Dorn's card from the series", card)
			term.keys("Escape")

			// 3. g d opens the series file.
			term.keys("g", "d")
			term.waitFor("definition", "the series file", showsAll("name: Ilse Dorn", "ilse.md", "[[Mara Vell]]"))

			// 4. In the series file: the [[link]] shows the book's Mara,
			// the heading the series' Ilse.
			term.keys("/")
			term.text("Mara Vell]]")
			term.keys("Enter", ";")
			mara := showsAll("Mara Vell · character", "Smuggler who never sails twice.")
			term.askUntil(mara, "Space", "k")
			term.waitFor("series-link-hover", "the book's Mara Vell on the [[link]]", mara)
			term.keys("Escape")
			term.keys("g", "g", "/")
			term.text("# Ilse")
			term.keys("Enter", ";")
			ilse := showsAll("Ilse Dorn · character", "Series canon", "Appears in:")
			term.askUntil(ilse, "Space", "k")
			screen := term.waitFor("series-hover", "Ilse Dorn's card on the heading", ilse)
			// Before quire said it serves several folders, Helix started
			// a second quire on the series folder above the book: it
			// took the series for a book of its own, so the link was
			// broken there, and it warned that another quire held the
			// series' index.
			for _, wrong := range []string{"found no book", "no codex entry is named", "another quire process"} {
				require.NotContains(t, screen, wrong, term.report())
			}
			term.keys("Escape")

			// One quire, started once, served the book and its series.
			data, err := os.ReadFile(starts)
			require.NoError(t, err)
			require.Equal(t, 1, strings.Count(string(data), "\n"), "quire started in: %s\n%s", data, term.report())
		})
	}
}

// TestHelixSeriesFileFirst opens a series file before any chapter, from
// the folder above the book and the series: Helix starts quire on the
// series folder, which reads it as a book of its own (a [[link]] to the
// book's entry names no entry there). Then the writer opens a chapter of
// the book; once the book is read, the series file answers as the
// book's series canon and the broken link is gone, in the same quire.
func TestHelixSeriesFileFirst(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	artefacts := artefactsDir(t, tmp, "series-file-first")
	bin := editortest.QuireBinary(t, tmp)
	shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	series, err := filepath.Rel(shelf.Dir, shelf.SeriesFile)
	require.NoError(t, err)
	chapter, err := filepath.Rel(shelf.Dir, shelf.Chapter)
	require.NoError(t, err)
	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1", book: shelf.Dir, chapter: series})

	// 1. The series file alone: quire reads the series as a book, which
	// has no Mara Vell.
	term.waitFor("open", "the series file", showsAll("name: Ilse Dorn", "ilse.md"))
	term.keys("g", "g", "/")
	term.text("# Ilse")
	term.keys("Enter", ";")
	alone := showsAll("Ilse Dorn · character", "Harbor master of Tideward.")
	term.askUntil(alone, "Space", "k")
	screen := term.waitFor("hover-alone", "Ilse Dorn's card, the series read alone", alone)
	require.NotContains(t, screen, "Series canon", term.report())
	term.keys("Escape")

	// 2. The chapter: the book is read, with its series.
	term.command("open " + chapter)
	term.waitFor("chapter", "the chapter", showsAll("Mara Vell met Ilse Dorn", "01-harbor.md"))
	term.keys("/")
	term.text("Ilse Dorn")
	term.keys("Enter", ";")
	card := showsAll("Ilse Dorn · character", "Series canon")
	term.askUntil(card, "Space", "k")
	term.waitFor("hover-chapter", "Ilse Dorn's card from the series", card)
	term.keys("Escape")

	// 3. Back in the series file: the book's series canon answers, and
	// the link to the book's Mara Vell is no longer broken.
	term.command("open " + series)
	// The search is typed once the file is on screen: typed while Helix
	// still opens it, it was lost and the hover asked at 1:2.
	term.waitFor("series-again", "the series file again", showsAll("name: Ilse Dorn", "ilse.md"))
	term.keys("g", "g", "/")
	term.text("# Ilse")
	term.keys("Enter", ";")
	term.waitFor("on-heading", "the cursor on the heading", cursorOn(6, 0))
	ilse := showsAll("Ilse Dorn · character", "Series canon", "Appears in:")
	term.askUntil(ilse, "Space", "k")
	screen = term.waitFor("hover-series", "Ilse Dorn's card as the book's series canon", ilse)
	require.NotContains(t, screen, "no codex entry is named", term.report())
	term.keys("Escape")
}
