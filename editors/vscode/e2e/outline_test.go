package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

var outlineSteps = []string{"open-book", "open-chapter", "outline-view", "propose", "apply", "stale"}

// TestVSCodeOutline opens a chapter of the sample book in a real VS Code
// (outline.mjs): the Outline view shows the chapter and its scenes; the
// developmental editor, a scripted model over HTTP, writes a scene's
// synopsis from the quick fix menu, the writer applies the proposal from
// it and the note lands under the heading, unsaved; a change to the
// scene's prose makes the Problems panel say the synopsis is stale.
func TestVSCodeOutline(t *testing.T) {
	tools := findBrowserTools(t)

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	pkg := vsix(t, tmp, bin)
	model := editortest.ScriptedModel(t, []evalserver.Step{
		evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_manuscript_context", Args: `{"ref":"selection"}`}),
		evalserver.Text("The causeway opens at dawn, and Teodora and Moss cross it to find Jory Fenwick."),
	})
	shots := filepath.Join(artefacts(t), "outline")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "outline.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
		"QUIRE_MODEL_URL=" + model.BaseURL(),
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(outlineSteps, ", "), "every step ran\n%s", report)
	require.Len(t, model.Requests(), 2, "the model read the scene, then wrote the synopsis")
}
