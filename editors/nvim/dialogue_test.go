package nvim_test

import (
	"path/filepath"
	"testing"
)

// TestNeovimDialogue opens a chapter of the sample book in a real
// Neovim 0.10+ (test/dialogue.lua) and reads back what the writer sees
// of its dialogue: the highlight groups the semantic tokens put on a
// line of dialogue and on a character's name, and the colour groups they
// link to; the uncertain modifier on a guessed line; the speaker hint
// before it; the hover of a line; :QuireLines in the quickfix list; a
// speaker chosen from the code-action menu for the guessed line; a tag
// edited in the buffer, and the hovers that follow; an alias taken out
// of the codex on disk, and the colours that follow it.
// Neovim older than 0.10 draws neither semantic tokens nor inlay hints:
// there the test says so and skips, and `make nvim-versions` runs it on
// trixie's 0.10 and sid's newest with QUIRE_REQUIRE_NVIM_DIALOGUE=1.
func TestNeovimDialogue(t *testing.T) {
	nvim := lookNvim(t)
	needNvim(t, nvim, "0.10", "QUIRE_REQUIRE_NVIM_DIALOGUE", "this Neovim is older than 0.10, which draws semantic tokens and inlay hints (make nvim-versions runs this test on 0.10 and newer)")
	bin, book, tmp := sampleBook(t)
	scriptRun{script: "dialogue.lua", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
		},
		steps: []string{"attach", "colours", "uncertain", "hints", "hover", "lines", "settle", "edit", "codex"},
	}.run(t, nvim)
}
