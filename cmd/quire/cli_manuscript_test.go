package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

func TestContext(t *testing.T) {
	book, cache := sampleProject(t)
	tests := []struct {
		name      string
		args      []string
		wantPaths []string
		wantErr   string
	}{
		{name: "chapter number", args: []string{"context", "3"}, wantPaths: []string{"manuscript/03-slack-water.md"}},
		{name: "title prefix, any case", args: []string{"context", "the vault"}, wantPaths: []string{"manuscript/04-the-vault-beneath-the-light.md"}},
		{name: "path", args: []string{"context", "manuscript/05-salt-debt.md"}, wantPaths: []string{"manuscript/05-salt-debt.md"}},
		{name: "refs for a comparison", args: []string{"context", "--refs", "1,chapter 2"}, wantPaths: []string{"manuscript/01-thirteen-strokes.md", "manuscript/02-the-tally-does-not-lie.md"}},
		{name: "current", args: []string{"context", "current", "--current", "manuscript/02-the-tally-does-not-lie.md"}, wantPaths: []string{"manuscript/02-the-tally-does-not-lie.md"}},
		{name: "escape refused", args: []string{"context", "../../etc/passwd.md"}, wantErr: "path refused"},
		{name: "unknown number lists candidates", args: []string{"context", "9"}, wantErr: "closest: 5"},
		{name: "no selection on the command line", args: []string{"context", "selection"}, wantErr: "no text selected"},
		{name: "current needs --current", args: []string{"context", "current"}, wantErr: "no document is active"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := run(t, append(tt.args, "--json", "--project", book, cache)...)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			var got manuscript.Context
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			var paths []string
			for _, u := range got.Units {
				paths = append(paths, u.Path)
				assert.NotEmpty(t, u.Text)
				assert.Equal(t, u.Chars, len([]rune(u.Text)), "untruncated text is whole")
			}
			assert.Equal(t, tt.wantPaths, paths)
		})
	}
}

func TestContextLimit(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "context", "1", "--limit", "200", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "1. Thirteen Strokes")
	assert.Regexp(t, `\[quire: truncated; showing the first \d+ of \d+ characters of manuscript/01-thirteen-strokes.md\]`, out)
}

func TestMentions(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "mentions", "--json", "--project", book, cache)
	require.NoError(t, err)
	var table mentionsTableOutput
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	require.Len(t, table.Chapters, 5)
	byName := map[string]mentionedEntry{}
	for _, e := range table.Entries {
		byName[e.Name] = e
		sum := 0
		for _, n := range e.Counts {
			sum += n
		}
		assert.Equal(t, e.Total, sum, "%s: the per-chapter counts add up", e.Name)
	}
	sev, ok := byName["Séverine Aubrac"]
	require.True(t, ok, "a name with a diacritic is found")
	assert.Greater(t, sev.Total, 0)
	moss, ok := byName["Moss Kettering"]
	require.True(t, ok)
	assert.Equal(t, "manuscript/01-thirteen-strokes.md", moss.First.Path)
	assert.Positive(t, moss.First.Line)

	text, _, err := run(t, "mentions", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, text, "Séverine Aubrac")
	assert.Contains(t, text, "TOTAL")

	one, _, err := run(t, "mentions", "salt", "--json", "--project", book, cache)
	require.NoError(t, err)
	var chapter mentionsChapterOutput
	require.NoError(t, json.Unmarshal([]byte(one), &chapter))
	assert.Equal(t, "manuscript/05-salt-debt.md", chapter.Chapter.Path)
	names := map[string]int{}
	for _, e := range chapter.Entries {
		names[e.Name] = e.Total
	}
	assert.Equal(t, sev.Counts[4], names["Séverine Aubrac"], "the chapter view agrees with the table")
}

func TestUntracked(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "untracked", "--json", "--project", book, cache)
	require.NoError(t, err)
	var names []untrackedName
	require.NoError(t, json.Unmarshal([]byte(out), &names))
	got := map[string]untrackedName{}
	for _, n := range names {
		got[n.Name] = n
	}
	require.Contains(t, got, "Hesper", "the sample book names Hesper again and again with no entry")
	require.Contains(t, got, "Corwin")
	assert.GreaterOrEqual(t, got["Hesper"].Count, 3)
	for _, tracked := range []string{"Moss", "Teodora", "Séverine", "Brinmouth"} {
		assert.NotContains(t, got, tracked, "names with entries are not untracked")
	}

	// Giving Hesper an entry tracks the name.
	require.NoError(t, os.WriteFile(filepath.Join(book, "codex", "characters", "hesper.md"),
		[]byte("---\nname: Hesper Lowe\naliases: [Hesper]\n---\n# Hesper Lowe\n"), 0o644))
	out, _, err = run(t, "untracked", "--json", "--project", book, cache)
	require.NoError(t, err)
	names = nil
	require.NoError(t, json.Unmarshal([]byte(out), &names))
	for _, n := range names {
		assert.NotEqual(t, "Hesper", n.Name)
	}
}

// untrackedJSON runs `quire untracked --json` on book, by name.
func untrackedJSON(t *testing.T, book, cache string) map[string]untrackedName {
	t.Helper()
	out, stderr, err := run(t, "untracked", "--json", "--project", book, cache)
	require.NoError(t, err, stderr)
	var names []untrackedName
	require.NoError(t, json.Unmarshal([]byte(out), &names))
	got := map[string]untrackedName{}
	for _, n := range names {
		got[n.Name] = n
	}
	return got
}

// An untracked name comes with the other forms it counted and the other
// names it keeps apart; an entry made of them finds what it promised.
func TestUntrackedCarriesAliases(t *testing.T) {
	book, cache := writeBook(t, map[string]string{
		"quire.yaml":                    "title: Aliases\n",
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-a.md": "# One\n\nMara rode to Netherfield at dawn; Netherfield House was dark. " +
			"She met Catherine there, and Catherine, and Catherine." + strings.Repeat(" Then Lady Catherine came.", 30) + "\n",
		"manuscript/02-b.md": "# Two\n\nAgain, Netherfield slept, and Netherfield woke.\n",
	})
	got := untrackedJSON(t, book, cache)
	require.Contains(t, got, "Netherfield")
	assert.Equal(t, []string{"Netherfield House"}, got["Netherfield"].Aliases)
	assert.Equal(t, []string{}, got["Netherfield"].Exclude)
	assert.Equal(t, 4, got["Netherfield"].Count)
	assert.NotContains(t, got, "Netherfield House")
	require.Contains(t, got, "Catherine")
	assert.Equal(t, []string{"Lady Catherine"}, got["Catherine"].Exclude)
	assert.Equal(t, 3, got["Catherine"].Count)
	assert.Equal(t, 30, got["Lady Catherine"].Count)

	text, _, err := run(t, "untracked", "--project", book, cache)
	require.NoError(t, err)
	assert.Regexp(t, `NAME +USES +CHAPTERS +FIRST +ALIASES +EXCLUDES`, text)
	assert.Regexp(t, `Netherfield +4 +2 +manuscript/01-a.md:3:14 +Netherfield House +-`, text)
	assert.Regexp(t, `Catherine +3 +1 +\S+ +- +Lady Catherine`, text)

	// Made as the quick fix makes them, the entries find what was counted.
	for _, n := range []untrackedName{got["Netherfield"], got["Catherine"]} {
		src, err := codex.NewEntrySource(codex.EntryDraft{Type: codex.TypeLocation, Name: n.Name, Aliases: n.Aliases, Exclude: n.Exclude})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(book, "codex", "characters", strings.ToLower(n.Name)+".md"), []byte(src), 0o644))
	}
	out, _, err := run(t, "mentions", "--json", "--project", book, cache)
	require.NoError(t, err)
	var table mentionsTableOutput
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	totals := map[string]int{}
	for _, e := range table.Entries {
		totals[e.Name] = e.Total
	}
	assert.Equal(t, 4, totals["Netherfield"])
	assert.Equal(t, 3, totals["Catherine"])
	after := untrackedJSON(t, book, cache)
	assert.NotContains(t, after, "Netherfield")
	assert.Contains(t, after, "Lady Catherine", "kept apart, still untracked")
}

func TestExplicate(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "explicate", "--json", "--project", book, cache,
		"She wears her father's oilskin coat, two sizes too big")
	require.NoError(t, err)
	var got explicateOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Source)
	assert.Equal(t, "codex/characters/teodora-quill/index.md", got.Source.Entry)
	assert.True(t, got.Source.Exact)
	require.NotEmpty(t, got.Passages)
	require.Len(t, got.Lines, len(got.Passages))
	for i, p := range got.Passages {
		assert.Positive(t, got.Lines[i])
		assert.Contains(t, p.Path, "manuscript/")
	}

	_, _, err = run(t, "explicate", "  ", "--project", book, cache)
	require.Error(t, err, "an empty quote is refused")
}

func TestManuscriptCommandsWriteNothingIntoTheBook(t *testing.T) {
	book, cache := sampleProject(t)
	before := tree(t, book)
	for _, args := range [][]string{{"context", "1"}, {"mentions"}, {"untracked"}, {"explicate", "the thirteenth stroke"}} {
		_, _, err := run(t, append(args, "--project", book, cache)...)
		require.NoError(t, err)
	}
	assert.Equal(t, before, tree(t, book))
}

func TestManuscriptGlobsFromQuireYAML(t *testing.T) {
	book := t.TempDir()
	cache := "--cache-dir=" + filepath.Join(t.TempDir(), "cache")
	for rel, text := range map[string]string{
		"quire.yaml":               "manuscript:\n  - draft/*.md\n",
		"draft/02-second.md":       "# Second\n\nWords here.\n",
		"draft/01-first.md":        "# First\n\nOne two three.\n",
		"manuscript/99-ignored.md": "# Not a chapter here\n",
	} {
		p := filepath.Join(book, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	out, _, err := run(t, "context", "--refs", "1,2", "--json", "--project", book, cache)
	require.NoError(t, err)
	var got manuscript.Context
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got.Units, 2)
	assert.Equal(t, "draft/01-first.md", got.Units[0].Path)
	assert.Equal(t, "draft/02-second.md", got.Units[1].Path)

	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("manuscript: {bad: map}\n"), 0o644))
	_, _, err = run(t, "context", "1", "--project", book, cache)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quire.yaml")
}
