package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `quire map` writes the page to the book's cache folder, never into the
// book, and prints where.
func TestMapWritesToTheCache(t *testing.T) {
	book, cache := sampleProject(t)
	before := tree(t, book)
	out, _, err := run(t, "map", "--project", book, cache)
	require.NoError(t, err)
	path := strings.TrimSpace(out)
	assert.Equal(t, filepath.Join(strings.TrimPrefix(cache, "--cache-dir="), "map.html"), path)
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, want := range []string{"The Thirteenth Bell", `id="appearances"`, `id="spoken"`, `id="timeline"`, `id="relationships"`, "Moss Kettering", "· 24% dialogue"} {
		assert.Contains(t, string(page), want)
	}
	assert.Equal(t, before, tree(t, book))

	// The same book, the same page.
	_, _, err = run(t, "map", "--project", book, cache)
	require.NoError(t, err)
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, page, again)
}

// quire.yaml's dialogue: says which marks are speech in the Spoken view;
// a value quire does not know is a warning, and the marks are guessed.
func TestMapReadsTheDialogueSetting(t *testing.T) {
	for _, tt := range []struct {
		name, yaml, share, warning string
	}{
		{"dashes", "dialogue: {quotes: dash}\n", "· 0% dialogue", ""},
		{"unknown", "dialogue: {quotes: backticks}\n", "· 24% dialogue", `dialogue: quotes is one of`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			book, cache := sampleProject(t)
			f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString(tt.yaml)
			require.NoError(t, errors.Join(err, f.Close()))
			out, errOut, err := run(t, "map", "--project", book, cache)
			require.NoError(t, err)
			page, err := os.ReadFile(strings.TrimSpace(out))
			require.NoError(t, err)
			assert.Contains(t, string(page), tt.share)
			if tt.warning == "" {
				assert.Empty(t, errOut)
			} else {
				assert.Contains(t, errOut, tt.warning)
			}
		})
	}
}

func TestMapOut(t *testing.T) {
	book, cache := sampleProject(t)
	tests := []struct {
		name    string
		flag    string
		out     string
		wantErr string
	}{
		{"elsewhere", "--output", filepath.Join(t.TempDir(), "maps", "bell.html"), ""},
		{"with build's short flag", "-o", filepath.Join(t.TempDir(), "maps", "bell.html"), ""},
		{"with the flag's first name", "--out", filepath.Join(t.TempDir(), "maps", "bell.html"), ""},
		{"inside the book", "--output", filepath.Join(book, "map.html"), "never writes inside the book"},
		{"inside a folder of the book", "-o", filepath.Join(book, "codex", "map.html"), "never writes inside the book"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := run(t, "map", "--project", book, cache, tt.flag, tt.out, "--json")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NoFileExists(t, tt.out)
				return
			}
			require.NoError(t, err)
			var rep mapReport
			require.NoError(t, json.Unmarshal([]byte(out), &rep))
			assert.Equal(t, mapReport{Path: tt.out, Bytes: rep.Bytes, Chapters: 5, Entries: 23}, rep)
			info, err := os.Stat(tt.out)
			require.NoError(t, err)
			assert.Equal(t, int64(rep.Bytes), info.Size())
		})
	}
}

// Cells link the editor's URI when one is given.
func TestMapEditorURI(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "map", "--project", book, cache, "--editor-uri", "vscode://file/{path}:{line}:{column}")
	require.NoError(t, err)
	page, err := os.ReadFile(strings.TrimSpace(out))
	require.NoError(t, err)
	real, err := filepath.EvalSymlinks(book)
	require.NoError(t, err)
	// One slash after file, on every system: vscode://file/home/… and
	// vscode://file/C:/…, not vscode://file//….
	assert.Contains(t, string(page), `href="vscode://file/`+strings.TrimPrefix(filepath.ToSlash(real), "/")+`/manuscript/01-thirteen-strokes.md:14:`)
}
