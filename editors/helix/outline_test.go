package helix_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// TestHelixOutline: in a chapter of the sample book, Helix's symbol
// picker (space s) lists its scenes; on a scene's heading the code
// action menu (space a) asks the developmental editor, a scripted model,
// for the scene's synopsis, and the status line says it was proposed;
// the proposal's own action applies it, and the note with the synopsis
// appears under the heading, unsaved, for the writer to review.
func TestHelixOutline(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "outline")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	model := editortest.ScriptedModel(t, []evalserver.Step{
		evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_manuscript_context", Args: `{"ref":"selection"}`}),
		evalserver.Text("The causeway opens at dawn, and Teodora and Moss cross it to find Jory Fenwick."),
	})

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: model.BaseURL(), book: book, chapter: chapter})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	// 1. The symbol picker lists the chapter's scenes.
	scenes := showsAll("The Night Count", "The Causeway at Dawn")
	term.askUntil(scenes, "Space", "s")
	term.waitFor("symbols", "the scenes in the symbol picker", scenes)
	term.keys("Escape")

	// 2. On the second scene's heading, ask for its synopsis.
	term.keys("/")
	term.text("## The Causeway at Dawn")
	// ; leaves the cursor at the match's end: the heading, not a selection.
	term.keys("Enter", ";")
	// The menu is longer than the screen: once it is open, pick scrolls
	// down to the action.
	menu := func(screen string) bool {
		return strings.Contains(screen, "Continuity Editor:") || strings.Contains(screen, "Open the book map")
	}
	ask := "Ask the Developmental Editor for a synopsis of The Causeway at Dawn"
	term.askUntil(menu, "Space", "a")
	term.pick("pick-synopsis", ask)
	term.waitFor("proposed", "the proposal in the status line", showsAll("proposes a synopsis"))

	// 3. Its own action applies it: the note under the heading, unsaved.
	term.keys("Escape")
	term.askUntil(menu, "Space", "a")
	term.pick("pick-apply", "Apply proposal: update the synopsis")
	term.waitFor("applied", "the synopsis in the buffer and the applied message",
		showsAll("synopsis: The causeway opens at dawn", "[+]"))
	require.Len(t, model.Requests(), 2, "the model read the scene, then wrote the synopsis")
}
