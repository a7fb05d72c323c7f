package e2e_test

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// The steps run.mjs reports, in order.
var steps = []string{"open-book", "open-chapter", "status-bar", "word-count-item", "progress-view", "bundled-server", "advisor-no-key", "walkthrough", "hover", "set-key", "advisor-ready",
	"show-health", "walkthrough-key-done", "chat-open", "ask-tool-rows", "answer-list-and-quote", "proposal-diff", "apply", "applied-text", "book-map",
	"book-map-follows-save", "build", "local-model"}

// Markers the browser script looks for on screen.
const (
	proposedMarker = "E2E-PROPOSED"
	answerMarker   = "E2E-ANSWER"
	question       = "Are Teo's eyes the same colour in every chapter?"
)

// script is the scripted model's replies to the one ask of the test: it
// reads the canon (tool rows in the chat), proposes a change to Teodora
// Quill's Appearance (the proposal card), then answers with a bullet list
// and a block quote (the answer that vanished in issue 13, item 17).
func script(t *testing.T) []evalserver.Step {
	t.Helper()
	return []evalserver.Step{
		editortest.Calls(t,
			editortest.Call(t, "call_1", "get_character_context", map[string]any{"name": "Teodora Quill"}),
			editortest.Call(t, "call_2", "get_manuscript_context", map[string]any{"ref": "current"}),
		),
		editortest.Calls(t,
			editortest.Call(t, "call_3", "propose_codex_update", map[string]any{
				"entryType": "character", "name": "Teodora Quill",
				"changeSummary":    "Pin down her eye colour",
				"targetSection":    "Appearance",
				"proposedMarkdown": "## Appearance\n\nTall and narrow-shouldered, with cropped black hair she cuts herself and steady grey eyes (" + proposedMarker + ": grey in every chapter). Her right forefinger is stained for good with oak-gall ink.\n",
			}),
		),
		editortest.Answer(t, answerMarker+": her eyes are grey wherever the book names them.\n\n"+
			"- Chapter 1 keeps them out of the lamplight.\n"+
			"- Her entry says grey.\n\n"+
			"> steady grey eyes\n\n"+
			"I proposed pinning that down in her entry."),
	}
}

// slowLastReply stands in front of the scripted model and holds its last
// reply back for a while, as a real model takes time to write: the chat
// shows the tool rows of a running ask before the answer arrives.
func slowLastReply(t *testing.T, model *evalserver.Server, last int, delay time.Duration) string {
	t.Helper()
	target, err := url.Parse(model.BaseURL())
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the chat's requests count: the health report's GET /models
		// may come at any time.
		if r.Method == http.MethodPost && int(n.Add(1)) == last {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + target.Path
}

func chromium(t *testing.T) string {
	if p := os.Getenv("QUIRE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	editortest.Unavailable(t, "QUIRE_REQUIRE_VSCODE", "Debian's chromium is not installed; `make vscode-e2e` installs everything")
	return ""
}

// run runs a command in dir, failing the test with its output.
func run(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s in %s:\n%s", name, strings.Join(args, " "), dir, out)
}

// copyTree copies the extension's sources from another worktree, leaving
// out what npm and the compiler make, so that tree is only read.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	skip := map[string]bool{"node_modules": true, "out": true, "dist": true, "e2e": true, ".git": true}
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skip[d.Name()] && rel != "." {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(p, ".vsix") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	require.NoError(t, err, "copy the extension from %s", from)
}

// vsix packages the extension for this machine's platform (linux-x64 on
// the usual CI machine) with bin as its bundled server, the way `make
// vsix` packages it for a release, and returns the file's path.
func vsix(t *testing.T, tmp, bin string) string {
	t.Helper()
	target := map[string]string{"amd64": "linux-x64", "arm64": "linux-arm64"}[runtime.GOARCH]
	require.NotEmpty(t, target, "no VS Code target for linux/%s", runtime.GOARCH)
	return packageVsix(t, tmp, target, bin)
}

// packageVsix runs build/vsix.mjs for target ("universal": no server)
// from this tree or the one QUIRE_VSCODE_EXT names (another worktree,
// copied first), checks the package and returns its path.
func packageVsix(t *testing.T, tmp, target, bin string) string {
	t.Helper()
	src, err := filepath.Abs("..")
	require.NoError(t, err)
	if other := os.Getenv("QUIRE_VSCODE_EXT"); other != "" {
		dst := filepath.Join(tmp, "extension")
		copyTree(t, other, dst)
		src = dst
		t.Logf("extension from %s", other)
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil {
		run(t, src, nil, "npm", "ci", "--no-audit", "--no-fund")
	}
	out := filepath.Join(tmp, "vsix")
	args := []string{"build/vsix.mjs", "--out", out, target}
	name := "quire-vscode-*.vsix"
	if target != "universal" {
		args = append(args, "--server", target+"="+bin)
		name = "quire-vscode-" + target + "-*.vsix"
	}
	run(t, src, nil, "node", args...)
	matches, err := filepath.Glob(filepath.Join(out, name))
	require.NoError(t, err)
	require.Len(t, matches, 1, "the .vsix build/vsix.mjs wrote")
	checkVsix(t, matches[0], target != "universal")
	return matches[0]
}

// checkVsix opens the package: the bundled extension inside, an
// executable server when withServer (else none), and no node_modules
// (the bundle holds the code; e2e's code-server must never slip in).
func checkVsix(t *testing.T, file string, withServer bool) {
	t.Helper()
	z, err := zip.OpenReader(file)
	require.NoError(t, err)
	defer z.Close()
	var names []string
	var server *zip.File
	for _, f := range z.File {
		names = append(names, f.Name)
		require.NotContains(t, f.Name, "node_modules", "%s packages node_modules", file)
		if strings.HasPrefix(f.Name, "extension/server/") {
			server = f
		}
	}
	require.Contains(t, names, "extension/dist/extension.js", "%s: %v", file, names)
	if withServer {
		require.NotNil(t, server, "%s has no server: %v", file, names)
		require.Equal(t, "extension/server/quire", server.Name)
		require.Equal(t, os.FileMode(0o755), server.Mode().Perm(), "the bundled server's mode")
	} else {
		require.Nil(t, server, "%s carries a server: %v", file, names)
	}
	st, err := os.Stat(file)
	require.NoError(t, err)
	t.Logf("%s: %d bytes, %d files", filepath.Base(file), st.Size(), len(names))
}

// artefacts is where the screenshots go: $QUIRE_ARTEFACTS/vscode, else a
// folder kept after the test.
func artefacts(t *testing.T) string {
	dir := os.Getenv("QUIRE_ARTEFACTS")
	if dir == "" {
		d, err := os.MkdirTemp("", "quire-vscode-e2e-")
		require.NoError(t, err)
		return d
	}
	dir = filepath.Join(dir, "vscode")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// TestVSCode installs the extension's .vsix into code-server (a real VS
// Code in the browser), opens the sample book in Chromium and does what a
// writer does first: hover a name, read the status bar, ask the advisor in
// the chat and apply its proposal. run.mjs drives the browser; this test
// builds quire, the book, the extension and the scripted model around it.
func TestVSCode(t *testing.T) {
	tools := findBrowserTools(t)

	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "the-thirteenth-bell"))
	entry := filepath.Join(book, "codex", "characters", "teodora-quill", "index.md")
	before, err := os.ReadFile(entry)
	require.NoError(t, err)

	pkg := vsix(t, tmp, bin)

	replies := script(t)
	model := editortest.ScriptedModel(t, replies)
	// The model wants a key, as a hosted provider does; the writer types
	// it into quire: Set API Key. Random, so that finding it anywhere on
	// disk can only mean it was written there.
	key := apiKey(t)
	model.RequireKey(key)
	modelURL := slowLastReply(t, model, len(replies), 3*time.Second)
	ollama := fakeOllama(t)

	shots := artefacts(t)
	stdout, report := runBrowser(t, tools, "run.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + book,
		"QUIRE_VSIX=" + pkg,
		"QUIRE_MODEL_URL=" + modelURL,
		"QUIRE_QUESTION=" + question,
		"QUIRE_ANSWER_MARKER=" + answerMarker,
		"QUIRE_PROPOSED_MARKER=" + proposedMarker,
		// Only for typing: workbench.mjs keeps it out of code-server's
		// environment.
		"QUIRE_E2E_KEY=" + key,
		"QUIRE_LOCAL_MODEL=" + localModel,
		"QUIRE_WANT_WORDS=" + wantWords(t, bin, book, tmp),
		"OLLAMA_HOST=" + strings.TrimPrefix(ollama, "http://"),
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(steps, ", "), "every step ran\n%s", report)

	// The chat's one ask reached the model: three rounds, the question in
	// the first, and the tools offered, each with the key the writer set
	// in VS Code; before it was set, the health report's request was
	// turned away.
	reqs := model.Requests()
	require.Len(t, reqs, 3, "model requests\n%s", report)
	require.Contains(t, string(reqs[0].Body), question)
	require.Contains(t, string(reqs[0].Body), "get_character_context")
	for i, r := range reqs {
		require.Equal(t, "Bearer "+key, r.Authorization, "request %d's Authorization", i+1)
	}
	require.Positive(t, model.Refused(), "no request came without the key before it was set: the no-key step proved nothing")

	// The key is nowhere on disk: not in code-server's user data (settings,
	// state, the extension's logs and the quire output channel, which
	// traced every message), not in quire's cache and config, not in the
	// book, not in the screenshots' folder.
	requireKeyNowhere(t, key, filepath.Join(tmp, "code-server"), filepath.Join(tmp, "cache"), filepath.Join(tmp, "config"),
		filepath.Join(tmp, "data"), filepath.Join(tmp, "state"), book, shots)
	requireOutputChannelLogged(t, filepath.Join(tmp, "code-server", "user-data", "logs"))
	// Applying put the edit in the editor's buffer; quire never writes the
	// book, and nothing saved it.
	after, err := os.ReadFile(entry)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after), "the entry on disk changed")
}

// localModel is the one model the fake Ollama offers.
const localModel = "e2e-local:latest"

// apiKey is a fresh key for one run.
func apiKey(t *testing.T) string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return "sk-e2e-" + hex.EncodeToString(b)
}

// fakeOllama answers as Ollama does the requests quire sends to find a
// local model: GET /api/tags, and GET /v1/models from the health report.
// The extension's server finds it through OLLAMA_HOST.
func fakeOllama(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/tags":
			_, _ = io.WriteString(w, `{"models":[{"name":"`+localModel+`","model":"`+localModel+`"}]}`)
		case "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"`+localModel+`"}]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// requireKeyNowhere fails when a file under any of dirs holds key.
func requireKeyNowhere(t *testing.T, key string, dirs ...string) {
	t.Helper()
	var found []string
	files := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == dir {
					return nil
				}
				return err
			}
			// The installed extension and its server are only read.
			if d.IsDir() && d.Name() == "extensions" && filepath.Base(filepath.Dir(p)) == "code-server" {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			if bytes.Contains(b, []byte(key)) {
				found = append(found, p)
			}
			return nil
		})
		require.NoError(t, err, "walk %s", dir)
	}
	require.Empty(t, found, "the API key is written in these files")
	t.Logf("the API key is in none of %d files", files)
}

// requireOutputChannelLogged checks the quire output channel reached
// code-server's logs, so that requireKeyNowhere read what the extension
// and the traced server wrote there.
func requireOutputChannelLogged(t *testing.T, logs string) {
	t.Helper()
	var channel string
	err := filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || channel != "" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("handing the server the API key kept for")) && bytes.Contains(b, []byte(`"initializationOptions"`)) {
			channel = p
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, channel, "no log under %s holds the quire output channel with its trace", logs)
	t.Logf("the quire output channel's log: %s", channel)
}
