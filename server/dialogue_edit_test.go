package server

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/dialogue/dialoguetest"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// TestSpeechAfterEditsIsFresh types into a chapter of Pride and
// Prejudice, edit after edit, asking for its dialogue after each: the
// server attributes again only the conversations an edit reached, and
// what it answers at the end must be what a server that opens the
// edited chapter afresh answers.
func TestSpeechAfterEditsIsFresh(t *testing.T) {
	files := dialoguetest.CastFiles()
	text := dialoguetest.Stretch(dialoguetest.PrideAndPrejudice(t), 3000)
	files["manuscript/01-netherfield.md"] = "# Netherfield\n\n" + text + "\n"
	const rel = "manuscript/01-netherfield.md"
	text = files[rel]

	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	c.open(rel, text)
	dialogueOf := func(c *testClient) []wire.DialogueRecord {
		var d wire.Dialogue
		c.call(wire.MethodDialogue, wire.DialogueParams{BookParams: wire.BookParams{URI: c.uri(rel)}}, &d)
		for i := range d.Utterances {
			d.Utterances[i].Chapter.URI = ""
		}
		return d.Utterances
	}
	before := dialogueOf(c)
	require.NotEmpty(t, before)
	r := rand.New(rand.NewPCG(3, 4))
	inserts := []string{"Well, ", " said she", "\n\n", "\"", " Elizabeth", "Jane looked up. "}
	for version := int32(2); version < 40; version++ {
		at := 16 + r.IntN(len(text)-16)
		end, insert := at, inserts[r.IntN(len(inserts))]
		if r.IntN(3) == 0 {
			end, insert = min(len(text), at+r.IntN(80)), ""
		}
		c.notifyServer(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
			TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Version: version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{
				Range: textdoc.NewLines(text).RangeOf(at, end),
				Text:  insert,
			}},
		})
		text = text[:at] + insert + text[end:]
		dialogueOf(c)
	}
	edited := dialogueOf(c)
	require.NotEqual(t, before, edited, "the edits show")

	files[rel] = text
	fresh := startServer(t, Options{})
	fresh.initialize(writeProject(t, files))
	require.Equal(t, dialogueOf(fresh), edited)
}
