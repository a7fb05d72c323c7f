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

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// vscodeURI is the file URI VS Code sends for path: on Windows the
// drive lower case and its colon escaped (file:///c%3A/Users/…).
func vscodeURI(path string) protocol.DocumentURI {
	u := string(textdoc.PathURI(path))
	if rest, ok := strings.CutPrefix(u, "file:///"); ok && len(rest) >= 2 && rest[1] == ':' {
		u = "file:///" + strings.ToLower(rest[:1]) + "%3A" + rest[2:]
	}
	return protocol.DocumentURI(u)
}

// TestStdioFeaturesInBothURIForms drives the built quire (quire.exe
// under Wine) over stdio as VS Code names files and as Neovim and Helix
// do, in a book whose folder has a space and accents and whose chapters
// have CRLF line ends: hover, definition, references, rename,
// completion, diagnostics and an ask against a scripted provider, every
// URI in the answers written as the client writes it.
func TestStdioFeaturesInBothURIForms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the quire binary")
	}
	bin := buildQuire(t)
	forms := []struct {
		name string
		uri  func(string) protocol.DocumentURI
	}{
		{"VS Code", vscodeURI},
		{"Neovim", textdoc.PathURI},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			f := newFakeLLM(t, answerStep(t, "Mara is consistent."))
			root := filepath.Join(t.TempDir(), "My Novel – Zoë")
			files := map[string]string{
				"quire.yaml": "title: The Salt Ledger\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  retries: 0\n",
			}
			for rel, text := range bookFiles {
				files[rel] = strings.ReplaceAll(text, "\n", "\r\n")
			}
			for rel, text := range files {
				p := filepath.Join(root, filepath.FromSlash(rel))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
			}
			real, err := filepath.EvalSymlinks(root)
			require.NoError(t, err)
			rootURI := form.uri(real)
			inBook := func(u protocol.DocumentURI) bool { return strings.HasPrefix(string(u), string(rootURI)+"/") }

			s := startStdio(t, bin, root)
			init := s.call(1, protocol.MethodInitialize, protocol.InitializeParams{
				RootURI:          rootURI,
				WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(rootURI), Name: "book"}},
			})
			require.Nil(t, init.Error, "%s", init)
			s.notify(protocol.MethodInitialized, map[string]any{})

			chapter := form.uri(filepath.Join(real, "manuscript", "01-harbor.md"))
			text := files["manuscript/01-harbor.md"]
			s.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
				TextDocument: protocol.TextDocumentItem{URI: chapter, LanguageID: "markdown", Version: 1, Text: text},
			})
			at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: chapter}, Position: protocol.Position{Line: 2, Character: 1}}

			// Wine starts slowly: the first hover waits for the book.
			h := s.pollHoverFor(chapter, 2, 1, time.Minute)
			assert.Contains(t, h.Contents.Value, "**Mara Vell**")
			entry := form.uri(filepath.Join(real, "codex", "characters", "mara-vell.md"))
			assert.Contains(t, h.Contents.Value, "("+string(entry)+")", "the hover links the entry in the client's form")

			var defs []protocol.Location
			s.result(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: at}, &defs)
			require.NotEmpty(t, defs)
			assert.Equal(t, entry, defs[0].URI)

			var refs []protocol.Location
			s.result(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: at,
				Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
			uris := map[protocol.DocumentURI]bool{}
			for _, r := range refs {
				uris[r.URI] = true
				assert.True(t, inBook(r.URI), "%s is in the client's form of %s", r.URI, rootURI)
			}
			assert.True(t, uris[chapter], "the open chapter is named as the client named it: %v", uris)
			assert.True(t, uris[form.uri(filepath.Join(real, "manuscript", "02-storm.md"))], "%v", uris)

			// Ilse Dorn is named in full in the chapter, so a rename edits it.
			atIlse := at
			atIlse.Position.Character = 23
			var edit protocol.WorkspaceEdit
			s.result(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: atIlse, NewName: "Ilse Marrow"}, &edit)
			edited := map[protocol.DocumentURI]bool{}
			for u := range edit.Changes {
				edited[u] = true
			}
			for _, dc := range edit.DocumentChanges {
				edited[dc.TextDocument.URI] = true
			}
			require.NotEmpty(t, edited)
			for u := range edited {
				assert.True(t, inBook(u), "%s is in the client's form of %s", u, rootURI)
			}
			assert.True(t, edited[chapter], "the open chapter's edit names it as the client did: %v", edited)
			assert.True(t, edited[form.uri(filepath.Join(real, "codex", "characters", "ilse-dorn.md"))], "%v", edited)

			storm := form.uri(filepath.Join(real, "manuscript", "02-storm.md"))
			s.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
				TextDocument: protocol.TextDocumentItem{URI: storm, LanguageID: "markdown", Version: 1, Text: "# Storm\r\n\r\nSee [[Il"},
			})
			var items protocol.CompletionList
			s.result(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: storm}, Position: protocol.Position{Line: 2, Character: 8}}}, &items)
			var labels []string
			for _, it := range items.Items {
				labels = append(labels, it.Label)
			}
			assert.Contains(t, labels, "Ilse Dorn")

			diags := s.waitNotification(protocol.MethodTextDocumentPublishDiagnostics, func(params json.RawMessage) bool {
				var p protocol.PublishDiagnosticsParams
				return json.Unmarshal(params, &p) == nil && p.URI == chapter
			})
			assert.NotEmpty(t, diags, "diagnostics name the chapter as the client did")

			var answer wire.AskResult
			s.result(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandAsk,
				"arguments": []any{map[string]any{"message": "Is Mara consistent?", "uri": chapter}}}, &answer)
			assert.Equal(t, "Mara is consistent.", answer.Answer)
			require.Len(t, f.requests(), 1, "one request reached the scripted provider")

			m := s.call(90, protocol.MethodShutdown, nil)
			require.Nil(t, m.Error, "%s", m)
			s.notify(protocol.MethodExit, nil)
			assert.Equal(t, 0, s.wait(), "stderr:\n%s", s.stderr.String())
		})
	}
}

// result calls method and decodes its result into out.
func (s *stdioSession) result(method string, params, out any) {
	s.t.Helper()
	s.nextID++
	m := s.call(s.nextID, method, params)
	require.Nil(s.t, m.Error, "%s: %s", method, m)
	require.NoError(s.t, json.Unmarshal(m.Result, out), "%s: %s", method, m.Result)
}

// pollHoverFor is pollHover with its own patience.
func (s *stdioSession) pollHoverFor(uri protocol.DocumentURI, line, char uint32, patience time.Duration) *protocol.Hover {
	s.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s.nextID++
		m := s.call(s.nextID, protocol.MethodTextDocumentHover, hoverParams(uri, line, char))
		require.Nil(s.t, m.Error, "%s", m)
		if string(m.Result) != "null" {
			var h protocol.Hover
			require.NoError(s.t, json.Unmarshal(m.Result, &h))
			return &h
		}
		require.True(s.t, time.Now().Before(deadline), "hover stayed null; stderr:\n%s", s.stderr.String())
		time.Sleep(50 * time.Millisecond)
	}
}

// waitNotification returns the params of the first notification of
// method, held or still to come, for which match is true.
func (s *stdioSession) waitNotification(method string, match func(json.RawMessage) bool) json.RawMessage {
	s.t.Helper()
	for _, m := range s.held {
		if m.Method == method && match(m.Params) {
			return m.Params
		}
	}
	deadline := time.After(wireTimeout)
	for {
		select {
		case m, ok := <-s.msgs:
			require.True(s.t, ok, "quire closed stdout; stderr:\n%s", s.stderr.String())
			s.held = append(s.held, m)
			if m.Method == method && match(m.Params) {
				return m.Params
			}
		case <-deadline:
			s.t.Fatalf("no %s", method)
		}
	}
}
