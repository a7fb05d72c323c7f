package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// TestOutlineDiagnostics: a chapter's outline problems reach the editor:
// a scene note left mid-scene, a status the book does not know, and a
// synopsis written for text that has changed since.
func TestOutlineDiagnostics(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	rel := "manuscript/03-x.md"
	scene := "Ilse counts the ledgers."
	text := "---\nstatus: someday\n---\nMara waits.\n\n* * *\n\n<!-- scene\nsynopsis: Ilse counts.\nsynopsis-hash: " + manuscript.ProseHash(scene) + "\n-->\n\n" + scene + "\n\n<!-- scene\npov: Mara Vell\n-->\n"
	c.open(rel, text)
	ds := c.waitDiagnostics(c.uri(rel), "the outline's problems", hasCode(manuscript.CodeSceneStatus))
	codes := map[string]protocol.Diagnostic{}
	for _, d := range ds {
		codes[d.Code.(string)] = d
	}
	require.Contains(t, codes, manuscript.CodeSceneNote, "the note after the prose opens no scene")
	assert.Equal(t, uint32(14), codes[manuscript.CodeSceneNote].Range.Start.Line)
	assert.NotContains(t, codes, manuscript.CodeStaleSynopsis, "the synopsis is current")

	// The scene's prose changes: its synopsis is stale.
	c.replaceText(rel, 2, strings.Replace(text, "counts the ledgers", "burns the ledgers", 1))
	ds = c.waitDiagnostics(c.uri(rel), "a stale synopsis", hasCode(manuscript.CodeStaleSynopsis))
	for _, d := range ds {
		if d.Code == manuscript.CodeStaleSynopsis {
			assert.Equal(t, protocol.DiagnosticSeverityInformation, d.Severity)
			assert.Equal(t, uint32(8), d.Range.Start.Line)
			assert.Contains(t, d.Message, "written before the scene (Scene 2) last changed")
		}
	}
}

// vaultChapter is a chapter of two scenes, the second with a note.
const vaultChapter = "---\ntitle: The Vault\npov: Mara Vell\nday: 2\n---\nMara waits for Ilse.\n\n* * *\n\n" +
	"<!-- scene\npov: Ilse Dorn\nstatus: idea\n-->\n\n\"Nine,\" said Ilse Dorn.\n"

// outlineSession starts a server on bookFiles and rel, the client
// applying every workspace edit, with rel open.
func outlineSession(t *testing.T, files map[string]string, rel string) (*testClient, *openBook) {
	t.Helper()
	c, proj := proposalSessionOf(t, files, map[string]any{"applied": true}, protocol.ClientCapabilities{})
	c.open(rel, files[rel])
	return c, proj
}

// appliedText is rel's text with the last workspace edit the server sent
// applied.
func appliedText(t *testing.T, c *testClient, text string) string {
	t.Helper()
	sent := c.sent(protocol.MethodWorkspaceApplyEdit)
	require.NotEmpty(t, sent)
	var e struct {
		Edit struct {
			DocumentChanges []struct {
				TextDocument struct {
					Version *int32 `json:"version"`
				} `json:"textDocument"`
				Edits []protocol.TextEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	require.NoError(t, json.Unmarshal(sent[len(sent)-1], &e))
	require.Len(t, e.Edit.DocumentChanges, 1)
	require.NotNil(t, e.Edit.DocumentChanges[0].TextDocument.Version, "an open document's edit carries its version")
	lines := textdoc.NewLines(text)
	edits := e.Edit.DocumentChanges[0].Edits
	for i := len(edits) - 1; i >= 0; i-- {
		start, end, err := lines.RangeOffsets(edits[i].Range)
		require.NoError(t, err)
		text = text[:start] + edits[i].NewText + text[end:]
	}
	return text
}

func TestQuireOutline(t *testing.T) {
	rel := "manuscript/02-vault.md"
	files := maps2(bookFiles, map[string]string{rel: vaultChapter})
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	// The editor's text counts: a third scene typed and not saved.
	c.open(rel, vaultChapter+"\n* * *\n\n<!-- scene: {status: draft} -->\n\nThe tide.\n")
	var o wire.Outline
	require.Eventually(t, func() bool {
		c.call(wire.MethodOutline, wire.OutlineParams{BookParams: wire.BookParams{URI: c.uri(rel)}, Speakers: true}, &o)
		return o.Scenes >= 3
	}, 10*time.Second, 20*time.Millisecond)
	var vault wire.OutlineChapter
	for _, a := range o.Acts {
		for _, ch := range a.Chapters {
			if ch.Path == rel {
				vault = ch
			}
		}
	}
	require.Len(t, vault.Scenes, 3)
	assert.Equal(t, string(c.uri(rel)), vault.URI)
	assert.Equal(t, "Ilse Dorn", vault.Scenes[1].POV)
	assert.Equal(t, "idea", vault.Scenes[1].Status)
	assert.Equal(t, []string{"Ilse Dorn"}, vault.Scenes[1].Speak)
	assert.Equal(t, "draft", vault.Scenes[2].Status)

	var filtered wire.Outline
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandOutline,
		"arguments": []any{wire.OutlineParams{Status: "idea"}}}, &filtered)
	assert.Equal(t, 1, filtered.Scenes)
}

func TestSetOutlineCommand(t *testing.T) {
	rel := "manuscript/02-vault.md"
	files := maps2(bookFiles, map[string]string{rel: vaultChapter})
	c, _ := outlineSession(t, files, rel)
	synopsis := "Ilse counts nine."
	var res wire.SetOutlineResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandSetOutline,
		"arguments": []any{wire.SetOutlineParams{URI: string(c.uri(rel)), Scene: 2, Synopsis: &synopsis}}}, &res)
	assert.True(t, res.Applied)
	assert.Contains(t, res.Message, "Set the synopsis of scene 2 of The Vault")
	got := appliedText(t, c, vaultChapter)
	u := manuscript.NewUnit(rel, got, 0)
	sc := u.Scenes(manuscript.SceneRules{})[1]
	assert.Equal(t, synopsis, sc.Note.Synopsis)
	assert.Equal(t, "idea", sc.Note.Status, "the rest of the note stays")
	assert.NotEmpty(t, sc.Hash)
	assert.False(t, sc.Note.Stale(sc.Hash))
	assert.Contains(t, c.messages(), res.Message)

	// A status the book does not have is refused, and nothing is sent.
	bad := "someday"
	sent := len(c.sent(protocol.MethodWorkspaceApplyEdit))
	_ = c.callErr(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandSetOutline,
		"arguments": []any{wire.SetOutlineParams{URI: string(c.uri(rel)), Scene: 2, Status: &bad}}}, &res)
	c.waitMessage(`Not set: "someday" is not one of this book's statuses (idea, draft, revised, final).`)
	assert.Len(t, c.sent(protocol.MethodWorkspaceApplyEdit), sent)
}

func TestOutlineCodeActions(t *testing.T) {
	rel := "manuscript/02-vault.md"
	text := strings.Replace(vaultChapter, "status: idea\n", "status: idea\nsynopsis: Ilse counts.\nsynopsis-hash: 000000000000\n", 1)
	files := maps2(bookFiles, map[string]string{rel: text})
	c, _ := outlineSession(t, files, rel)
	lines := textdoc.NewLines(text)
	titles := func(off int) []string {
		var actions []codeAction
		at := lines.Position(off)
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
			Range:        protocol.Range{Start: at, End: at},
		}, &actions)
		var out []string
		for _, a := range actions {
			out = append(out, a.Title)
		}
		return out
	}
	onBreak := titles(strings.Index(text, "* * *"))
	assert.Contains(t, onBreak, "Mark the synopsis of scene 2 of The Vault as current")
	assert.Contains(t, onBreak, "Ask the Developmental Editor for a new synopsis of scene 2 of The Vault")
	assert.Contains(t, onBreak, "Set the status of scene 2 of The Vault to draft")
	assert.NotContains(t, onBreak, "Set the status of scene 2 of The Vault to idea", "its status now")
	inProse := titles(strings.Index(text, "Nine"))
	assert.NotContains(t, inProse, "Set the status of scene 2 of The Vault to draft", "statuses on the break or note only")
	first := titles(strings.Index(text, "Mara waits"))
	assert.Contains(t, first, "Ask the Developmental Editor for a synopsis of scene 1 of The Vault")
	front := titles(strings.Index(text, "pov: Mara"))
	assert.Contains(t, front, "Ask the Developmental Editor for a synopsis of the chapter The Vault")
	assert.NotContains(t, front, "Set the status of the chapter The Vault to final", "statuses on the title or status line only")
	assert.Contains(t, titles(strings.Index(text, "title: The Vault")), "Set the status of the chapter The Vault to final")
	// The scene's actions come last: the menu's other rows keep their
	// places as the cursor moves.
	assert.Equal(t, "Ask the Developmental Editor for a synopsis of the chapter The Vault", front[len(front)-1])
}

// TestProposeSynopsis: the advisor, through the real client against a
// scripted server, writes a scene's synopsis; it is held as a proposal
// the chapter's code actions offer, and applying it sets the synopsis
// and its hash, so it is current until the scene changes.
func TestProposeSynopsis(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	f := newFakeLLM(t, callStep(t, [2]string{"get_manuscript_context", `{"ref":"selection"}`}),
		answerStep(t, "**Synopsis:** “Ilse counts the ledgers and finds\none short.”\n\nI hope this helps."))
	rel := "manuscript/02-vault.md"
	files := maps2(bookFiles, map[string]string{rel: vaultChapter,
		"quire.yaml": "title: The Salt Ledger\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  retries: 0\n"})
	c, proj := outlineSession(t, files, rel)
	var res wire.SynopsisProposal
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandProposeSynopsis,
		"arguments": []any{wire.SynopsisParams{URI: string(c.uri(rel)), Scene: 2}}}, &res)
	assert.Equal(t, "Ilse counts the ledgers and finds one short.", res.Synopsis)
	c.waitMessage("The Developmental Editor proposes a synopsis of scene 2 of The Vault")
	assert.Empty(t, c.sent(protocol.MethodWorkspaceApplyEdit), "nothing is applied before the writer says so")

	// The model read the scene as the selection, the whole scene and no
	// more.
	reqs := f.requests()
	require.Len(t, reqs, 2)
	first, _ := json.Marshal(reqs[0])
	assert.Contains(t, string(first), "Write a synopsis of the selected passage")
	second, _ := json.Marshal(reqs[1])
	assert.Contains(t, string(second), `said Ilse Dorn.`)
	assert.NotContains(t, string(second), `Mara waits for Ilse`)

	p, ok := proj.proposals.Get(res.ID)
	require.True(t, ok)
	assert.Equal(t, rel, p.Path)
	assert.Contains(t, p.Diff, "+synopsis: Ilse counts the ledgers and finds one short.")

	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}}, &actions)
	var apply *codeAction
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Apply proposal: update the synopsis of scene 2 of The Vault") {
			apply = &actions[i]
		}
	}
	require.NotNil(t, apply, "the chapter's code actions offer the proposal")

	ar, err := applyProposal(t, c, res.ID)
	require.NoError(t, err)
	assert.True(t, ar.Applied)
	got := appliedText(t, c, vaultChapter)
	sc := manuscript.NewUnit(rel, got, 0).Scenes(manuscript.SceneRules{})[1]
	assert.Equal(t, "Ilse counts the ledgers and finds one short.", sc.Note.Synopsis)
	assert.False(t, sc.Note.Stale(sc.Hash))
	assert.Equal(t, "idea", sc.Note.Status)
}

func TestCleanSynopsis(t *testing.T) {
	for in, want := range map[string]string{
		"Ilse counts.":                        "Ilse counts.",
		"Synopsis: Ilse counts.\n\nMore text": "Ilse counts.",
		"# Scene 2\n\n\"Ilse counts.\"":       "Ilse counts.",
		"_Ilse counts --> nine._":             "Ilse counts -> nine.",
		"":                                    "",
		strings.Repeat("Ilse counts. ", 100):  strings.TrimSpace(strings.Repeat("Ilse counts. ", 61)),
	} {
		assert.Equal(t, want, cleanSynopsis(in), "%q", in)
	}
}

// TestAskReadsTheOutlineFirst: the developmental editor reads the
// outline, then the chapter it points to; the answer's evidence says why
// each file was read and whether the answer names it, and its document
// lists the calls in order.
func TestAskReadsTheOutlineFirst(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	f := newFakeLLM(t,
		callStep(t, [2]string{"get_outline", `{}`}),
		callStep(t, [2]string{"get_manuscript_context", `{"ref":"The Vault"}`}),
		answerStep(t, "The turn comes in The Vault, when Ilse counts nine."))
	rel := "manuscript/02-vault.md"
	files := maps2(bookFiles, map[string]string{rel: vaultChapter,
		"quire.yaml": "title: The Salt Ledger\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  retries: 0\n"})
	c, _ := outlineSession(t, files, rel)
	var res wire.AskResult
	c.call(wire.MethodAsk, wire.AskParams{Message: "Where does the book turn?"}, &res)
	require.Len(t, res.Consulted, 2)
	assert.Equal(t, "get_outline", res.Consulted[0].Call)
	assert.Equal(t, 3, res.Consulted[0].Outlined, "every chapter of the book")
	assert.Equal(t, `get_manuscript_context "The Vault"`, res.Consulted[1].Call)
	var vault *wire.Evidence
	for i := range res.Evidence {
		if res.Evidence[i].Path == rel {
			vault = &res.Evidence[i]
		}
	}
	require.NotNil(t, vault, "%+v", res.Evidence)
	assert.Equal(t, `get_manuscript_context "The Vault", after get_outline (the whole book) listed it`, vault.Why)
	assert.True(t, vault.Cited, "the answer names The Vault")
	assert.Equal(t, 2, vault.Step)

	// The outline's first request holds the outline tool; the prompt
	// says to read it first.
	reqs := f.requests()
	require.Len(t, reqs, 3)
	first, _ := json.Marshal(reqs[0])
	assert.Contains(t, string(first), "read the outline first")
	outline, _ := json.Marshal(reqs[1])
	assert.Contains(t, string(outline), `Ilse Dorn`)
}
