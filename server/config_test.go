package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

func TestParseBookConfig(t *testing.T) {
	for _, tt := range []struct {
		name     string
		yaml     string
		errors   []int // lines of errors that set the file aside
		local    []int // lines of errors that set aside only their part
		warnings []int
	}{
		{name: "empty"},
		{name: "good", yaml: "title: T\nmanuscript: draft/*.md\nrules: [Be brief.]\nprovider: {model: m}\n"},
		{name: "unknown key warns", yaml: "title: T\ncolour: red\n", warnings: []int{2}},
		{name: "not YAML", yaml: "title: [\n", errors: []int{1}},
		{name: "not a mapping", yaml: "- a\n- b\n", errors: []int{1}},
		{name: "bad rules", yaml: "title: T\nrules: be kind\n", errors: []int{2}},
		{name: "bad persona", yaml: "personas:\n  editor: {}\n", errors: []int{2}},
		{name: "bad provider key", yaml: "provider:\n  model: m\n  api_key: sk-x\n", errors: []int{3}},
		{name: "bad glob", yaml: "manuscript: ['  ']\n", errors: []int{0}},
		{name: "bad MCP server", yaml: "mcp_servers:\n  dict: {command: a, url: \"http://x\"}\n", errors: []int{2}},
		{name: "a dialogue convention quire does not know warns", yaml: "title: T\ndialogue:\n  quotes: curly\n", warnings: []int{3}},
		{name: "a dialogue convention", yaml: "dialogue:\n  quotes: single\n"},
		{name: "bad action, file stands", yaml: "actions:\n  - id: line-edit\n    name: x\n    scope: selection\n    persona: writing-coach\n    prompt: p\n", local: []int{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := parseBookConfig([]byte(tt.yaml))
			var errs, local, warns []int
			for _, p := range problems {
				switch {
				case p.severity == protocol.DiagnosticSeverityError && p.local:
					local = append(local, p.line)
				case p.severity == protocol.DiagnosticSeverityError:
					errs = append(errs, p.line)
				default:
					warns = append(warns, p.line)
				}
			}
			assert.Equal(t, tt.errors, errs, "%+v", problems)
			assert.Equal(t, tt.local, local, "%+v", problems)
			assert.Equal(t, len(tt.errors) > 0, hasErrors(problems))
			assert.Equal(t, tt.warnings, warns, "%+v", problems)
		})
	}
}

func bytesJoin(raws []json.RawMessage) []byte {
	var out []byte
	for _, r := range raws {
		out = append(out, r...)
	}
	return out
}

// peekSystem is the system prompt quire.peekPrompt shows.
func peekSystem(t *testing.T, c *testClient) string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	c.call(wire.MethodPeekPrompt, map[string]any{"message": "Hello?", "persona": "writing-coach"}, &body)
	require.NotEmpty(t, body.Messages)
	return body.Messages[0].Content
}

func TestQuireYAMLDiagnosticsAndLastGoodConfig(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["draft/01-storm.md"] = "# Storm\n\nThe storm came.\n"
	files["quire.yaml"] = "title: The Salt Ledger\nrules: be kind\ncolour: red\n"
	root := writeProject(t, files)
	c := startServer(t, Options{})
	c.initialize(root)
	uri := c.uri("quire.yaml")

	// A broken file does not keep the book closed; it says what is wrong, where.
	diags := c.waitDiagnostics(uri, "problems of quire.yaml", func(ds []protocol.Diagnostic) bool { return len(ds) == 2 })
	byLine := map[uint32]protocol.Diagnostic{}
	for _, d := range diags {
		byLine[d.Range.Start.Line] = d
	}
	assert.Equal(t, protocol.DiagnosticSeverityError, byLine[1].Severity)
	assert.Contains(t, byLine[1].Message, "rules must be a list")
	assert.Contains(t, byLine[1].Message, "keeps using")
	assert.Equal(t, protocol.Position{Line: 1, Character: uint32(len("rules: be kind"))}, byLine[1].Range.End)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, byLine[2].Severity)
	assert.Contains(t, byLine[2].Message, `unknown setting "colour"`)
	assert.NotNil(t, c.hoverAt("manuscript/01-harbor.md", 2, 1), "the book is open")
	assert.NotContains(t, peekSystem(t, c), "The writer's rules")

	// Fixed on disk: the diagnostics clear and the new settings apply,
	// manuscript globs included, without a restart.
	write := func(text string) {
		require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte(text), 0o644))
	}
	write("title: The Salt Ledger\nrules: [Use British spelling.]\nmanuscript: [draft/*.md]\n")
	c.waitDiagnostics(uri, "no problems", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	require.Eventually(t, func() bool {
		var st wire.StatusResult
		c.call(wire.MethodStatus, nil, &st)
		return st.Books[0].Chapters == 1 && strings.Contains(peekSystem(t, c), "- Use British spelling.")
	}, 10*time.Second, 20*time.Millisecond, "the new rules and chapters apply")

	// Broken again: reported, and the last good settings stay in force.
	write("title: The Salt Ledger\nrules: [Never mind.]\npersonas:\n  editor: {}\n")
	c.waitDiagnostics(uri, "the bad persona", func(ds []protocol.Diagnostic) bool {
		return len(ds) == 1 && ds[0].Range.Start.Line == 3 && strings.Contains(ds[0].Message, `no persona "editor"`)
	})
	system := peekSystem(t, c)
	assert.Contains(t, system, "- Use British spelling.")
	assert.NotContains(t, system, "Never mind.")
	var st wire.StatusResult
	c.call(wire.MethodStatus, nil, &st)
	assert.Equal(t, 1, st.Books[0].Chapters)

	// Open in the editor, the file's diagnostics follow the text as typed.
	c.open("quire.yaml", "title: x\nrules: oops\n")
	c.waitDiagnostics(uri, "the typed text's problem", func(ds []protocol.Diagnostic) bool {
		return len(ds) == 1 && ds[0].Range.Start.Line == 1
	})
}

func FuzzParseBookConfig(f *testing.F) {
	for _, seed := range []string{"", "title: T\nrules: [a]\n", "personas:\n  writing-coach:\n    tools: {groups: [canon_read]}\n",
		"provider: {model: m, api_key: x}\n", "manuscript: [\n", "- a\n", "rules: be\ncolour: red\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, problems := parseBookConfig([]byte(text))
		for _, p := range problems {
			assert.NotEmpty(t, p.message)
		}
		// Diagnostics always land inside the text.
		lines := textdoc.NewLines(text)
		for _, d := range configDiagnostics(text) {
			assert.Less(t, int(d.Range.Start.Line), lines.LineCount())
		}
	})
}

func TestUserConfigUnderTheBook(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	for _, tt := range []struct {
		name, user string
		want       []string // in the persona's prompt, in order
		message    string   // a warning the writer is shown
	}{
		{name: "merged", user: "rules: [Be brief.]\ncolour: red\n", want: []string{"- Be brief.", "- Use British spelling."}},
		{name: "broken, left out", user: "rules: be kind\n", want: []string{"- Use British spelling."}, message: "config.yaml is not used"},
		// A part of it that cannot be used is told as that file's, not
		// shown on the book's quire.yaml.
		{name: "a check level it cannot use", user: "rules: [Be brief.]\nchecks: {after-death: loud}\n", want: []string{"- Be brief.", "- Use British spelling."},
			message: "config.yaml: line 2: checks: after-death:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testhome.ConfigDir(t)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "quire"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "quire", "config.yaml"), []byte(tt.user), 0o644))
			files := map[string]string{"quire.yaml": "rules: [Use British spelling.]\n"}
			for k, v := range bookFiles {
				files[k] = v
			}
			c := startServer(t, Options{})
			c.initialize(writeProject(t, files))
			system := peekSystem(t, c)
			at := 0
			for _, w := range tt.want {
				i := strings.Index(system, w)
				require.GreaterOrEqual(t, i, at, "%q in order in:\n%s", w, system)
				at = i
			}
			if tt.message == "" {
				assert.NotContains(t, system, "be kind")
				return
			}
			require.Eventually(t, func() bool {
				return strings.Contains(string(bytesJoin(c.sent(protocol.MethodWindowShowMessage))), tt.message)
			}, 10*time.Second, 10*time.Millisecond)
		})
	}
}

func TestCodexGlobsApplyWithoutARestart(t *testing.T) {
	files := map[string]string{"codex/locations/quay.md": "---\nname: Quay of Lanterns\n---\n# Quay of Lanterns\n"}
	for k, v := range bookFiles {
		files[k] = v
	}
	root := writeProject(t, files)
	c := startServer(t, Options{})
	c.initialize(root)
	entries := func() int {
		var st wire.StatusResult
		c.call(wire.MethodStatus, nil, &st)
		return st.Books[0].Entries
	}
	require.Eventually(t, func() bool { return entries() == 3 }, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte("codex: [codex/characters/**]\n"), 0o644))
	require.Eventually(t, func() bool { return entries() == 2 }, 10*time.Second, 10*time.Millisecond, "only the characters are canon now")
	var found struct {
		Results []json.RawMessage `json:"results"`
	}
	c.call(wire.MethodLookup, map[string]any{"name": "Quay of Lanterns"}, &found)
	assert.Empty(t, found.Results)
}

// A quire.yaml with thousands of bad actions lists the first problems and
// how many more, as codex files do.
func TestConfigDiagnosticsAreCapped(t *testing.T) {
	text := "actions:\n  - id: a\n" + strings.Repeat("    x: y\n", 3000)
	diags := configDiagnostics(text)
	require.Len(t, diags, codex.MaxProblemsPerFile+1)
	assert.Contains(t, diags[len(diags)-1].Message, "more problems in this file are not listed")
}
