package emacs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/manuscript"
)

// script is the scripted model's replies: to the ask about a selection
// (read the character and the selection, propose two changes to her
// entry, answer), then to a chapter action.
func script(t *testing.T) []evalserver.Step {
	t.Helper()
	update := func(id, summary, section, markdown string) map[string]any {
		return editortest.Call(t, id, "propose_codex_update", map[string]any{
			"entryType": "character", "name": "Teodora Quill",
			"changeSummary": summary, "targetSection": section, "proposedMarkdown": markdown,
		})
	}
	return []evalserver.Step{
		editortest.Calls(t,
			editortest.Call(t, "call_1", "get_character_context", map[string]any{"name": "Teodora Quill"}),
			editortest.Call(t, "call_2", "get_manuscript_context", map[string]any{"ref": "selection"}),
		),
		// Two proposals on the same entry: once the first is applied, the
		// second was made from text that is no longer there.
		editortest.Calls(t,
			update("call_3", "Pin down her eye colour", "Appearance",
				"## Appearance\n\nTall and narrow-shouldered, with cropped black hair she cuts herself and steady grey eyes (PROPOSED-EYES: grey in every chapter). Her right forefinger is stained for good with oak-gall ink. She wears her father's oilskin coat, two sizes too big, with the cuffs turned back twice.\n"),
			update("call_4", "Say whose coat it is", "Habits",
				"## Habits\n\nShe counts things when she is frightened (PROPOSED-COAT: and buttons her father's coat to the throat).\n"),
		),
		editortest.Answer(t, "SCRIPTED-ANSWER: her eyes are grey throughout.\nI proposed pinning that down in her entry."),
		// The chapter's continuity check, run at a bare cursor.
		editortest.Answer(t, "SCRIPTED-CHECK: the tide figures agree with chapter 3."),
	}
}

// TestEmacsEglot runs Emacs with Debian's eglot 1.9 and editors/emacs/quire.el
// against the real quire on the sample book in a folder without version
// control, and checks what the writer sees at each step (test/e2e.el).
func TestEmacsEglot(t *testing.T) {
	emacs, versions, err := emacsWithEglot()
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_EMACS", "%v: install Debian's emacs-nox and elpa-eglot", err)
	}
	t.Log(versions)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()
	bin := editortest.QuireBinary(t, tmp)

	// No git anywhere above the book: the temp folder is outside any
	// repository, so only quire.el's book discovery can find the root.
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	for dir := book; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		_, err := os.Stat(filepath.Join(dir, ".git"))
		require.True(t, errors.Is(err, os.ErrNotExist), "the book must not be under version control: %s/.git", dir)
	}
	// A second copy, opened with eglot's own idea of the root.
	book2 := editortest.SampleBook(t, bin, filepath.Join(tmp, "book2"))
	entryPath := filepath.Join(book, "codex", "characters", "teodora-quill", "index.md")
	entryBefore, err := os.ReadFile(entryPath)
	require.NoError(t, err)

	model := editortest.ScriptedModel(t, script(t))

	// The counts the word-counts step must show: the counting rule's own,
	// worked out here from the files.
	chapterWords, bookWords := 0, 0
	chapters, err := filepath.Glob(filepath.Join(book, "manuscript", "*.md"))
	require.NoError(t, err)
	for _, c := range chapters {
		data, err := os.ReadFile(c)
		require.NoError(t, err)
		n := manuscript.ChapterWords(string(data))
		bookWords += n
		if filepath.Base(c) == "01-thirteen-strokes.md" {
			chapterWords = n
		}
	}

	result := filepath.Join(tmp, "result.txt")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))

	reportOf := func(run *editortest.BatchRun) string {
		events, _ := os.ReadFile(result + ".events")
		if len(events) > 8000 {
			events = events[len(events)-8000:]
		}
		messages, _ := os.ReadFile(result + ".messages")
		return "steps:\n" + run.Result + "\n*Messages*:\n" + string(messages) +
			"\nemacs stderr (tail):\n" + tail(run.Stderr, 4000) + "\nemacs stdout:\n" + run.Stdout +
			"\neglot events (tail):\n" + string(events)
	}
	run := editortest.Batch{Name: "emacs", Args: []string{emacs, "--batch", "-l", filepath.Join(here, "test", "e2e.el")},
		Dir: book, TmpXDG: tmp, Cache: filepath.Join(tmp, "cache"), Result: result,
		// Above the sum of the steps' own limits, under go test's default.
		Timeout: 8 * time.Minute,
		Env: []string{
			"QUIRE_SETUP=" + filepath.Join(here, "quire.el"),
			"QUIRE_BIN=" + bin,
			"QUIRE_BOOK=" + book,
			"QUIRE_BOOK2=" + book2,
			"QUIRE_MODEL_URL=" + model.BaseURL(),
			"QUIRE_RESULT=" + result,
			"QUIRE_WANT_CHAPTER=Thirteen Strokes: " + count.Number(chapterWords) + " words.",
			"QUIRE_WANT_BOOK=Book " + count.Number(bookWords) + ", in 5 chapters.",
			"QUIRE_TEST_KEY=scripted-key",
			// Emacs and quire keep everything they write in the temp folder.
			"HOME=" + home,
		}}.Run(t, reportOf)
	report := func() string { return reportOf(run) }
	lines, res, runErr := run.Lines, run.Result, run.Err
	for _, step := range []string{"connect", "hover", "dialogue", "settle", "ask", "answer-doc", "apply", "stale", "cursor-action", "look-up", "peek", "explicate", "book-map", "build", "build-command", "health", "word-counts", "plain-eglot"} {
		require.Contains(t, lines, "ok "+step, report())
	}
	require.Equal(t, "PASS", lines[len(lines)-1], report())
	require.NoError(t, runErr, report())
	t.Logf("emacs steps:\n%s", res)
	if testing.Verbose() {
		messages, _ := os.ReadFile(result + ".messages")
		t.Logf("*Messages*:\n%s", messages)
	}

	// The model read the writer's selection, as eglot sent it.
	reqs := model.Requests()
	require.Len(t, reqs, 4, "model requests")
	require.Contains(t, string(reqs[1].Body), "Teodora Quill wrote by it the way she always did")

	// The edit landed in the buffer only; quire wrote nothing in the book.
	entryAfter, err := os.ReadFile(entryPath)
	require.NoError(t, err)
	require.Equal(t, string(entryBefore), string(entryAfter))
}

// emacsWithEglot finds emacs and checks that eglot loads in it the way
// the test loads it; it returns the versions of both.
func emacsWithEglot() (string, string, error) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		return "", "", errors.New("emacs is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	probe := `(progn (package-initialize) (require 'eglot)
  (princ (format "Emacs %s, eglot %s" emacs-version
    (package-version-join (package-desc-version (cadr (assq 'eglot package-alist)))))))`
	cmd := exec.CommandContext(ctx, emacs, "--batch", "--eval", probe)
	cmd.Env = append(os.Environ(), "HOME="+os.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", "", fmt.Errorf("eglot does not load in %s: %v: %s", emacs, err, tail(stderr.String(), 500))
	}
	return emacs, stdout.String(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
