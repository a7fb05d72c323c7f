// Package editortest holds what the real-editor tests (Neovim, Emacs,
// Helix, VS Code) share: the quire binary they drive, the sample book they
// open, the scripted model's replies, and the rule that a test which
// cannot start its editor fails when its QUIRE_REQUIRE_* variable is set.
package editortest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// Unavailable reports that the test cannot start its editor: a failure
// when the variable require is "1" (as make test sets it), else a skip
// that says how to make it one.
func Unavailable(t testing.TB, require, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(require) == "1" {
		t.Fatalf("%s (%s=1)", msg, require)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, require)
}

// goTool is the go command that builds quire: the one on PATH, else the
// toolchain's own.
func goTool(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go tool on PATH or in GOROOT to build quire: %v", err)
	}
	return p
}

// QuireBinary is QUIRE_BIN when set (a server built elsewhere, to try an
// editor test against it), else quire built from this tree into dir.
func QuireBinary(t testing.TB, dir string) string {
	t.Helper()
	if bin := os.Getenv("QUIRE_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		require.NoError(t, err)
		return abs
	}
	bin := filepath.Join(dir, "quire")
	// Built in the repository's own module, with its go.mod, also from
	// a test that is a module of its own (editors/vscode/e2e).
	_, self, _, ok := runtime.Caller(0)
	require.True(t, ok, "where editortest is")
	build := exec.Command(goTool(t), "build", "-o", bin, "./cmd/quire")
	build.Dir = filepath.Join(filepath.Dir(self), "..", "..")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// SampleBook writes the sample book to dir with bin (quire init --sample)
// and returns its path with symlinks resolved, as the editors report it.
func SampleBook(t testing.TB, bin, dir string) string {
	t.Helper()
	out, err := exec.Command(bin, "init", "--sample", dir).CombinedOutput()
	require.NoError(t, err, "quire init: %s", out)
	book, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	return book
}

// Reply is one scripted chat completion carrying message, ended with
// finish ("stop", "tool_calls").
func Reply(t testing.TB, message any, finish string) evalserver.Step {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"id": "c1", "object": "chat.completion", "created": 1700000000, "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": message}},
	})
	require.NoError(t, err)
	return evalserver.Step{Body: string(b)}
}

// Answer is a scripted final answer.
func Answer(t testing.TB, text string) evalserver.Step {
	t.Helper()
	return Reply(t, map[string]any{"role": "assistant", "content": text}, "stop")
}

// Calls is a scripted round of tool calls.
func Calls(t testing.TB, calls ...map[string]any) evalserver.Step {
	t.Helper()
	list := make([]any, len(calls))
	for i, c := range calls {
		list[i] = c
	}
	return Reply(t, map[string]any{"role": "assistant", "content": nil, "tool_calls": list}, "tool_calls")
}

// Call is one tool call of a scripted round.
func Call(t testing.TB, id, name string, args any) map[string]any {
	t.Helper()
	a, err := json.Marshal(args)
	require.NoError(t, err)
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": string(a)}}
}

// ScriptedModel starts the scripted OpenAI-compatible model with steps
// loaded, closed when the test ends.
func ScriptedModel(t testing.TB, steps []evalserver.Step) *evalserver.Server {
	t.Helper()
	model, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = model.Close() })
	model.Load(steps)
	return model
}
