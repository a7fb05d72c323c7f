package nvim_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestNeovimSeries opens a chapter of a trusted book whose quire.yaml
// names a series folder beside it (test/series.lua): hovering a name
// the series alone defines shows "Series canon", go to definition
// opens the series file, and there a [[link]] and a name show the card
// of the book's canon.
func TestNeovimSeries(t *testing.T) {
	nvim := lookNvim(t)
	tmp := testDir(t)
	bin := editortest.QuireBinary(t, tmp)

	// The series folder is outside the book: the writer trusts the book
	// first, in the config folder the editor's quire reads.
	shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	book := shelf.Book

	scriptRun{script: "series.lua", dir: book, tmp: tmp, timeout: 60 * time.Second,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + shelf.Chapter,
			"QUIRE_SERIES_FILE=" + shelf.SeriesFile,
		},
		steps: []string{"attach", "hover", "definition", "series hover"},
	}.run(t, nvim)
}

// TestNeovimLspEnableSeries is TestNeovimSeries with Neovim 0.11+'s
// vim.lsp.enable("quire") (lsp/quire.lua) in place of setup(): the
// series file opened by go to definition joins the book's client, as
// setup() routes it, and shows the book's canon. On an older Neovim it
// is skipped, and fails instead under QUIRE_REQUIRE_NVIM_LSP_ENABLE=1.
func TestNeovimLspEnableSeries(t *testing.T) {
	nvim := lookNvim(t)
	needNvim(t, nvim, "0.11", "QUIRE_REQUIRE_NVIM_LSP_ENABLE", "vim.lsp.enable needs Neovim 0.11+, and this nvim is older")
	tmp := testDir(t)
	bin := editortest.QuireBinary(t, tmp)
	shelf := editortest.SeriesShelf(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	scriptRun{script: "series.lua", dir: shelf.Book, tmp: tmp, timeout: 60 * time.Second,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_ENABLE=1",
			"QUIRE_CHAPTER=" + shelf.Chapter,
			"QUIRE_SERIES_FILE=" + shelf.SeriesFile,
		},
		steps: []string{"attach", "hover", "definition", "series hover"},
	}.run(t, nvim)
}
