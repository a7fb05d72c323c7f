package helix_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestHelixDialogue: in a chapter of the sample book, with the speaker
// hints turned on in languages.toml as a writer would, Helix draws
// "Teodora Quill?" before the line turn-taking gives her ("Someone has
// to carry paper."), and hover (space k) on a tagged line says who
// speaks it and by which tag; the code action "Teodora Quill speaks this
// line" on the guessed line writes its speaker line, after which the
// hint reads "Teodora Quill:". Helix draws no semantic tokens, so the
// hints and the hover are how a Helix writer sees who speaks.
func TestHelixDialogue(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "dialogue")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1", book: book, chapter: chapter, speakerHints: true})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	// Line 20 is “Someone has to carry paper.”: the hint is drawn
	// before it once Helix has asked for the hints of the lines shown.
	term.command("goto 20")
	term.waitFor("hint", "the speaker hint before the guessed line", func(screen string) bool {
		for _, row := range strings.Split(screen, "\n") {
			if i := strings.Index(row, "Teodora Quill?"); i >= 0 && strings.Index(row, "Someone has to carry paper.") > i {
				return true
			}
		}
		return false
	})

	// Line 34 is “Thirteen,” said Moss.: hover inside the quotation.
	term.command("goto 34")
	term.keys("l", "l", "l")
	spoken := showsAll("Moss Kettering speaks.", "Decided by the speech tag")
	term.askUntil(spoken, "Space", "k")
	term.waitFor("hover", "who speaks the line, in the hover", spoken)
	term.keys("Escape")

	// The guessed line settled from the code action menu (space a): the
	// writer picks quire's guess, Helix writes the speaker line, and the
	// hint then says the writer said so.
	term.command("goto 20")
	term.keys("l", "l", "l")
	title := "Teodora Quill speaks this line"
	term.keys("Space", "a")
	term.waitFor("settle-menu", strconv.Quote(title)+" in the code action menu", showsAll(title))
	term.pick("settle-pick", title)
	settled := func(screen string) bool {
		for _, row := range strings.Split(screen, "\n") {
			if strings.Contains(row, "Someone has to carry paper.") {
				return strings.Contains(row, "<!-- speaker: Teodora Quill -->") && strings.Contains(row, "Teodora Quill:") && !strings.Contains(row, "Teodora Quill?")
			}
		}
		return false
	}
	// Helix asks for hints again when it goes idle after a key. On a
	// busy machine the code action's edit can land after that moment,
	// and the old hint stays until the writer's next key: the test
	// presses Escape, a key that changes nothing, as that next key.
	term.askUntil(settled, "Escape")
	term.waitFor("settled", "the speaker line written, and the hint that says so", settled)
}
