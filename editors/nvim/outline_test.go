package nvim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// TestNeovimOutline opens a chapter of the sample book in a real Neovim
// (test/outline.lua): its document symbols are the chapter and its
// scenes; the developmental editor, a scripted model over HTTP, writes a
// scene's synopsis through the code action, the writer applies the
// proposal through another and the note lands in the buffer; a change to
// the scene's prose makes the synopsis stale, and the quick fix marks it
// current.
func TestNeovimOutline(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	model := editortest.ScriptedModel(t, []evalserver.Step{
		evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_manuscript_context", Args: `{"ref":"selection"}`}),
		evalserver.Text("The causeway opens at dawn, and Teodora and Moss cross it to find Jory Fenwick."),
	})
	f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\nprovider:\n  base_url: " + model.BaseURL() + "\n  model: scripted\n  retries: 0\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	scriptRun{script: "outline.lua", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
			"OPENAI_API_KEY=",
		},
		steps: []string{"attach", "symbols", "propose", "apply", "stale", "current"},
	}.run(t, nvim)
	require.Len(t, model.Requests(), 2, "the model read the scene, then wrote the synopsis")
}
