package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
)

// oddChapter is a chapter named as a URL would escape it; Windows allows
// no "?" in a file name, so there it goes without one.
var oddChapter = func() string {
	if runtime.GOOS == "windows" {
		return "manuscript/07-ch%20#.md"
	}
	return "manuscript/07-ch%20#?.md"
}()

// The sample's two planted slips, as `quire check` prints them: the
// columns count characters, so "Séverine" earlier on the line counts once.
const (
	sampleStyleSlip = "manuscript/04-the-vault-beneath-the-light.md:42:138: info: "
	sampleTraitSlip = "manuscript/05-salt-debt.md:36:98: warning: "
)

func TestCheckSample(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "check", "--project", book, cache)
	require.NoError(t, err, "warnings and infos do not fail the check")

	lines := strings.Split(strings.TrimSpace(out), "\n")
	var continuity []string
	for _, l := range lines {
		if strings.HasPrefix(l, "manuscript/") {
			continuity = append(continuity, l)
		}
	}
	require.Len(t, continuity, 2, out)
	assert.True(t, strings.HasPrefix(continuity[0], sampleStyleSlip), continuity[0])
	assert.True(t, strings.HasSuffix(continuity[0], "[style-rule]"), continuity[0])
	assert.Contains(t, continuity[0], `prefer "thirteenth"`)
	assert.True(t, strings.HasPrefix(continuity[1], sampleTraitSlip), continuity[1])
	assert.True(t, strings.HasSuffix(continuity[1], "[trait-contradiction]"), continuity[1])
	assert.Contains(t, continuity[1], `"dark brown eyes"`)
	assert.Contains(t, continuity[1], "pale green")

	// The codex's own problems are there too, sorted by file before the
	// chapters.
	assert.Contains(t, out, "codex/organizations/greyhand-company.md:15:39: warning: ")
	assert.Contains(t, out, "[broken-link]")
	assert.Contains(t, out, "[duplicate-name]")
	assert.True(t, strings.HasPrefix(lines[0], "codex/"), lines[0])
}

func TestCheckExitStatus(t *testing.T) {
	tests := []struct {
		name  string
		write map[string]string
		want  string
		// warning is set for a problem that is only a warning: the check
		// then passes.
		warning bool
	}{
		{
			name:  "a check raised to error",
			write: map[string]string{"quire.yaml": "checks: {trait-contradiction: error}\n"},
			want:  sampleTraitSlip[:len(sampleTraitSlip)-len("warning: ")] + "error: ",
		},
		{
			name:  "broken front matter",
			write: map[string]string{"codex/characters/broken.md": "---\nname: [Nell\ntype: character\n---\n# Nell\n"},
			want:  "codex/characters/broken.md:",
		},
		{
			name:    "a bad story day",
			write:   map[string]string{"manuscript/06-later.md": "---\ntitle: Later\nday: soon\n---\nThe bell rang.\n"},
			want:    "manuscript/06-later.md:3:6: warning: ",
			warning: true,
		},
		{
			name:    "a broken link in a chapter",
			write:   map[string]string{"manuscript/06-later.md": "---\ntitle: Later\n---\nThe bell rang for [[Nobody There]].\n"},
			want:    "manuscript/06-later.md:4:21: warning: no codex entry is named \"Nobody There\" [broken-link]",
			warning: true,
		},
		{
			name:  "a check level that does not exist",
			write: map[string]string{"quire.yaml": "checks: {trait-contradiction: loud}\n"},
			want:  fmt.Sprintf("quire.yaml:%d:9: error: ", sampleSettingsLines()+1),
		},
		{
			name:  "quire.yaml that is not YAML",
			write: map[string]string{"quire.yaml": "title: [unclosed\n"},
			want:  "quire.yaml:",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			book, cache := sampleProject(t)
			for rel, text := range tc.write {
				path := filepath.Join(book, filepath.FromSlash(rel))
				if rel == "quire.yaml" {
					old, err := os.ReadFile(path)
					require.NoError(t, err)
					text = string(old) + text
				}
				require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
			}
			out, _, err := run(t, "check", "--project", book, cache)
			severity := ": error: "
			if tc.warning {
				severity = ": warning: "
				assert.NoError(t, err, out)
			} else {
				assert.Equal(t, exitError{1}, err, out)
			}
			var hit string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, tc.want) && strings.Contains(l, severity) {
					hit = l
				}
			}
			assert.NotEmpty(t, hit, "a line starting %q in:\n%s", tc.want, out)
		})
	}
}

func TestCheckJSON(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "check", "--project", book, cache, "--json", "manuscript/05-salt-debt.md")
	require.NoError(t, err)

	var raw map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.Len(t, raw["problems"], 1, out)
	assert.Equal(t, map[string]any{
		"path": "manuscript/05-salt-debt.md", "line": 36.0, "column": 98.0, "endLine": 36.0, "endColumn": 113.0,
		"severity": "warning", "code": "trait-contradiction",
		"message": raw["problems"][0]["message"],
	}, raw["problems"][0])

	// No problem is an empty array, never null.
	out, _, err = run(t, "check", "--project", book, cache, "--json", "manuscript/01-thirteen-strokes.md")
	require.NoError(t, err)
	assert.JSONEq(t, `{"problems": []}`, out)
}

func TestCheckPaths(t *testing.T) {
	book, cache := sampleProject(t)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"one chapter", []string{"manuscript/05-salt-debt.md"}, []string{sampleTraitSlip}},
		{"a folder, absolute", []string{filepath.Join(book, "manuscript")}, []string{sampleStyleSlip, sampleTraitSlip}},
		{"two files", []string{"manuscript/04-the-vault-beneath-the-light.md", "codex/organizations/greyhand-company.md"},
			[]string{"codex/organizations/greyhand-company.md:15:39: ", sampleStyleSlip}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, append([]string{"check", "--project", book, cache}, tc.args...)...)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, len(tc.want), out)
			for i, prefix := range tc.want {
				assert.True(t, strings.HasPrefix(lines[i], prefix), lines[i])
			}
		})
	}

	// From inside the book, a path may be the working folder's.
	t.Chdir(filepath.Join(book, "manuscript"))
	out, _, err := run(t, "check", "--project", book, cache, "05-salt-debt.md")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, sampleTraitSlip), out)
	assert.Equal(t, 1, strings.Count(out, "\n"), out)

	_, stderr, err := run(t, "check", "--project", book, cache, "manuscript/99-nowhere.md")
	assert.Equal(t, exitError{2}, err)
	assert.Contains(t, stderr, "manuscript/99-nowhere.md: no such file or folder in the book")

	_, stderr, err = run(t, "check", "--project", book, cache, t.TempDir())
	assert.Equal(t, exitError{2}, err)
	assert.Contains(t, stderr, "is outside the book")
}

func TestCheckMissingBook(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-book")
	out, stderr, err := run(t, "check", "--project", missing, "--cache-dir="+t.TempDir())
	assert.Equal(t, exitError{2}, err)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "quire check: there is no book folder at "+missing)
}

func TestCheckUsage(t *testing.T) {
	book, cache := sampleProject(t)
	out, stderr, err := run(t, "check", "--project", book, cache, "--no-such-flag")
	assert.Equal(t, exitError{2}, err)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "quire check: unknown flag: --no-such-flag; see quire check --help")
}

// quire.yaml's own problems that the language server shows on the file
// are listed too, at their line and column: a key quire does not read,
// and an advisor action it sets aside.
func TestCheckSettingsProblems(t *testing.T) {
	tests := []struct {
		name   string
		append string
		want   string
		// fails is set when the problem is an error, which fails the check.
		fails bool
	}{
		{
			name:   "an unknown setting",
			append: "colour: red\n",
			want:   fmt.Sprintf(`quire.yaml:%d:1: warning: unknown setting "colour"; quire ignores it [settings]`, sampleSettingsLines()+1),
		},
		{
			name:   "a goal that is no number",
			append: "goals:\n  daily: lots\n",
			want:   `quire.yaml:15:10: warning: goals: daily must be a whole number of words above 0, such as daily: 1000, not "lots" [settings]`,
		},
		{
			name:   "a dialogue convention quire does not know",
			append: "dialogue:\n  quotes: curly\n",
			want:   fmt.Sprintf(`quire.yaml:%d:11: warning: dialogue: quotes is one of auto, double, single, guillemets, german or dash (straight and curly marks alike), not "curly" [settings]`, sampleSettingsLines()+2),
		},
		{
			name:   "an action that takes a core action's id",
			append: "actions:\n  - id: continuity-check\n    name: My check\n    scope: file\n    persona: continuity-editor\n    prompt: Check the chapter.\n",
			want:   fmt.Sprintf(`quire.yaml:%d:3: error: action "continuity-check" is the core action`, sampleSettingsLines()+2),
			fails:  true,
		},
		{
			name:   "an action without a persona",
			append: "actions:\n  - id: harbor-scenes\n    name: Harbor scenes\n    scope: file\n    prompt: Check the docks.\n",
			want:   fmt.Sprintf("quire.yaml:%d:3: error: ", sampleSettingsLines()+2),
			fails:  true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			testhome.ConfigDir(t)
			book, cache := sampleProject(t)
			path := filepath.Join(book, "quire.yaml")
			old, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, append(old, tc.append...), 0o644))

			out, _, err := run(t, "check", "--project", book, cache)
			if tc.fails {
				assert.Equal(t, exitError{1}, err, out)
			} else {
				assert.NoError(t, err, out)
			}
			var hits []string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "quire.yaml:") {
					hits = append(hits, l)
				}
			}
			require.Len(t, hits, 1, out)
			assert.True(t, strings.HasPrefix(hits[0], tc.want), "%q does not start with %q", hits[0], tc.want)

			// --json says the same, with the same position.
			out, _, _ = run(t, "check", "--project", book, cache, "--json", "quire.yaml")
			var res checkOutput
			require.NoError(t, json.Unmarshal([]byte(out), &res))
			require.Len(t, res.Problems, 1, out)
			p := res.Problems[0]
			assert.Equal(t, "quire.yaml", p.Path)
			assert.Equal(t, hits[0][:strings.Index(hits[0], ": ")], "quire.yaml:"+itoa(p.Line)+":"+itoa(p.Column))
		})
	}
}

// A traits: or checks: of the writer's own config.yaml that cannot be
// used is that file's problem, under its path, never quire.yaml's.
func TestCheckUserConfigProblems(t *testing.T) {
	config := testhome.ConfigDir(t)
	userFile := filepath.Join(config, "quire", "config.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(userFile), 0o755))
	require.NoError(t, os.WriteFile(userFile, []byte("rules: [Be brief.]\nchecks: {after-death: loud}\n"), 0o644))
	book, cache := sampleProject(t)

	out, _, err := run(t, "check", "--project", book, cache)
	require.NoError(t, err, "the writer's own file does not fail the book's check")
	assert.Contains(t, out, userFile+`:2:9: warning: checks: after-death: "loud" is no level; use off, error, warning or info [settings]`)
	assert.NotContains(t, out, "quire.yaml:", "the problem is not the book's")

	// Checking part of the book lists the book's problems only.
	out, _, err = run(t, "check", "--project", book, cache, "manuscript/05-salt-debt.md")
	require.NoError(t, err)
	assert.NotContains(t, out, userFile)

	// The book's own checks: wins, and its problems are quire.yaml's.
	path := filepath.Join(book, "quire.yaml")
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(old, "checks: {after-death: loud}\n"...), 0o644))
	out, _, err = run(t, "check", "--project", book, cache)
	assert.Equal(t, exitError{1}, err)
	assert.Contains(t, out, fmt.Sprintf(`quire.yaml:%d:9: error: checks: after-death: "loud" is no level`, sampleSettingsLines()+1))
	assert.NotContains(t, out, userFile)
}

func itoa(n int) string { return strconv.Itoa(n) }

// A chapter iCloud Drive keeps only as a placeholder on this Mac is a
// warning of quire check, at the chapter's own path.
func TestCheckNamesChaptersLeftInICloud(t *testing.T) {
	book, cache := sampleProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(book, "manuscript", ".09-coda.md.icloud"), []byte("bplist00"), 0o644))
	out, _, err := run(t, "check", "--project", book, cache, "--json")
	require.NoError(t, err, "a warning alone does not fail the check")
	var got checkOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	var found []checkProblem
	for _, p := range got.Problems {
		if p.Code == "not-downloaded" {
			found = append(found, p)
		}
	}
	require.Len(t, found, 1, out)
	assert.Equal(t, "manuscript/09-coda.md", found[0].Path)
	assert.Equal(t, "warning", found[0].Severity)
	assert.Contains(t, found[0].Message, "not downloaded")
}

// Names a book's files hold cannot forge lines in quire check's report
// or reach the terminal as escape codes: a codex file named with a line
// break printed a line that looked like an error in chapter 1, and one
// named with \x1b[31m coloured the CI log. Every problem is one line,
// names escaped; a chapter whose name a URL would escape is a chapter;
// a chapter that is not text is reported, not read.
func TestCheckPrintsFileNamesSafely(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Log("Windows file names cannot hold control characters; the chapter names are still checked")
	}
	book, cache := sampleProject(t)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(book, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	forged := "x.md\nmanuscript/01-harbor.md:1:1: error: forged"
	if runtime.GOOS != "windows" {
		write("codex/characters/"+forged+".md", "---\nname: Forger\n---\n")
		write("codex/characters/\x1b[31mred.md", "---\nname: Red\n---\n")
	}
	write(oddChapter, "# Seven\n\nThe bell rang.\n")
	write("manuscript/08-wide.md", "#\x00 \x00W\x00i\x00d\x00e\x00")

	out, _, err := run(t, "check", "--project", book, cache)
	var exit exitError
	require.ErrorAs(t, err, &exit, "the binary chapter is an error")
	line := regexp.MustCompile(`^[^\s:]+(?: [^\s:]+)*:\d+:\d+: (error|warning|info): [^\n]* \[[a-z-]+\]$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		assert.Regexp(t, line, l)
		assert.NotContains(t, l, "\x1b", "no escape code reaches the terminal")
		assert.False(t, strings.HasPrefix(l, "manuscript/01-harbor.md:1:1: error: forged"), "no forged line: %q", l)
	}
	assert.Contains(t, out, "manuscript/08-wide.md:1:1: error: this chapter looks binary")
	assert.Contains(t, out, "[binary]")
	if runtime.GOOS != "windows" {
		assert.Contains(t, out, `codex/characters/x.md\nmanuscript/01-harbor.md:1:1: error: forged.md:1:1: warning:`)
		assert.Contains(t, out, `codex/characters/\x1b[31mred.md:1:1: warning:`)
		assert.Contains(t, out, "[file-name]")
	}

	ctxOut, _, err := run(t, "context", "--project", book, cache, "7")
	require.NoError(t, err)
	assert.Contains(t, ctxOut, oddChapter, "the chapter with the odd name is in the manuscript")
}

// sampleSettingsLines is how many lines the sample book's quire.yaml has:
// the problems of a setting appended to it are on the lines after.
func sampleSettingsLines() int {
	data, err := fs.ReadFile(sampleBook(), "quire.yaml")
	if err != nil {
		panic(err) // the sample is embedded
	}
	return strings.Count(string(data), "\n")
}

// TestCheckSaysACleanBookIsClean: silence on a clean book left a writer
// wondering whether the check ran; quire index says it, so does check.
func TestCheckSaysACleanBookIsClean(t *testing.T) {
	book, cache := writeBook(t, map[string]string{
		"codex/characters/ana.md": "---\ntype: character\nname: Ana Roth\n---\n# Ana Roth\n",
		"manuscript/01-one.md":    "# One\n\nAna Roth walked home.\n",
	})
	out, stderr, err := run(t, "check", "--project", book, cache)
	require.NoError(t, err, stderr)
	assert.Equal(t, "No problems found.\n", out)
	out, _, err = run(t, "check", "--json", "--project", book, cache)
	require.NoError(t, err)
	assert.JSONEq(t, `{"problems": []}`, out, "the JSON is the JSON")
}
