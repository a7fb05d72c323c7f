package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quire.bookMap writes the map to the book's cache folder and asks a
// client that can show documents to open it outside the editor.
func TestBookMapOpensInTheBrowser(t *testing.T) {
	cache := t.TempDir()
	c := startServer(t, Options{CacheDir: cache})
	c.answers = map[string]any{"window/showDocument": map[string]any{"success": true}}
	root := writeProject(t, bookFiles)
	c.root = root
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, map[string]any{
		"rootUri":          textdoc.PathURI(root),
		"workspaceFolders": []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
		"capabilities":     protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{ShowDocument: &protocol.ShowDocumentClientCapabilities{Support: true}}},
	}, &init)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	assert.Contains(t, init.Capabilities.ExecuteCommandProvider.Commands, wire.CommandBookMap)

	var res wire.BookMapResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBookMap,
		"arguments": []any{map[string]any{"uri": c.uri("manuscript/01-harbor.md")}}}, &res)
	assert.True(t, res.Shown)
	assert.True(t, strings.HasPrefix(res.Path, cache), "the map is in the cache folder: %s", res.Path)
	assert.False(t, strings.HasPrefix(res.Path, root), "never in the book")
	assert.Equal(t, textdoc.PathURI(res.Path), res.URI)
	assert.Equal(t, 2, res.Chapters)
	assert.Equal(t, 2, res.Entries, "Mara Vell and Ilse Dorn")
	page, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	assert.Equal(t, res.Bytes, len(page))
	assert.Contains(t, string(page), "Ilse Dorn")
	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	assert.Contains(t, string(page), `href="`+string(textdoc.PathURI(filepath.Join(real, "manuscript", "01-harbor.md")))+`#L3"`, "cells open the chapter at the first mention")

	c.mu.Lock()
	defer c.mu.Unlock()
	var shown []map[string]any
	for _, n := range c.notes {
		assert.NotEqual(t, protocol.MethodWindowShowMessage, n.method, "%s", n.params)
		if n.method == "window/showDocument" {
			var p map[string]any
			require.NoError(t, json.Unmarshal(n.params, &p))
			shown = append(shown, p)
		}
	}
	assert.Equal(t, []map[string]any{{"uri": string(res.URI), "external": true}}, shown)
}

// A client that cannot show documents (eglot 1.9) is told where the map
// is; the code action on a chapter's title runs the command.
func TestBookMapWithoutShowDocument(t *testing.T) {
	c := bareClient(t, writeProject(t, bookFiles), nil)
	a := actionNamed(t, c, "manuscript/01-harbor.md", span(0, 2, 2), bookMapTitle)
	assert.Equal(t, wire.CommandBookMap, a.Command.Command)
	m := c.runAction(1, a)
	var res wire.BookMapResult
	require.NoError(t, json.Unmarshal(m.Result, &res))
	assert.False(t, res.Shown)
	assert.FileExists(t, res.Path)
	msgs := c.shown()
	require.Len(t, msgs, 1, "%v", msgs)
	assert.Equal(t, "The book map (2 chapters, 2 codex entries mentioned) is in "+res.Path+": open it in your browser.", msgs[0].Message)
	for _, h := range c.held {
		assert.NotEqual(t, "window/showDocument", h.Method)
	}
	// In prose the action list stays as it was.
	m = c.call(2, protocol.MethodTextDocumentCodeAction, map[string]any{
		"textDocument": map[string]any{"uri": c.uri("manuscript/01-harbor.md")}, "range": span(2, 1, 1), "context": map[string]any{"diagnostics": []any{}}})
	var actions []codeAction
	require.NoError(t, json.Unmarshal(m.Result, &actions))
	assert.NotContains(t, titles(actions), bookMapTitle)
}

// Quiet writes the map and opens nothing; the table is the heatmap as
// data, for a client that draws it as text.
func TestBookMapQuietTable(t *testing.T) {
	c := showDocClient(t, writeProject(t, bookFiles), true)
	m := c.runCommand(1, wire.CommandBookMap, map[string]any{"quiet": true, "table": true})
	require.Nil(t, m.Error, "%s", m)
	var res wire.BookMapResult
	require.NoError(t, json.Unmarshal(m.Result, &res))
	assert.False(t, res.Shown)
	require.NotNil(t, res.Table)
	assert.Equal(t, []string{"1", "2"}, res.Table.Chapters)
	assert.Equal(t, []string{"Harbor", "Storm"}, res.Table.Titles)
	assert.Equal(t, 2, res.Table.Mentioned)
	assert.Equal(t, []wire.MentionsRow{
		{Name: "Mara Vell", Type: "character", Total: 3, Counts: []int{2, 1}},
		{Name: "Ilse Dorn", Type: "character", Total: 1, Counts: []int{1, 0}},
	}, res.Table.Rows)
	assert.Empty(t, c.shown())
	for _, h := range c.held {
		assert.NotEqual(t, "window/showDocument", h.Method)
	}
}

// The map's Spoken view reads the book's dialogue: setting: where speech
// is marked by dashes, quotation marks hold no one's words.
func TestBookMapReadsTheDialogueSetting(t *testing.T) {
	files := map[string]string{
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\naliases: [Mara]\n---\n# Mara Vell\n",
		"manuscript/01-harbor.md":       "# Harbor\n\n\"Hold the line,\" said Mara.\n",
	}
	for _, tt := range []struct {
		name, yaml string
		want       []string
	}{
		{"quotation marks", "", []string{"· 50% dialogue", `<th scope="row" class="name t-character" title="Mara Vell: 3 words in 1 line, 3 of them certain">`}},
		{"dashes", "dialogue: {quotes: dash}\n", []string{"· 0% dialogue", "No line of dialogue is given to a character yet."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			book := maps2(files, map[string]string{"quire.yaml": tt.yaml})
			c := showDocClient(t, writeProject(t, book), true)
			m := c.runCommand(1, wire.CommandBookMap, map[string]any{"quiet": true})
			require.Nil(t, m.Error, "%s", m)
			var res wire.BookMapResult
			require.NoError(t, json.Unmarshal(m.Result, &res))
			page, err := os.ReadFile(res.Path)
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, string(page), w)
			}
		})
	}
}

func TestAtTitle(t *testing.T) {
	text := "---\npov: Ana\nday: 2\n---\n# Storm\n\nAna ran.\n## Later\nrain\n"
	tests := []struct {
		at   string
		want bool
	}{
		{"pov", true}, {"day", true}, {"# Storm", true}, {"Storm", true}, {"Ana ran", false}, {"Later", true}, {"rain", false},
	}
	for _, tt := range tests {
		t.Run(tt.at, func(t *testing.T) {
			assert.Equal(t, tt.want, atTitle(text, strings.Index(text, tt.at)))
		})
	}
	assert.False(t, atTitle("plain prose\n", 3))
	assert.False(t, atTitle("---\nunclosed: yes\n", 6), "an unclosed block is no front matter")
}
