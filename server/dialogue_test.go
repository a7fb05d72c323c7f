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

	"github.com/quire-ink/quire/server/wire"
)

// speechBook is a chapter of four lines of dialogue: two with their tags,
// then two that turn-taking gives to the same speakers in turn.
var speechBook = map[string]string{
	"codex/characters/emma.md":      "---\nname: Emma Woodhouse\naliases: [Emma]\npronouns: she/her\n---\n",
	"codex/characters/knightley.md": "---\nname: Mr. Knightley\naliases: [Knightley]\npronouns: he/him\n---\n",
	"codex/characters/harriet.md":   "---\nname: Harriet Smith\naliases: [Harriet]\n---\n",
	"manuscript/01-hartfield.md": "# Hartfield\n\n" +
		"\"I cannot,\" said Emma, \"agree with you.\"\n\n" +
		"\"You will,\" Mr. Knightley replied.\n\n" +
		"\"Never.\"\n\n" +
		"\"Harriet thinks so.\"\n",
}

// tok is a semantic token decoded from LSP's relative integers.
type tok struct {
	Line, Char, Len uint32
	Type            string
	Uncertain       bool
}

func decodeTokens(t *testing.T, legend protocol.SemanticTokensLegend, data []uint32) []tok {
	t.Helper()
	require.Zero(t, len(data)%5, "tokens come in fives")
	var out []tok
	var line, char uint32
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			line += data[i]
			char = data[i+1]
		} else {
			char += data[i+1]
		}
		out = append(out, tok{Line: line, Char: char, Len: data[i+2], Type: string(legend.TokenTypes[data[i+3]]), Uncertain: data[i+4]&1 != 0})
	}
	return out
}

// tokensOptions are the semantic tokens options an initialize result
// declares: the legend and whether deltas are answered.
func tokensOptions(t *testing.T, res *protocol.InitializeResult) semanticTokensOptions {
	t.Helper()
	raw, err := json.Marshal(res.Capabilities.SemanticTokensProvider)
	require.NoError(t, err)
	var caps semanticTokensOptions
	require.NoError(t, json.Unmarshal(raw, &caps))
	return caps
}

func TestSemanticTokensColourDialogueAndNames(t *testing.T) {
	c := startServer(t, Options{})
	caps := tokensOptions(t, c.initialize(writeProject(t, speechBook)))
	assert.Equal(t, []protocol.SemanticTokenTypes{"dialogue", "character"}, caps.Legend.TokenTypes)
	assert.True(t, caps.Full.Delta, "the server answers with deltas")
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18), "the book has loaded")

	var full protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}}, &full)
	assert.Equal(t, []tok{
		{2, 0, 11, "dialogue", false}, {2, 17, 4, "character", false}, {2, 23, 17, "dialogue", false},
		{4, 0, 11, "dialogue", false}, {4, 12, 13, "character", false},
		{6, 0, 8, "dialogue", true},
		// A name inside speech cuts its speech's token in two.
		{8, 0, 1, "dialogue", true}, {8, 1, 7, "character", false}, {8, 8, 12, "dialogue", true},
	}, decodeTokens(t, caps.Legend, full.Data))
	require.NotEmpty(t, full.ResultID)

	// An edit: the delta turns the old tokens into the new ones.
	c.open("manuscript/01-hartfield.md", speechBook["manuscript/01-hartfield.md"])
	c.notifyServer(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{
			Range: protocol.Range{Start: protocol.Position{Line: 6, Character: 0}, End: protocol.Position{Line: 6, Character: 0}},
			Text:  "Emma sighed. ",
		}},
	})
	var delta protocol.SemanticTokensDelta
	c.call(protocol.MethodSemanticTokensFullDelta, protocol.SemanticTokensDeltaParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}, PreviousResultID: full.ResultID}, &delta)
	require.Len(t, delta.Edits, 1)
	e := delta.Edits[0]
	patched := append(append(append([]uint32{}, full.Data[:e.Start]...), e.Data...), full.Data[e.Start+e.DeleteCount:]...)
	var again protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}}, &again)
	assert.Equal(t, again.Data, patched, "the delta gives the same tokens as a full request")
	assert.Contains(t, decodeTokens(t, caps.Legend, again.Data), tok{6, 0, 4, "character", false}, "the name typed into the narration")
	assert.Less(t, len(e.Data), len(again.Data), "the edit carries less than the whole")

	// A result id the server no longer holds gets the full tokens.
	var stale map[string]any
	c.call(protocol.MethodSemanticTokensFullDelta, protocol.SemanticTokensDeltaParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}, PreviousResultID: "no-such-id"}, &stale)
	assert.Contains(t, stale, "data")
}

func TestSemanticTokensOffBySetting(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, speechBook)
	c.root = root
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, map[string]any{
		"rootUri": c.uri(""), "workspaceFolders": []map[string]any{{"uri": c.uri(""), "name": "book"}},
		"initializationOptions": map[string]any{"dialogue": map[string]any{"highlight": false}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18))
	var full protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")}}, &full)
	assert.Empty(t, full.Data)
}

func TestSpeakerHints(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, speechBook))
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18))
	hints := func() []inlayHint {
		var out []inlayHint
		c.call(methodInlayHint, inlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-hartfield.md")},
			Range: protocol.Range{End: protocol.Position{Line: 100}}}, &out)
		return out
	}
	assert.Empty(t, hints(), "off until the writer turns them on")

	c.notifyServer(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": map[string]any{"quire": map[string]any{"dialogue": map[string]any{"speakerHints": true}}}})
	require.Eventually(t, func() bool { return len(hints()) > 0 }, 5*time.Second, 20*time.Millisecond)
	got := hints()
	require.Len(t, got, 2, "the lines no tag names; a tagged line needs no hint")
	assert.Equal(t, protocol.Position{Line: 6, Character: 0}, got[0].Position)
	assert.Equal(t, "Emma Woodhouse?", got[0].Label)
	assert.Equal(t, protocol.Position{Line: 8, Character: 0}, got[1].Position)
	assert.Equal(t, "Mr. Knightley?", got[1].Label)
	assert.Contains(t, got[0].Tooltip, "turn-taking")
	require.Eventually(t, func() bool {
		for _, m := range c.methods() {
			if strings.HasPrefix(m, methodInlayHintRefresh) {
				return true
			}
		}
		return false
	}, 5*time.Second, 20*time.Millisecond, "the editor is asked to draw them")

	var state wire.SpeakerHints
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandToggleSpeakerHints}, &state)
	assert.False(t, state.On)
	assert.Empty(t, hints(), "the command turned them off")
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandToggleSpeakerHints}, &state)
	assert.True(t, state.On)
	assert.Len(t, hints(), 2)
}

func TestHoverOnDialogue(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, speechBook))
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18))
	tests := []struct {
		name       string
		line, char uint32
		want       []string
		rng        protocol.Range
	}{
		{"an explicit tag", 2, 3, []string{"**Emma Woodhouse** speaks.", "Decided by the speech tag (“said Emma”).", "5 words spoken."},
			protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 11}}},
		{"the second span of the same line", 2, 30, []string{"**Emma Woodhouse** speaks.", "5 words spoken."},
			protocol.Range{Start: protocol.Position{Line: 2, Character: 23}, End: protocol.Position{Line: 2, Character: 40}}},
		{"turn-taking", 6, 3, []string{"*Uncertain:* **Emma Woodhouse**, perhaps.", "turn-taking", "pick them from the quick fixes, or add `<!-- speaker: Name -->`"},
			protocol.Range{Start: protocol.Position{Line: 6, Character: 0}, End: protocol.Position{Line: 6, Character: 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := c.hoverAt("manuscript/01-hartfield.md", tt.line, tt.char)
			require.NotNil(t, h)
			for _, w := range tt.want {
				assert.Contains(t, h.Contents.Value, w)
			}
			require.NotNil(t, h.Range)
			assert.Equal(t, tt.rng, *h.Range)
		})
	}
	// A name inside speech still shows its canon.
	h := c.hoverAt("manuscript/01-hartfield.md", 8, 3)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Harriet Smith")
	assert.NotContains(t, h.Contents.Value, "speaks")
	assert.Nil(t, c.hoverAt("manuscript/01-hartfield.md", 0, 3), "a heading is no speech")
}

// A line a pronoun decided says whom quire took the pronoun to be, and
// why: in its hover card, in its speaker hint's tooltip and in its
// quire/dialogue record.
func TestAPronounsLineSaysWhyThisCharacter(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, map[string]string{
		"codex/characters/emma.md":    speechBook["codex/characters/emma.md"],
		"codex/characters/harriet.md": "---\nname: Harriet Smith\naliases: [Harriet]\npronouns: she/her\n---\n",
		"manuscript/01-rain.md":       "# Rain\n\nHarriet came in from the garden.\n\n\"It is raining,\" she said.\n",
	}))
	const why = "Decided by the pronoun in the tag (“she said”): the character the paragraph before is about."
	h := c.hoverAt("manuscript/01-rain.md", 4, 3)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Harriet Smith**")
	assert.Contains(t, h.Contents.Value, why)

	var all wire.Dialogue
	c.call(wire.MethodDialogue, wire.DialogueParams{BookParams: wire.BookParams{URI: c.uri("manuscript/01-rain.md")}}, &all)
	require.Len(t, all.Utterances, 1)
	assert.Equal(t, "pronoun", all.Utterances[0].Rule)
	assert.Equal(t, "paragraph-before", all.Utterances[0].Clue)

	c.notifyServer(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": map[string]any{"quire": map[string]any{"dialogue": map[string]any{"speakerHints": true}}}})
	var hints []inlayHint
	require.Eventually(t, func() bool {
		hints = nil
		c.call(methodInlayHint, inlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-rain.md")},
			Range: protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
		return len(hints) > 0
	}, 5*time.Second, 20*time.Millisecond)
	require.Len(t, hints, 1)
	assert.Equal(t, "Harriet Smith?", hints[0].Label)
	assert.Contains(t, hints[0].Tooltip, "the character the paragraph before is about.")
}

func TestDialogueOverTheProtocol(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, speechBook))
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18))

	var all wire.Dialogue
	c.call(wire.MethodDialogue, wire.DialogueParams{BookParams: wire.BookParams{URI: c.uri("manuscript/01-hartfield.md")}}, &all)
	require.Len(t, all.Utterances, 4)
	first := all.Utterances[0]
	assert.Equal(t, "I cannot, agree with you.", first.Text)
	require.NotNil(t, first.Speaker)
	assert.Equal(t, "codex/characters/emma.md", *first.Speaker)
	assert.Equal(t, "explicit", first.Rule)
	assert.Equal(t, string(c.uri("manuscript/01-hartfield.md")), first.Chapter.URI)
	assert.Equal(t, wire.DialogueSpan{Start: 14, End: 23, Line: 3, Column: 2, EndLine: 3, EndColumn: 11}, first.Spans[0])

	var his wire.Dialogue
	c.call(wire.MethodDialogue, wire.DialogueParams{BookParams: wire.BookParams{URI: c.uri("manuscript/01-hartfield.md")}, Speaker: "Knightley"}, &his)
	var texts []string
	for _, r := range his.Utterances {
		texts = append(texts, r.Text)
	}
	assert.Equal(t, []string{"You will,", "Harriet thinks so."}, texts)

	err := c.callErr(wire.MethodDialogue, wire.DialogueParams{Speaker: "Mrs. Elton"}, &his)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no character is called "Mrs. Elton"`)

	// Lines of a character: by name, and from the place of a line.
	var locs []protocol.Location
	c.call(wire.MethodLinesOf, wire.LinesOfParams{Name: "Emma"}, &locs)
	require.Len(t, locs, 2)
	assert.Equal(t, uint32(2), locs[0].Range.Start.Line)
	assert.Equal(t, uint32(6), locs[1].Range.Start.Line)
	pos := protocol.Position{Line: 4, Character: 3}
	c.call(wire.MethodLinesOf, wire.LinesOfParams{BookParams: wire.BookParams{URI: c.uri("manuscript/01-hartfield.md")}, Position: &pos}, &locs)
	require.Len(t, locs, 2, "the speaker of the line under the cursor")
	assert.Equal(t, uint32(4), locs[0].Range.Start.Line)

	// The command shows the list where the editor shows nothing of a
	// command's result: this client cannot open documents, so a message
	// says where the list is.
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandLinesOf, "arguments": []any{map[string]any{"name": "Emma"}}}, &locs)
	require.Eventually(t, func() bool {
		for _, m := range c.messages() {
			if strings.Contains(m, "Emma Woodhouse speaks 2 lines in 1 chapter (1 of them quire's guess, marked ?).") {
				return true
			}
		}
		return false
	}, 5*time.Second, 20*time.Millisecond)
}

func TestInitializeOffersInlayHints(t *testing.T) {
	c := startServer(t, Options{})
	raw := c.callRaw(protocol.MethodInitialize, protocol.InitializeParams{RootURI: c.uri("")})
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(raw, &res))
	assert.JSONEq(t, "true", string(res.Capabilities["inlayHintProvider"]))
	assert.Contains(t, res.Capabilities, "hoverProvider", "the other capabilities are still there")
	assert.Contains(t, res.Capabilities, "semanticTokensProvider")
}

// On a line quire is unsure of, the code actions offer the characters
// who may speak it, quire's guess first; each writes the speaker line,
// after which the line is that character's by the writer's say. A line
// its tag names is offered none.
func TestSpeakerActionsWriteTheSpeakerLine(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, speechBook))
	rel := "manuscript/01-hartfield.md"
	text := speechBook[rel]
	c.open(rel, text)
	require.NotNil(t, c.hoverAt(rel, 2, 18))

	assert.Empty(t, speakerFixes(codeActionsAt(t, c, rel, span(2, 3, 3))), "a tagged line")
	actions := speakerFixes(codeActionsAt(t, c, rel, span(6, 3, 3)))
	require.NotEmpty(t, actions)
	assert.Equal(t, "Emma Woodhouse speaks this line", actions[0].Title, "quire's guess first")
	assert.True(t, actions[0].IsPreferred)
	var chosen *codeAction
	for k := range actions {
		assert.Equal(t, protocol.QuickFix, actions[k].Kind)
		if actions[k].Title == "Mr. Knightley speaks this line" {
			chosen = &actions[k]
		}
	}
	require.NotNil(t, chosen, "%v", titles(actions))
	only := speakerFixes(codeActionsAt(t, c, rel, span(6, 3, 3), protocol.QuickFix))
	assert.Equal(t, titles(actions), titles(only), "offered to a client that asks for quick fixes only")

	raw, err := json.Marshal(chosen.Edit)
	require.NoError(t, err)
	var edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				Version *int32 `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	require.NoError(t, json.Unmarshal(raw, &edit))
	require.Len(t, edit.DocumentChanges, 1)
	require.NotNil(t, edit.DocumentChanges[0].TextDocument.Version)
	require.Len(t, edit.DocumentChanges[0].Edits, 1)
	e := edit.DocumentChanges[0].Edits[0]
	assert.Equal(t, protocol.Position{Line: 6, Character: 8}, e.Range.Start)
	assert.Equal(t, " <!-- speaker: Mr. Knightley -->", e.NewText)

	edited := strings.Replace(text, "\"Never.\"\n", "\"Never.\" <!-- speaker: Mr. Knightley -->\n", 1)
	c.replaceText(rel, 2, edited)
	require.Eventually(t, func() bool {
		h := c.hoverAt(rel, 6, 3)
		return h != nil && strings.Contains(h.Contents.Value, "**Mr. Knightley** speaks.")
	}, 5*time.Second, 20*time.Millisecond)
	assert.Empty(t, speakerFixes(codeActionsAt(t, c, rel, span(6, 3, 3))), "the writer has said")
}

// speakerFixes are the actions of a code action reply that set a line's
// speaker.
func speakerFixes(actions []codeAction) []codeAction {
	var out []codeAction
	for _, a := range actions {
		if strings.HasSuffix(a.Title, " speaks this line") {
			out = append(out, a)
		}
	}
	return out
}

// After quire's candidates, the actions offer whoever speaks the lines
// around the guessed one: in a scene of three, the third.
func TestSpeakerActionsOfferTheSceneSpeakers(t *testing.T) {
	files := maps2(speechBook, map[string]string{"manuscript/01-hartfield.md": "# Hartfield\n\n" +
		"\"I cannot,\" said Emma, \"agree with you.\"\n\n" +
		"\"You will,\" Mr. Knightley replied.\n\n" +
		"\"Never.\"\n\n" +
		"\"Tea, anyone?\" The door had opened. \"Tea?\" asked Harriet.\n"})
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	rel := "manuscript/01-hartfield.md"
	c.open(rel, files[rel])
	require.NotNil(t, c.hoverAt(rel, 2, 3))
	got := titles(speakerFixes(codeActionsAt(t, c, rel, span(6, 3, 3))))
	assert.ElementsMatch(t, []string{"Emma Woodhouse speaks this line", "Mr. Knightley speaks this line", "Harriet Smith speaks this line"}, got)
}

// A letter set out in quotation marks is written, not spoken: its
// paragraphs get no dialogue token, while the speech around it does.
func TestALetterIsNotColouredAsSpeech(t *testing.T) {
	book := map[string]string{
		"codex/characters/emma.md":    speechBook["codex/characters/emma.md"],
		"codex/characters/harriet.md": speechBook["codex/characters/harriet.md"],
		"manuscript/01-letter.md": "# The letter\n\n" +
			"\"Read it to me,\" said Harriet.\n\n" +
			"\"My dear Harriet,\"\n\n" +
			"\"You will laugh when you know where I am gone.\"\n\n" +
			"\"Your affectionate friend,\"\n\n" +
			"\"LYDIA.\"\n\n" +
			"\"Oh!\" cried Emma.\n",
	}
	c := startServer(t, Options{})
	caps := tokensOptions(t, c.initialize(writeProject(t, book)))
	require.NotNil(t, c.hoverAt("manuscript/01-letter.md", 2, 24), "the book has loaded")

	var full protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("manuscript/01-letter.md")}}, &full)
	lines := map[uint32]bool{}
	for _, tk := range decodeTokens(t, caps.Legend, full.Data) {
		if tk.Type == "dialogue" {
			lines[tk.Line] = true
		}
	}
	assert.Equal(t, map[uint32]bool{2: true, 12: true}, lines, "speech on lines 2 and 12, the letter between uncoloured")
}

// TestTheBooksNarratorSpeaksI: "I asked" in a chapter whose own lines
// call the porter by name is the narrator the book's other chapters
// show, certain; when an edit of those chapters takes that away, the
// hover follows, to the chapter's own guess.
func TestTheBooksNarratorSpeaksI(t *testing.T) {
	book := map[string]string{
		"codex/characters/holmes.md":  "---\ntype: character\nname: Sherlock Holmes\naliases: [Holmes]\npronouns: he/him\n---\n",
		"codex/characters/watson.md":  "---\ntype: character\nname: John Watson\naliases: [Watson]\npronouns: he/him\n---\n",
		"codex/characters/mcmurdo.md": "---\ntype: character\nname: McMurdo\npronouns: he/him\n---\n",
		"manuscript/01-the-case.md": "# The Case\n\n\"What do you make of it, Watson?\" asked Holmes.\n\n" +
			"\"Nothing at all,\" said I.\n\n\"Look again, Watson.\"\n",
		"manuscript/02-the-cab.md": "# The Cab\n\n\"Are you armed, Watson?\" said Holmes.\n\n" +
			"\"I have my revolver,\" I answered.\n\n\"Good, Watson.\"\n",
		"manuscript/03-the-gate.md": "# The Gate\n\nThe porter stood at the gate with his lamp.\n\n" +
			"\"Let us in, McMurdo,\" said Holmes.\n\n\"Is this the house?\" I asked.\n\n\"It is, McMurdo, and you know me.\"\n",
	}
	c := startServer(t, Options{})
	c.initializeWith(writeProject(t, book), refreshingClient)
	speaker := func() string {
		h := c.hoverAt("manuscript/03-the-gate.md", 6, 3)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	require.Eventually(t, func() bool { return strings.Contains(speaker(), "**John Watson** speaks.") }, 10*time.Second, 20*time.Millisecond, "the book's narrator, certain: %s", speaker())
	assert.Contains(t, speaker(), "the narrator, as the lines around the book's “I” lines show")

	refreshes := func() int {
		n := 0
		for _, m := range c.methods() {
			if strings.HasPrefix(m, "workspace/semanticTokens/refresh") {
				n++
			}
		}
		return n
	}
	before := settledCount(refreshes)

	// The first two chapters no longer call him by name beside his lines.
	for _, rel := range []string{"manuscript/01-the-case.md", "manuscript/02-the-cab.md"} {
		c.open(rel, strings.ReplaceAll(book[rel], ", Watson", ""))
	}
	require.Eventually(t, func() bool { return strings.Contains(speaker(), "**McMurdo**, perhaps.") }, 10*time.Second, 20*time.Millisecond, "the chapter's own guess: %s", speaker())
	// The third chapter, drawn before, is drawn again.
	require.Eventually(t, func() bool { return refreshes() > before }, 5*time.Second, 20*time.Millisecond, "the editor is asked to draw the colours again")
}

// TestColoursFollowTheBook: the editor is asked to draw the chapters'
// colours again when the codex's names change, in the editor or on disk,
// for the names and speakers in a chapter already drawn may have
// changed with them.
func TestColoursFollowTheBook(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, speechBook)
	c.initializeWith(root, refreshingClient)
	require.NotNil(t, c.hoverAt("manuscript/01-hartfield.md", 2, 18), "the book has loaded")
	refreshes := func() int {
		n := 0
		for _, m := range c.methods() {
			if strings.HasPrefix(m, "workspace/semanticTokens/refresh") {
				n++
			}
		}
		return n
	}
	before := settledCount(refreshes)

	// An alias typed into an entry the editor has open.
	rel := "codex/characters/harriet.md"
	c.open(rel, strings.Replace(speechBook[rel], "[Harriet]", "[Harriet, Miss Smith]", 1))
	require.Eventually(t, func() bool { return refreshes() > before }, 5*time.Second, 20*time.Millisecond, "a name typed in the codex")

	// A character added on disk.
	before = refreshes()
	require.NoError(t, os.WriteFile(filepath.Join(root, "codex", "characters", "elton.md"), []byte("---\nname: Mr. Elton\npronouns: he/him\n---\n"), 0o644))
	require.Eventually(t, func() bool { return refreshes() > before }, 10*time.Second, 20*time.Millisecond, "a character written on disk")

	// A client that cannot draw its tokens again is not asked to.
	plain := startServer(t, Options{})
	plain.initialize(writeProject(t, speechBook))
	require.NotNil(t, plain.hoverAt("manuscript/01-hartfield.md", 2, 18))
	plain.open(rel, strings.Replace(speechBook[rel], "[Harriet]", "[Harriet, Miss Smith]", 1))
	require.Eventually(t, func() bool {
		h := plain.hoverAt("manuscript/01-hartfield.md", 8, 3)
		return h != nil && strings.Contains(h.Contents.Value, "Miss Smith")
	}, 5*time.Second, 20*time.Millisecond, "the new alias is read")
	time.Sleep(3 * redrawDelay)
	for _, m := range plain.methods() {
		assert.NotContains(t, m, "workspace/semanticTokens/refresh")
	}
}

// settledCount is count's value once it has held for 300 ms (the start's
// own redraws sent), waiting at most 5 s.
func settledCount(count func() int) int {
	n, since := count(), time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := count(); m != n {
			n, since = m, time.Now()
		} else if time.Since(since) >= 300*time.Millisecond {
			break
		}
	}
	return n
}

// refreshingClient says it draws its semantic tokens again when asked.
var refreshingClient = protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
	SemanticTokens: &protocol.SemanticTokensWorkspaceClientCapabilities{RefreshSupport: true},
}}
