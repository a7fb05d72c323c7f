package helix_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestHelixHealth shows the health report as a writer does in Helix:
// space a in a chapter, "quire: Show health report". The model's address
// in languages.toml is one nothing listens on, so the report has a
// problem to name, and says what to do about it. Helix 25.07 opens the
// report quire writes as a Markdown document (window/showDocument);
// 25.01 cannot, and shows quire's message, problems first.
func TestHelixHealth(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "health")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		baseURL: "http://127.0.0.1:9/v1",
		book:    book, chapter: chapter})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	offered := showsAll("quire: Show health report")
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", "\"quire: Show health report\" in the code action menu", offered)
	term.pick("pick-health", "quire: Show health report")

	// How many problems, the one there is, and what to do, in the
	// writer's words: what the status line or the document shows.
	term.waitFor("report", "the health report naming the model nobody answers for, and what to do", showsAll(
		"1 problem", "nothing answers at http://127.0.0.1:9/v1", "start it"))
	screen := term.screen(false)
	for _, code := range []string{"-32", "jsonrpc", "quire/doctor"} {
		if strings.Contains(screen, code) {
			t.Fatalf("the report shows %q, which is not for a writer:\n%s", code, screen)
		}
	}
}

// TestHelixChoosesALocalModel is a writer with Ollama running and no
// provider configured: space a in a chapter offers its model, and
// choosing it writes the writer's own config.yaml (never the book), as
// quire's message says. Ollama is a fake on a port of its own, which
// QUIRE_LOCAL_MODELS points quire to.
func TestHelixChoosesALocalModel(t *testing.T) {
	tools := findHelix(t)
	t.Log(strings.TrimSpace(tools.version))
	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "local-model")
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	bookYAML, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189}]}`))
	}))
	t.Cleanup(ollama.Close)

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		book: book, chapter: chapter, noProvider: true,
		extraEnv: []string{"QUIRE_LOCAL_MODELS=Ollama=" + ollama.URL}})
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	const title = "quire: Use llama3.2:latest (Ollama)"
	offered := showsAll(title)
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", "the local model in the code action menu", offered)
	term.pick("pick-model", title)
	term.waitFor("chosen", "quire's message that it now asks the model", showsAll("quire now asks llama3.2:latest on Ollama"))

	config, err := os.ReadFile(filepath.Join(tmp, "config", "quire", "config.yaml"))
	require.NoError(t, err, "the writer's own config.yaml")
	require.Contains(t, string(config), "base_url: "+ollama.URL+"/v1")
	require.Contains(t, string(config), "model: llama3.2:latest")
	after, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	require.Equal(t, string(bookYAML), string(after), "the book is never written")
}
