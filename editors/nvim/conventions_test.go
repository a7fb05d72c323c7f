package nvim_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// The Neovim conventions (test/conventions.lua, one part per test): the
// commands without setup(), :checkhealth quire, api_key = "cmd:…",
// :Quire models and lsp/quire.lua with vim.lsp.enable. Each runs a
// headless Neovim with -u NORC, so plugin/quire.lua loads as it does
// for a writer.

// conventionsRun is one part of test/conventions.lua.
type conventionsRun struct {
	mode    string
	dir     string   // where Neovim starts
	tmp     string   // the test's folder: XDG_* and the result file
	env     []string // added to the environment
	steps   []string // the "ok" steps the part must pass
	timeout time.Duration
}

func (c conventionsRun) run(t *testing.T, nvim string) *editortest.BatchRun {
	t.Helper()
	run, _ := scriptRun{script: "conventions.lua", norc: true,
		dir: c.dir, tmp: c.tmp, result: "result-" + c.mode + ".txt",
		env:   append([]string{"QUIRE_MODE=" + c.mode}, c.env...),
		steps: c.steps, timeout: c.timeout,
	}.run(t, nvim)
	return run
}

// closedURL is a provider base URL on a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "http://" + addr + "/v1"
}

// TestNeovimWithoutSetup: every :Quire command is there before setup(),
// and one that needs the server (:Quire reindex) starts quire with the
// defaults (quire from PATH) instead of asking for setup() first.
func TestNeovimWithoutSetup(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	conventionsRun{mode: "nosetup", dir: book, tmp: tmp,
		env: []string{
			// The default cmd is quire from PATH.
			"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"QUIRE_BOOK=" + book,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
		},
		steps: []string{"commands-before-setup", "unknown-subcommand", "reindex-without-setup", "persona", "chat"},
	}.run(t, nvim)
}

// TestNeovimCheckhealth: :checkhealth quire on a broken setup names each
// problem with what to do: no key (the writer's config.yaml names a
// variable that is not set), a model nothing answers for (a closed
// loopback port), an untrusted book with a series. Before setup() the
// report comes from quire doctor, after it from the server.
func TestNeovimCheckhealth(t *testing.T) {
	nvim := lookNvim(t)
	tmp := testDir(t)
	bin := editortest.QuireBinary(t, tmp)
	closed := closedURL(t)
	shelf := filepath.Join(tmp, "shelf")
	editortest.WriteFiles(t, shelf, map[string]string{
		"tideward/codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n",
		"one/quire.yaml":                    "title: Book One\nseries: ../tideward\n",
		"one/codex/characters/mara.md":      "---\ntype: character\nname: Mara Vell\nsummary: Smuggler.\n---\n# Mara Vell\n",
		"one/manuscript/01-harbor.md":       "# Harbor\n\nMara Vell met Ilse Dorn at the harbor.\n",
	})
	// The writer's own settings (trusted) name the provider and the
	// variable of its key, which is not set.
	editortest.WriteFiles(t, filepath.Join(tmp, "config"), map[string]string{
		"quire/config.yaml": "provider:\n  base_url: " + closed + "\n  model: m\n  api_key_env: QUIRE_TEST_NO_SUCH_KEY\n",
	})
	book := filepath.Join(shelf, "one")
	conventionsRun{mode: "health", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"QUIRE_BOOK=" + book,
			"QUIRE_CHAPTER=" + filepath.Join(book, "manuscript", "01-harbor.md"),
			"QUIRE_CLOSED_URL=" + closed,
			"QUIRE_TEST_NO_SUCH_KEY=",
		},
		steps: []string{"health-before-setup", "health-with-client", "health-missing-binary"},
	}.run(t, nvim)
}

// TestNeovimAPIKeyCommand: api_key = "cmd:…" runs the command and the
// key it prints reaches the model as "Bearer <key>", through the
// server's environment only: not in Neovim's LSP log (at info level,
// where Neovim logs the spawn parameters), nor in the result file the
// script logs the notifications to. A failing command tells the writer
// without its output.
func TestNeovimAPIKeyCommand(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	model := editortest.ScriptedModel(t, []evalserver.Step{editortest.Answer(t, "SCRIPTED-KEY-ANSWER: no rain today.")})
	run := conventionsRun{mode: "key", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_BOOK=" + book,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
			"QUIRE_MODEL_URL=" + model.BaseURL(),
		},
		steps: []string{"key-command-fails", "key-string", "key-reaches-model"},
	}.run(t, nvim)
	reqs := model.Requests()
	require.Len(t, reqs, 1, "model requests")
	require.Equal(t, "Bearer sk-from-command", reqs[0].Authorization, "the key the command printed (its first line)")
	var logPath string
	for _, l := range run.Lines {
		if p, ok := strings.CutPrefix(l, "lsplog "); ok {
			logPath = p
		}
	}
	require.NotEmpty(t, logPath, "the script names Neovim's LSP log")
	lsplog, err := os.ReadFile(logPath)
	require.NoError(t, err)
	require.Contains(t, string(lsplog), "Starting RPC client", "Neovim logged the spawn, so the check below means something")
	require.NotContains(t, string(lsplog), "sk-from-command", "the key is not in Neovim's LSP log")
	require.NotContains(t, run.Result, "sk-from-command", "the key is in no notification")
	require.NotContains(t, run.Result, "leaked", "a failing command's output is in no notification")
}

// fakeOllama answers GET /api/tags as Ollama does: no models until the
// flag file exists, then two.
func fakeOllama(t *testing.T, flag string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if _, err := os.Stat(flag); err != nil {
			_, _ = w.Write([]byte(`{"models":[]}`))
			return
		}
		_, _ = w.Write([]byte(`{"models":[{"name":"qwen2.5:14b","model":"qwen2.5:14b"},{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestNeovimModels: :Quire models offers the models of a (fake) Ollama
// in vim.ui.select and the choice lands in the writer's config.yaml,
// through the server (quire.useModel) and, with no client running,
// through quire models --use; with no model running, the writer is told
// how to start one.
func TestNeovimModels(t *testing.T) {
	nvim := lookNvim(t)
	bin, book, tmp := sampleBook(t)
	flag := filepath.Join(tmp, "models-on")
	ollama := fakeOllama(t, flag)
	conventionsRun{mode: "models", dir: book, tmp: tmp,
		env: []string{
			"QUIRE_BIN=" + bin,
			"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"QUIRE_BOOK=" + book,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
			"QUIRE_MODELS_FLAG=" + flag,
			"QUIRE_OLLAMA_URL=" + ollama,
			"QUIRE_USER_CONFIG=" + filepath.Join(tmp, "config", "quire", "config.yaml"),
			// The local servers quire asks: the fake Ollama only.
			"QUIRE_LOCAL_MODELS=Ollama=" + ollama,
		},
		steps: []string{"models-none", "models-choose", "models-without-client"},
	}.run(t, nvim)
	cfg, err := os.ReadFile(filepath.Join(tmp, "config", "quire", "config.yaml"))
	require.NoError(t, err)
	require.Contains(t, string(cfg), "llama3.2:latest")
	require.Contains(t, string(cfg), ollama+"/v1")
}

// TestNeovimLspEnable: on Neovim 0.11+, lsp/quire.lua with
// vim.lsp.enable("quire") starts quire for a chapter (one client, the
// book as root, quire's omnifunc, hover), and the key setup()'s api_key
// names reaches the model. On an older Neovim it is skipped, and fails
// instead under QUIRE_REQUIRE_NVIM_LSP_ENABLE=1, which
// test/other-versions.sh sets for sid.
func TestNeovimLspEnable(t *testing.T) {
	nvim := lookNvim(t)
	needNvim(t, nvim, "0.11", "QUIRE_REQUIRE_NVIM_LSP_ENABLE", "vim.lsp.enable needs Neovim 0.11+, and this nvim is older")
	bin, book, tmp := sampleBook(t)
	model := editortest.ScriptedModel(t, []evalserver.Step{editortest.Answer(t, "SCRIPTED-ENABLE-ANSWER: no rain.")})
	conventionsRun{mode: "enable", dir: book, tmp: tmp,
		env: []string{
			"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"QUIRE_BOOK=" + book,
			"QUIRE_CHAPTER=" + filepath.Join(book, sampleChapter),
			"QUIRE_MODEL_URL=" + model.BaseURL(),
			"QUIRE_NAME=Teodora Quill",
		},
		steps: []string{"enable", "enable-ask"},
	}.run(t, nvim)
	reqs := model.Requests()
	require.Len(t, reqs, 1, "model requests")
	require.Equal(t, "Bearer sk-from-enable", reqs[0].Authorization)
}
