package helix_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// The test drives a real Helix in tmux, as a writer would with the
// languages.toml and config.toml of this folder, against the real
// `quire serve` and a scripted model, and checks each step on the screen
// the writer sees (tmux capture-pane). Helix is Debian's hx (trixie:
// 25.01), unpacked by unpack-hx.sh into the user cache folder once, or the
// one QUIRE_HX names. QUIRE_REQUIRE_HELIX=1 makes a missing tmux or a Helix
// that does not start a failure instead of a skip. QUIRE_BIN runs another
// quire binary than the one built from this tree; QUIRE_ARTEFACTS keeps
// the screen of each step in that folder.

const (
	// The terminal: wide enough for the status line's messages and the
	// code action menu beside the text.
	cols, rows = 200, 50
	// stepWait bounds each step; the scripted model answers at once, so
	// only a slow machine comes near it.
	stepWait = 30 * time.Second
)

// script is the scripted model's replies to the one ask of the test: read
// the character, propose a change to her Appearance, answer.
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
				"proposedMarkdown": "## Appearance\n\nTall and narrow-shouldered, with cropped black hair she cuts herself and steady grey eyes (PROPOSED-EYES: grey in every chapter). Her right forefinger is stained for good with oak-gall ink.\n",
			}),
		),
		editortest.Answer(t, "SCRIPTED-ANSWER: her eyes are grey in every chapter. I proposed pinning that down in her entry."),
	}
}

// helix is the hx to run: QUIRE_HX, or the suite's (QUIRE_HELIX_SUITE,
// default trixie) unpacked into the user cache folder, kept for the next
// run.
func helix(t *testing.T) string {
	t.Helper()
	if hx := os.Getenv("QUIRE_HX"); hx != "" {
		return hx
	}
	suite := os.Getenv("QUIRE_HELIX_SUITE")
	if suite == "" {
		suite = "trixie"
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	dir := filepath.Join(cache, "quire-tests", "helix-"+suite)
	script, err := filepath.Abs("unpack-hx.sh")
	require.NoError(t, err)
	out, err := exec.Command(script, suite, dir).CombinedOutput()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_HELIX", "could not unpack %s's hx: %v\n%s", suite, err, out)
	}
	return filepath.Join(dir, "bin", "hx")
}

// languages is the shipped languages.toml with the test's quire binary and
// model in place of the writer's: the rest (roots, the Markdown language,
// its servers) is what a writer copies.
func languages(t *testing.T, bin, baseURL string, noProvider bool) string {
	t.Helper()
	shipped, err := os.ReadFile("languages.toml")
	require.NoError(t, err)
	text := string(shipped)
	replace := func(line, with string) {
		require.Contains(t, text, "\n"+line+"\n", "languages.toml has the line %q", line)
		text = strings.Replace(text, "\n"+line+"\n", "\n"+with+"\n", 1)
	}
	replace(`command = "quire"`, fmt.Sprintf("command = %q", bin))
	provider := fmt.Sprintf(`config = { provider = { base_url = %q, model = "scripted", retries = 0 } }`, baseURL)
	if noProvider {
		provider = `config = {}`
	}
	replace(`config = { provider = { base_url = "http://localhost:11434/v1", model = "llama3.1" } }`, provider)
	return text
}

// terminal is a tmux server of its own (its socket in the test's folder)
// with Helix in its one pane.
type terminal struct {
	t         *testing.T
	tmux      string
	socket    string
	env       []string
	artefacts string
	step      int
	cache     string // XDG_CACHE_HOME, where quire keeps answers and maps
	helixLog  string
}

func (term *terminal) run(args ...string) (string, error) {
	cmd := exec.Command(term.tmux, append([]string{"-S", term.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = term.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), nil
}

// keys sends tmux key names (Space, Enter, C-n, a) one after the other.
// After Escape the next key waits until Helix has redrawn (or 2s): read
// together with the Escape, it would reach Helix as Alt and that key.
func (term *terminal) keys(keys ...string) {
	term.t.Helper()
	for _, k := range keys {
		args := []string{"send-keys", "-t", "hx", k}
		if k == ";" {
			// A lone ";" separates tmux commands: sent as its byte.
			args = []string{"send-keys", "-t", "hx", "-H", "3b"}
		}
		before := ""
		if k == "Escape" {
			before = term.screen(true)
		}
		_, err := term.run(args...)
		require.NoError(term.t, err, term.report())
		if k == "Escape" {
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && term.screen(true) == before; {
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// text types text as it is.
func (term *terminal) text(s string) {
	term.t.Helper()
	_, err := term.run("send-keys", "-t", "hx", "-l", s)
	require.NoError(term.t, err, term.report())
}

// command runs a typed command (":open …") and returns to the editor.
func (term *terminal) command(cmd string) {
	term.t.Helper()
	term.keys(":")
	term.text(cmd)
	term.keys("Enter")
}

// screen is what the writer sees; styled keeps the terminal's colour and
// attribute sequences (a menu's selected row is in reverse video).
func (term *terminal) screen(styled bool) string {
	args := []string{"capture-pane", "-p", "-t", "hx"}
	if styled {
		args = append(args, "-e")
	}
	out, err := term.run(args...)
	if err != nil {
		return "(no screen: " + err.Error() + ")"
	}
	return out
}

// report is the screen and the end of Helix's log, for a failure.
func (term *terminal) report() string {
	log, _ := os.ReadFile(term.helixLog)
	if len(log) > 8000 {
		log = log[len(log)-8000:]
	}
	return "screen:\n" + term.screen(false) + "\nhelix.log (tail):\n" + string(log)
}

// save keeps the screen of a step as an artefact.
func (term *terminal) save(name, screen string) {
	term.step++
	file := filepath.Join(term.artefacts, fmt.Sprintf("%02d-%s.txt", term.step, name))
	if err := os.WriteFile(file, []byte(screen), 0o644); err != nil {
		term.t.Logf("artefact %s not saved: %v", file, err)
	}
}

// waitFor polls the screen until ok holds, saves it as the step's artefact
// and returns it; past stepWait the test fails with the screen and log.
func (term *terminal) waitFor(step, what string, ok func(screen string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(stepWait)
	for {
		screen := term.screen(false)
		if ok(screen) {
			term.save(step, screen)
			return screen
		}
		if time.Now().After(deadline) {
			term.save(step+"-FAILED", screen)
			term.t.Fatalf("%s: the screen did not show %s within %s\n%s", step, what, stepWait, term.report())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// askUntil sends keys, gives Helix a second to answer, and asks again
// (after Escape) until the screen shows ok or stepWait has passed: a
// hover or menu asked for before quire has read the book comes back
// without quire's part. The caller's waitFor then checks the screen.
func (term *terminal) askUntil(ok func(screen string) bool, keys ...string) {
	term.t.Helper()
	deadline := time.Now().Add(stepWait)
	for {
		term.keys(keys...)
		time.Sleep(time.Second)
		if ok(term.screen(false)) || time.Now().After(deadline) {
			return
		}
		term.keys("Escape")
	}
}

// showsAll reports whether the screen shows every one of parts.
func showsAll(parts ...string) func(string) bool {
	return func(screen string) bool {
		for _, p := range parts {
			if !strings.Contains(screen, p) {
				return false
			}
		}
		return true
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// selected reports whether the styled screen shows title on a row in
// reverse video, as Helix draws the selected row of a menu.
func selected(styled, title string) bool {
	for _, line := range strings.Split(styled, "\n") {
		i := strings.Index(line, title)
		if i < 0 {
			continue
		}
		before := line[:i]
		k := strings.LastIndex(before, "\x1b[7m")
		if k < 0 {
			continue
		}
		between := before[k:]
		if strings.Contains(between, "\x1b[0m") || strings.Contains(between, "\x1b[27m") {
			continue
		}
		if strings.TrimSpace(sgr.ReplaceAllString(between, "")) == "" {
			return true
		}
	}
	return false
}

// pick chooses the open menu's row that starts with title: Helix's code
// action menu does not filter on typing, so the selection moves down
// (from the first row, selected when the menu opens) until it is there.
func (term *terminal) pick(step, title string) {
	term.t.Helper()
	for range 40 {
		if selected(term.screen(true), title) {
			term.save(step, term.screen(false))
			term.keys("Enter")
			return
		}
		term.keys("C-n")
		time.Sleep(150 * time.Millisecond)
	}
	term.save(step+"-FAILED", term.screen(false))
	term.t.Fatalf("%s: the menu never selected %q\n%s", step, title, term.report())
}

// heldModel stands in front of the scripted model and holds its held-th
// request (1-based) until release is closed, so the screen can be read
// while an ask is under way. It returns the base URL to give quire.
func heldModel(t *testing.T, model *evalserver.Server, held int32, release <-chan struct{}) string {
	t.Helper()
	base, err := url.Parse(model.BaseURL())
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: base.Scheme, Host: base.Host})
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == held {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + base.Path
}

func TestHelix(t *testing.T) {
	tools := findHelix(t)
	version := tools.version
	// Helix 25.01 does not support window/showDocument; 25.07 does.
	opensDocuments := !strings.HasPrefix(version, "helix 25.01")
	from := "this tree"
	if b := os.Getenv("QUIRE_BIN"); b != "" {
		from = b
	}
	t.Logf("%s, quire from %s", strings.TrimSpace(version), from)

	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "")

	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	entry := filepath.Join(book, "codex", "characters", "teodora-quill", "index.md")
	before, err := os.ReadFile(entry)
	require.NoError(t, err)

	model := editortest.ScriptedModel(t, script(t))
	// The answer (the third request) waits until the test has seen the
	// ask's progress on screen.
	release := make(chan struct{})
	var released atomic.Bool
	answer := func() {
		if released.CompareAndSwap(false, true) {
			close(release)
		}
	}
	defer answer()
	baseURL := heldModel(t, model, 3, release)

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin, baseURL: baseURL,
		book: book, chapter: filepath.Join("manuscript", "01-thirteen-strokes.md")})
	cache := term.cache

	// 1. The chapter is open.
	term.waitFor("open", "the chapter", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR"))

	// 2. Hover on a character's name shows her canon card with the entry's
	// summary. The first hover may come before the book is indexed, so it
	// is asked again until the card shows.
	term.keys("/")
	term.text("Teodora")
	term.keys("Enter", ";")
	card := showsAll("Teodora Quill · character", "Night clerk of the Harbor Tally in Brinmouth")
	term.askUntil(card, "Space", "k")
	term.waitFor("hover", "Teodora Quill's canon card", card)
	term.keys("Escape")

	// 3. At a bare cursor (Helix's one-character selection) the code
	// action menu offers the chapter's actions.
	term.keys("Space", "a")
	term.waitFor("chapter-actions", "the chapter actions in the code action menu", showsAll(
		"Continuity Editor: Continuity check", "Continuity Editor: Timeline check",
		"Developmental Editor: Stakes map"))

	// 4. An advisor action runs an ask. Helix 25.01 cannot open a document
	// for the server (no window/showDocument), so the answer's start and
	// the answer document's path come as a message in the status line;
	// 25.07 opens the answer document itself.
	// With display-progress-messages, the status line follows the ask:
	// the advisor's tool calls, then the answer.
	term.pick("pick-continuity-check", "Continuity Editor: Continuity check")
	progress := term.waitFor("progress", "the ask's progress in the status line", showsAll("propose_codex_update"))
	require.NotContains(t, progress, "quire: quire:", "the progress title repeats the server's name")
	answer()
	doc := showsAll("SCRIPTED-ANSWER: her eyes are grey", "> Continuity check", "quire/answers/", "-continuity-editor.md")
	if opensDocuments {
		// Helix opens the answer document for the server.
		term.waitFor("answer-document", "the answer document, opened by the server", doc)
	} else {
		term.waitFor("answer-message", "the answer in the status line",
			showsAll("Continuity Editor answered:", "SCRIPTED-ANSWER"))
		// The status line is one line, too short for the rest of the
		// message (the answer document's path), so the writer opens the
		// answers folder, as the README says: :open on a folder is a file
		// picker.
		answers, err := filepath.Glob(filepath.Join(cache, "quire", "answers", "*.md"))
		require.NoError(t, err)
		require.Len(t, answers, 1, "one answer document in the cache folder")
		term.command("open ~/.cache/quire/answers/")
		term.waitFor("answers-picker", "the answers folder's picker with the answer's preview",
			showsAll(filepath.Base(answers[0]), "SCRIPTED-ANSWER"))
		term.text("continuity")
		term.keys("Enter")
		term.waitFor("answer-document", "the answer document", doc)
	}

	// 5. In the entry the proposal edits, its code action applies it: the
	// new text is in the buffer, the file on disk waits for the writer's
	// save, and the status line says so.
	term.command("open " + entry)
	term.waitFor("entry", "Teodora Quill's entry", showsAll("name: Teodora Quill", "index.md"))

	// Changed by the writer after the advisor read it, the section is not
	// overwritten: the proposal is refused, and the status line says why.
	term.keys("/")
	term.text("Tall and narrow")
	term.keys("Enter", "A")
	term.text(" STALE-EDIT")
	term.keys("Escape")
	term.waitFor("entry-edited", "the writer's edit", showsAll("STALE-EDIT", "[+]"))
	term.keys("Space", "a")
	term.waitFor("stale-actions", "the proposal's actions", showsAll("Apply proposal:", "Pin down her eye colour"))
	term.pick("pick-apply-stale", "Apply proposal:")
	stale := term.waitFor("stale-refused", "the refusal in the status line", showsAll("changed since", "index.md"))
	require.NotContains(t, stale, "PROPOSED-EYES", "a refused proposal leaves the buffer as it was")

	// Undone, the edit no longer stands in the way.
	term.keys("u")
	term.waitFor("entry-undone", "the entry as it was", func(screen string) bool {
		return !strings.Contains(screen, "STALE-EDIT") && strings.Contains(screen, "steady grey eyes. Her right")
	})
	term.keys("Space", "a")
	term.waitFor("proposal-actions", "the proposal's actions", showsAll("Apply proposal:", "Pin down her eye colour"))
	term.pick("pick-apply", "Apply proposal:")
	term.waitFor("applied", "the proposed text in the buffer and the applied message",
		showsAll("PROPOSED-EYES: grey in every chapter", "Applied ", "review and save."))
	after, err := os.ReadFile(entry)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after), "the entry on disk is untouched until the writer saves")

	require.Len(t, model.Requests(), 3, "model requests")
}
