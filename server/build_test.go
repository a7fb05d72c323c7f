package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/server/wire"
)

func buildBook(t *testing.T, yaml string) string {
	return writeProject(t, map[string]string{
		"quire.yaml":                   yaml,
		"codex/characters/mara.md":     "---\ntype: character\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-the-harbour.md": "---\npov: Mara\n---\n# The harbour\n\nMara waited. <!-- too short -->\n\n## Night\n\nThe bell rang for [[Mara Vell|her]].\n",
		"manuscript/02-the-bell.md":    "# The bell\n\nIt rang thirteen.\n",
	})
}

const buildYAML = "title: The Harbour\nbuild:\n  author: Wren Halloway\n  contact: [14 Chandler's Row, wren@example.com]\n"

// TestBuildCodeActionWritesTheManuscriptIntoTheCache: at a chapter's
// heading the code action builds the DOCX; the command answers with the
// file in quire's cache folder, and a message names it for the clients
// that show nothing else (Helix, eglot). Nothing is written in the book.
func TestBuildCodeActionWritesTheManuscriptIntoTheCache(t *testing.T) {
	root := buildBook(t, buildYAML)
	cache := t.TempDir()
	c := startServer(t, Options{CacheDir: cache})
	c.initialize(root)
	uri := c.uri("manuscript/01-the-harbour.md")
	c.open("manuscript/01-the-harbour.md", "---\npov: Mara\n---\n# The harbour\n\nMara waited, unsaved.\n")

	actions := func(line uint32) map[string]*actionCommand {
		var got []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Range: protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}}, &got)
		out := map[string]*actionCommand{}
		for _, a := range got {
			out[a.Title] = a.Command
		}
		return out
	}
	assert.NotContains(t, actions(5), buildDOCXTitle, "prose keeps its list short")
	at := actions(3)
	require.Contains(t, at, buildDOCXTitle, "offered at the chapter's heading")
	require.Contains(t, at, buildEPUBTitle)
	cmd := at[buildDOCXTitle]
	require.Equal(t, wire.CommandBuild, cmd.Command)

	var res wire.BuildResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, &res)
	assert.Equal(t, "docx", res.Format)
	assert.Equal(t, "manuscript", res.Preset)
	assert.Equal(t, 2, res.Chapters)
	assert.True(t, strings.HasPrefix(res.Path, cache), "in the cache, never the book: %s", res.Path)
	assert.Equal(t, "the-harbour.docx", filepath.Base(res.Path))
	assert.FileExists(t, res.Path)
	msg := c.waitMessage("quire built the manuscript")
	assert.Contains(t, msg, res.Path)
	assert.Contains(t, msg, "DOCX, manuscript preset, 2 chapters, about 100 words")

	// The editor's unsaved text is what is built; quiet, no message.
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBuild,
		"arguments": []any{wire.BuildParams{BookParams: wire.BookParams{URI: uri}, Format: "md", Quiet: true}}}, &res)
	assert.Len(t, c.messages(), 1, "the quiet build sent no message")
	md, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	assert.Contains(t, string(md), "Mara waited, unsaved.")
	assert.NotContains(t, string(md), "pov:")

	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"quire.yaml", "codex", "manuscript"}, names, "nothing new in the book")
}

// TestBuildCommandSaysWhatTheSettingsLack: the manuscript preset without
// the writer's name and contact block is built all the same, with
// placeholders, and the message (a warning) says what to add, located in
// quire.yaml, with the file's path last; the answer carries the warnings
// for a client that tells the writer itself.
func TestBuildCommandSaysWhatTheSettingsLack(t *testing.T) {
	root := buildBook(t, "title: The Harbour\nbuild:\n  surname: Halloway\n")
	c := startServer(t, Options{})
	c.initialize(root)
	var res wire.BuildResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBuild,
		"arguments": []any{wire.BuildParams{Format: "docx"}}}, &res)
	assert.FileExists(t, res.Path)
	msg := c.waitMessage("quire built the manuscript")
	for _, want := range []string{`quire.yaml: line 3: build: author is not set, so the manuscript shows "Your Name"`, "quire.yaml: line 3: build: contact is not set"} {
		assert.Contains(t, msg, want)
	}
	assert.True(t, strings.HasSuffix(msg, ". The file: "+res.Path), msg)
	require.Len(t, res.Warnings, 2)
	assert.Contains(t, res.Warnings[0], "build: author is not set")

	// The reader's EPUB needs neither.
	var epub wire.BuildResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBuild,
		"arguments": []any{wire.BuildParams{Format: "epub"}}}, &epub)
	assert.Equal(t, "reader", epub.Preset)
	assert.FileExists(t, epub.Path)
	assert.Empty(t, epub.Warnings)
}

// TestBuildCommandWritesWhereTheCommandLineDoes: quire.build chooses its
// folder as quire build does (export.OutputFolder): the Documents
// folder by default, the book's own build: output once it sets one.
func TestBuildCommandWritesWhereTheCommandLineDoes(t *testing.T) {
	home := testhome.HomeDir(t)
	docs := filepath.Join(home, "Documents")
	require.NoError(t, os.MkdirAll(docs, 0o755))
	root := buildBook(t, buildYAML)
	c := startServer(t, Options{CacheDir: t.TempDir()})
	c.initialize(root)
	build := func() wire.BuildResult {
		var res wire.BuildResult
		c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBuild,
			"arguments": []any{wire.BuildParams{Format: "epub", Quiet: true}}}, &res)
		require.FileExists(t, res.Path)
		return res
	}
	assert.Equal(t, filepath.Join(docs, "quire", filepath.Base(root), "the-harbour.epub"), build().Path)

	require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte(buildYAML+"  output: out\n"), 0o644))
	assert.Eventually(t, func() bool { return build().Path == filepath.Join(root, "out", "the-harbour.epub") },
		10*time.Second, 50*time.Millisecond, "the book's own folder, inside the book")
}

// TestBuildSettingsProblemsAreDiagnostics: a bad build: value is a
// warning on its line of quire.yaml, before any build is asked for.
func TestBuildSettingsProblemsAreDiagnostics(t *testing.T) {
	root := buildBook(t, "title: The Harbour\nbuild:\n  author: Wren\n  paper: legal\n")
	c := startServer(t, Options{})
	c.initialize(root)
	diags := c.waitDiagnostics(c.uri("quire.yaml"), "the paper", func(ds []protocol.Diagnostic) bool { return len(ds) == 1 })
	assert.Equal(t, uint32(3), diags[0].Range.Start.Line)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, diags[0].Severity)
	assert.Contains(t, diags[0].Message, `build: paper is letter or a4, not "legal"`)
}

// TestBuildOutputIsNoDiagnostic: build: output and build: dashes are
// settings quire.yaml may hold, with no warning on them; a convention
// quire does not know is one, at its line.
func TestBuildOutputIsNoDiagnostic(t *testing.T) {
	root := buildBook(t, buildYAML+"  output: drafts\n  dashes: longest\n")
	c := startServer(t, Options{})
	c.initialize(root)
	diags := c.waitDiagnostics(c.uri("quire.yaml"), "the dashes", func(ds []protocol.Diagnostic) bool { return len(ds) == 1 })
	assert.Equal(t, uint32(5), diags[0].Range.Start.Line)
	assert.Contains(t, diags[0].Message, `build: dashes: "longest" is none of em`)
}
