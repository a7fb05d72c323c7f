package server

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// ilseWithEmoji puts an emoji before the text a proposal replaces, so the
// edit's UTF-16 range differs from its byte offsets.
const ilseWithEmoji = "---\nname: Ilse Dorn\nsummary: Harbormistress 😀 of Brinmouth.\n---\n# Ilse Dorn\n"

const ilseRel = "codex/characters/ilse-dorn.md"

func proposalBook() map[string]string {
	files := maps.Clone(bookFiles)
	files[ilseRel] = ilseWithEmoji
	return files
}

// proposalSession starts a server on a project, the client answering
// workspace/applyEdit with answer and declaring caps, and returns the
// client and the loaded project.
func proposalSession(t *testing.T, answer any, caps protocol.ClientCapabilities) (*testClient, *openBook) {
	t.Helper()
	return proposalSessionOf(t, proposalBook(), answer, caps)
}

// proposalSessionOf is proposalSession on the book of files.
func proposalSessionOf(t *testing.T, files map[string]string, answer any, caps protocol.ClientCapabilities) (*testClient, *openBook) {
	t.Helper()
	srv := New(Options{CacheDir: t.TempDir()})
	c := startServerWith(t, srv)
	c.mu.Lock()
	c.answers = map[string]any{protocol.MethodWorkspaceApplyEdit: answer}
	c.mu.Unlock()
	root := writeProject(t, files)
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          textdoc.PathURI(root),
		Capabilities:     caps,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	var proj *openBook
	require.Eventually(t, func() bool {
		proj = srv.sess.firstBook()
		return proj != nil
	}, 10*time.Second, 5*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, proj.wait(ctx))
	return c, proj
}

// updateIlse proposes replacing "Brinmouth" in text, the file's text.
func updateIlse(text string) proposal.Proposal {
	at := strings.Index(text, "Brinmouth")
	hash := codex.HashText(text)
	return proposal.Proposal{
		Tool: "propose_codex_update", Kind: proposal.KindUpdate, EntryType: codex.TypeCharacter, Name: "Ilse Dorn",
		ChangeSummary: "She moved to Port Caddow.", Path: ilseRel, BaseHash: hash,
		Edits:    []proposal.FileEdit{{Path: ilseRel, Range: codex.Range{Start: at, End: at + len("Brinmouth")}, NewText: "Port Caddow", BaseHash: hash}},
		Bases:    map[string]string{ilseRel: text},
		Markdown: "summary: Harbormistress of Port Caddow.",
	}
}

// sentEdit is a workspace/applyEdit the server sent.
type sentEdit struct {
	Label string `json:"label"`
	Edit  struct {
		DocumentChanges   []json.RawMessage           `json:"documentChanges"`
		ChangeAnnotations map[string]changeAnnotation `json:"changeAnnotations"`
	} `json:"edit"`
}

func lastEdit(t *testing.T, c *testClient) sentEdit {
	t.Helper()
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.Len(t, sent, 1)
	var e sentEdit
	require.NoError(t, json.Unmarshal(sent[0], &e))
	return e
}

func applyProposal(t *testing.T, c *testClient, id string) (wire.ApplyResult, error) {
	t.Helper()
	var res wire.ApplyResult
	err := c.callErr(wire.MethodApplyProposal, map[string]any{"id": id}, &res)
	return res, err
}

func TestApplyProposalUpdatesAClosedFile(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))

	res, err := applyProposal(t, c, p.ID)
	require.NoError(t, err)
	assert.Equal(t, wire.ApplyResult{ID: p.ID, Applied: true, Message: "Applied the proposed update of Ilse Dorn to " + ilseRel + ": review and save."}, res)

	e := lastEdit(t, c)
	assert.Contains(t, e.Label, "Ilse Dorn")
	assert.Empty(t, e.Edit.ChangeAnnotations, "no annotations for a client that did not declare them")
	require.Len(t, e.Edit.DocumentChanges, 1)
	var change struct {
		TextDocument struct {
			URI     protocol.DocumentURI `json:"uri"`
			Version *int32               `json:"version"`
		} `json:"textDocument"`
		Edits []map[string]any `json:"edits"`
	}
	require.NoError(t, json.Unmarshal(e.Edit.DocumentChanges[0], &change))
	assert.Contains(t, string(e.Edit.DocumentChanges[0]), `"version":null`)
	assert.Equal(t, c.uri(ilseRel), change.TextDocument.URI)
	require.Len(t, change.Edits, 1)
	assert.NotContains(t, change.Edits[0], "annotationId")
	raw, _ := json.Marshal(change.Edits[0]["range"])
	var r protocol.Range
	require.NoError(t, json.Unmarshal(raw, &r))
	// "summary: Harbormistress 😀 of " is 30 UTF-16 units: the emoji is two.
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 2, Character: 30}, End: protocol.Position{Line: 2, Character: 39}}, r)
	assert.Equal(t, "Port Caddow", change.Edits[0]["newText"])

	disk, err := os.ReadFile(filepath.Join(c.root, ilseRel))
	require.NoError(t, err)
	assert.Equal(t, ilseWithEmoji, string(disk), "the server writes nothing itself")
}

func TestApplyProposalUpdatesAnOpenDocumentAtItsVersion(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	unsaved := strings.Replace(ilseWithEmoji, "# Ilse Dorn\n", "# Ilse Dorn\n\nUnsaved notes.\n", 1)
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: c.uri(ilseRel), LanguageID: "markdown", Version: 7, Text: unsaved},
	})
	// The proposal was made from the editor's text, not the disk's.
	p := proj.proposals.Add(updateIlse(unsaved))
	var res wire.ApplyResult
	require.Eventually(t, func() bool {
		var err error
		res, err = applyProposal(t, c, p.ID)
		return err == nil
	}, 5*time.Second, 10*time.Millisecond, "the open document reaches the server")
	assert.True(t, res.Applied)
	e := lastEdit(t, c)
	require.Len(t, e.Edit.DocumentChanges, 1)
	assert.Contains(t, string(e.Edit.DocumentChanges[0]), `"version":7`)

	// A proposal made from the disk's text is stale against the editor's.
	stale := proj.proposals.Add(updateIlse(ilseWithEmoji))
	_, err := applyProposal(t, c, stale.ID)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "changed since")
	assert.Len(t, c.sent(protocol.MethodWorkspaceApplyEdit), 1, "nothing more was sent")
}

func TestApplyProposalCreatesFiles(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	entry := "---\nname: Oren Salt\n---\n# Oren Salt\n"
	soul := "# Soul\n\nHe fears the sea 🌊.\n"
	p := proj.proposals.Add(proposal.Proposal{
		Tool: "propose_codex_create", Kind: proposal.KindCreate, EntryType: codex.TypeCharacter, Name: "Oren Salt",
		Path: "codex/characters/oren-salt/oren-salt.md", SoulPath: "codex/characters/oren-salt/soul.md",
		Edits: []proposal.FileEdit{
			{Path: "codex/characters/oren-salt/oren-salt.md", Create: true, NewText: entry},
			{Path: "codex/characters/oren-salt/soul.md", Create: true, NewText: soul},
		},
		Markdown: entry, SoulMarkdown: soul,
	})
	res, err := applyProposal(t, c, p.ID)
	require.NoError(t, err)
	assert.True(t, res.Applied)

	e := lastEdit(t, c)
	require.Len(t, e.Edit.DocumentChanges, 4)
	for i, want := range []struct{ rel, text string }{{"codex/characters/oren-salt/oren-salt.md", entry}, {"codex/characters/oren-salt/soul.md", soul}} {
		var create map[string]any
		require.NoError(t, json.Unmarshal(e.Edit.DocumentChanges[2*i], &create))
		assert.Equal(t, "create", create["kind"])
		assert.Equal(t, string(c.uri(want.rel)), create["uri"])
		assert.Equal(t, map[string]any{"overwrite": false, "ignoreIfExists": false}, create["options"])
		var fill textDocumentEdit
		require.NoError(t, json.Unmarshal(e.Edit.DocumentChanges[2*i+1], &fill))
		assert.Equal(t, c.uri(want.rel), fill.TextDocument.URI)
		assert.Nil(t, fill.TextDocument.Version)
		require.Len(t, fill.Edits, 1)
		assert.Equal(t, protocol.Range{}, fill.Edits[0].Range)
		assert.Equal(t, want.text, fill.Edits[0].NewText)
	}
	_, err = os.Stat(filepath.Join(c.root, "codex/characters/oren-salt"))
	assert.True(t, os.IsNotExist(err), "the server creates nothing itself")

	// Once the file exists, the same change proposed again is stale.
	require.NoError(t, os.MkdirAll(filepath.Join(c.root, "codex/characters/oren-salt"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(c.root, "codex/characters/oren-salt/oren-salt.md"), []byte(entry), 0o644))
	again := p
	again.ID, again.Applied = "", time.Time{}
	again = proj.proposals.Add(again)
	_, err = applyProposal(t, c, again.ID)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "oren-salt.md changed since the proposed new entry Oren Salt was made (it was created)")
	assert.Len(t, c.sent(protocol.MethodWorkspaceApplyEdit), 1)
}

func TestApplyProposalRefusesAStaleProposal(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))
	require.NoError(t, os.WriteFile(filepath.Join(c.root, ilseRel), []byte(strings.Replace(ilseWithEmoji, "Harbormistress", "Former harbormistress", 1)), 0o644))

	_, err := applyProposal(t, c, p.ID)
	require.Error(t, err)
	var rpcErr *jsonrpc2.Error
	require.ErrorAs(t, err, &rpcErr)
	assert.Equal(t, jsonrpc2.InvalidRequest, rpcErr.Code)
	assert.Equal(t, "Not applied: "+ilseRel+" changed since the proposed update of Ilse Dorn was made (it was edited). Ask again for a proposal made from its text now.", rpcErr.Message)
	assert.NotContains(t, rpcErr.Message, p.ID, "no internal id reaches the writer")
	assert.Empty(t, c.sent(protocol.MethodWorkspaceApplyEdit), "nothing is sent for a stale proposal")

	_, err = applyProposal(t, c, "p-000000000000")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no longer available")
	assert.NotContains(t, err.Error(), "p-000000000000")
}

func TestApplyProposalReportsTheClientsRefusal(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": false, "failureReason": "the document changed"}, protocol.ClientCapabilities{})
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))
	// Through the command, as Helix would.
	var res wire.ApplyResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{
		"command": "quire.applyProposal", "arguments": []any{map[string]any{"id": p.ID}},
	}, &res)
	assert.Equal(t, wire.ApplyResult{ID: p.ID, Applied: false, FailureReason: "the document changed",
		Message: "Not applied: the editor did not apply the proposed update of Ilse Dorn to " + ilseRel + " (the document changed)."}, res)
}

func TestApplyProposalAnnotatesWhenTheClientCan(t *testing.T) {
	caps := protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		WorkspaceEdit: &protocol.WorkspaceClientCapabilitiesWorkspaceEdit{
			DocumentChanges:         true,
			ChangeAnnotationSupport: &protocol.WorkspaceClientCapabilitiesWorkspaceEditChangeAnnotationSupport{},
		},
	}}
	c, proj := proposalSession(t, map[string]any{"applied": true}, caps)
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))
	_, err := applyProposal(t, c, p.ID)
	require.NoError(t, err)
	e := lastEdit(t, c)
	require.Contains(t, e.Edit.ChangeAnnotations, proposalAnnotationID)
	a := e.Edit.ChangeAnnotations[proposalAnnotationID]
	assert.True(t, a.NeedsConfirmation)
	assert.Contains(t, a.Label, "Ilse Dorn")
	assert.Equal(t, "She moved to Port Caddow.", a.Description)
	var change textDocumentEdit
	require.NoError(t, json.Unmarshal(e.Edit.DocumentChanges[0], &change))
	require.Len(t, change.Edits, 1)
	assert.Equal(t, proposalAnnotationID, change.Edits[0].AnnotationID)
}

func TestProposalsListsNewestFirst(t *testing.T) {
	c, proj := proposalSession(t, nil, protocol.ClientCapabilities{})
	var empty wire.ProposalsResult
	c.call(wire.MethodProposals, map[string]any{"uri": c.uri(ilseRel)}, &empty)
	assert.Empty(t, empty.Proposals)
	assert.NotNil(t, empty.Proposals)

	older := updateIlse(ilseWithEmoji)
	older.Created = time.Now().Add(-time.Minute)
	older.Warnings = []string{"section not found; appended"}
	older.Diff = "--- a/" + ilseRel + "\n"
	first := proj.proposals.Add(older)
	second := proj.proposals.Add(proposal.Proposal{Kind: proposal.KindCreate, Name: "Oren Salt", EntryType: codex.TypeCharacter,
		Path: "codex/characters/oren-salt.md", ChangeSummary: "new", Markdown: "# Oren Salt\n",
		Edits: []proposal.FileEdit{{Path: "codex/characters/oren-salt.md", Create: true, NewText: "# Oren Salt\n"}}})

	var got wire.ProposalsResult
	c.call(wire.MethodProposals, nil, &got)
	require.Len(t, got.Proposals, 2)
	assert.Equal(t, second.ID, got.Proposals[0].ID)
	assert.Equal(t, first.ID, got.Proposals[1].ID)
	assert.Equal(t, wire.Proposal{
		ID: first.ID, Kind: "update", Name: "Ilse Dorn", EntryType: codex.TypeCharacter, Path: ilseRel,
		ChangeSummary: "She moved to Port Caddow.", Markdown: "summary: Harbormistress of Port Caddow.",
		Warnings: []string{"section not found; appended"}, Created: got.Proposals[1].Created,
		Status: "pending", Diff: "--- a/" + ilseRel + "\n",
	}, got.Proposals[1])
	assert.WithinDuration(t, older.Created, got.Proposals[1].Created, time.Second)
	assert.Equal(t, []string{}, got.Proposals[0].Warnings)
}

func proposalStatus(t *testing.T, c *testClient, id string) string {
	t.Helper()
	var got wire.ProposalsResult
	c.call(wire.MethodProposals, nil, &got)
	for _, p := range got.Proposals {
		if p.ID == id {
			return p.Status
		}
	}
	return "gone"
}

func TestProposalLifecycle(t *testing.T) {
	tests := []struct {
		name   string
		answer any
		// act is what the writer does after the proposal is made.
		act        func(t *testing.T, c *testClient, proj *openBook, id string)
		wantStatus string
	}{
		{name: "pending until acted on", answer: map[string]any{"applied": true},
			act: func(*testing.T, *testClient, *openBook, string) {}, wantStatus: "pending"},
		{name: "applied, and not applied twice", answer: map[string]any{"applied": true},
			act: func(t *testing.T, c *testClient, _ *openBook, id string) {
				res, err := applyProposal(t, c, id)
				require.NoError(t, err)
				assert.True(t, res.Applied)
				_, err = applyProposal(t, c, id)
				assert.ErrorContains(t, err, "already applied")
				assert.Len(t, c.sent(protocol.MethodWorkspaceApplyEdit), 1, "the second apply sent nothing")
			}, wantStatus: "applied"},
		{name: "refused by the editor stays pending", answer: map[string]any{"applied": false, "failureReason": "version moved"},
			act: func(t *testing.T, c *testClient, _ *openBook, id string) {
				res, err := applyProposal(t, c, id)
				require.NoError(t, err)
				assert.False(t, res.Applied)
			}, wantStatus: "pending"},
		{name: "stale once the file changes", answer: map[string]any{"applied": true},
			act: func(t *testing.T, c *testClient, proj *openBook, _ string) {
				require.NoError(t, os.WriteFile(filepath.Join(proj.real, filepath.FromSlash(ilseRel)), []byte(ilseWithEmoji+"\nMore.\n"), 0o644))
			}, wantStatus: "stale"},
		{name: "discarded", answer: map[string]any{"applied": true},
			act: func(t *testing.T, c *testClient, _ *openBook, id string) {
				var res wire.DiscardResult
				c.call(wire.MethodDiscardProposal, map[string]any{"id": id}, &res)
				assert.Equal(t, wire.DiscardResult{ID: id, Discarded: true}, res)
				var again wire.DiscardResult
				assert.ErrorContains(t, c.callErr(wire.MethodDiscardProposal, map[string]any{"id": id}, &again), "no longer available")
			}, wantStatus: "gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, proj := proposalSession(t, tt.answer, protocol.ClientCapabilities{})
			p := proj.proposals.Add(updateIlse(ilseWithEmoji))
			tt.act(t, c, proj, p.ID)
			assert.Equal(t, tt.wantStatus, proposalStatus(t, c, p.ID))
		})
	}
}

// shownMessages are the window/showMessage notifications the client got.
func (c *testClient) shownMessages() []protocol.ShowMessageParams {
	var out []protocol.ShowMessageParams
	for _, raw := range c.sent(protocol.MethodWindowShowMessage) {
		var m protocol.ShowMessageParams
		if json.Unmarshal(raw, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// A client with no window capabilities (eglot 1.9), which shows neither
// a command's result nor its error, hears how applying went.
func TestApplyProposalCommandTellsTheWriter(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	applyCmd := func(id string) json.RawMessage {
		return c.callRaw(protocol.MethodWorkspaceExecuteCommand, map[string]any{
			"command": "quire.applyProposal", "arguments": []any{map[string]any{"id": id}}})
	}
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))
	applyCmd(p.ID)
	msgs := c.shownMessages()
	require.Len(t, msgs, 1, "%v", c.methods())
	assert.Equal(t, protocol.MessageTypeInfo, msgs[0].Type)
	assert.Equal(t, "Applied the proposed update of Ilse Dorn to "+ilseRel+": review and save.", msgs[0].Message)

	stale := proj.proposals.Add(updateIlse(ilseWithEmoji))
	require.NoError(t, os.WriteFile(filepath.Join(c.root, ilseRel), []byte(strings.Replace(ilseWithEmoji, "Harbormistress", "Former harbormistress", 1)), 0o644))
	assert.Nil(t, applyCmd(stale.ID), "the refusal is told, not answered as an error with a code")
	msgs = c.shownMessages()
	require.Len(t, msgs, 2, "one message for the refusal: %v", c.methods())
	assert.Equal(t, protocol.MessageTypeWarning, msgs[1].Type)
	assert.Contains(t, msgs[1].Message, ilseRel+" changed since")
	assert.NotContains(t, msgs[1].Message, stale.ID)
}

// The plugins apply through quire/applyProposal and show the outcome in
// their own views: the request sends no message, so the writer is not
// told twice.
func TestApplyProposalRequestLeavesTheTellingToThePlugin(t *testing.T) {
	c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	p := proj.proposals.Add(updateIlse(ilseWithEmoji))
	var res wire.ApplyResult
	c.call(wire.MethodApplyProposal, map[string]any{"id": p.ID}, &res)
	assert.True(t, res.Applied)

	stale := proj.proposals.Add(updateIlse(ilseWithEmoji))
	require.NoError(t, os.WriteFile(filepath.Join(c.root, ilseRel), []byte(strings.Replace(ilseWithEmoji, "Harbormistress", "Former harbormistress", 1)), 0o644))
	err := c.callErr(wire.MethodApplyProposal, map[string]any{"id": stale.ID}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), ilseRel+" changed since")
	assert.Empty(t, c.shownMessages(), "%v", c.methods())
}

// A proposal's edits are byte ranges, and its base hash, like every
// codex.HashText, leaves line endings out: when the writer's file is
// converted to CRLF after the proposal was made (on disk, or by the
// editor in the open buffer), the apply is refused in words the writer
// can act on, and nothing is sent that could garble the file.
func TestApplyProposalRefusesAFileWhoseLineEndingsChanged(t *testing.T) {
	crlf := strings.ReplaceAll(ilseWithEmoji, "\n", "\r\n")
	tests := []struct {
		name    string
		convert func(t *testing.T, c *testClient)
	}{
		{"on disk", func(t *testing.T, c *testClient) {
			require.NoError(t, os.WriteFile(filepath.Join(c.root, ilseRel), []byte(crlf), 0o644))
		}},
		{"in the open document", func(t *testing.T, c *testClient) {
			c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
				TextDocument: protocol.TextDocumentItem{URI: c.uri(ilseRel), LanguageID: "markdown", Version: 3, Text: crlf},
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, proj := proposalSession(t, map[string]any{"applied": true}, protocol.ClientCapabilities{})
			// Made by the propose tools' own code, from the LF file.
			d, err := proposal.Update(proj.store, "propose_codex_update", codex.TypeCharacter, proposal.UpdateArgs{
				Name: "Ilse Dorn", ChangeSummary: "She moved.", TargetSection: "summary", ProposedMarkdown: "Harbormistress of Port Caddow.",
			})
			require.NoError(t, err)
			p := proj.proposals.Add(d.Proposal)
			assert.Equal(t, "pending", proposalStatus(t, c, p.ID))
			require.Equal(t, codex.HashText(crlf), p.BaseHash, "the hash alone cannot tell the conversion")

			tt.convert(t, c)
			require.Eventually(t, func() bool { return proposalStatus(t, c, p.ID) == "stale" }, 5*time.Second, 10*time.Millisecond,
				"the converted text reaches the server")
			_, err = applyProposal(t, c, p.ID)
			require.Error(t, err)
			var rpcErr *jsonrpc2.Error
			require.ErrorAs(t, err, &rpcErr)
			assert.Equal(t, "Not applied: "+ilseRel+" changed since the proposed update of Ilse Dorn was made (its line endings changed). "+
				"Ask again for a proposal made from its text now.", rpcErr.Message)
			assert.Empty(t, c.sent(protocol.MethodWorkspaceApplyEdit), "nothing is sent that could garble the file")

			// A proposal made from the CRLF text applies, its range read
			// in that text.
			fresh := proj.proposals.Add(updateIlse(crlf))
			res, err := applyProposal(t, c, fresh.ID)
			require.NoError(t, err)
			assert.True(t, res.Applied)
			e := lastEdit(t, c)
			require.Len(t, e.Edit.DocumentChanges, 1)
			assert.Contains(t, string(e.Edit.DocumentChanges[0]), `"start":{"line":2,"character":30}`)
		})
	}
}
