package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// A broken [[link]] in a chapter is reported as one in a codex entry
// is, with the same quick fixes: create the entry it names; a link to a
// section the entry lacks gets none. Links in front matter and code are
// no links, and a link the editor's text mends stops being reported.
func TestBrokenLinkInAChapter(t *testing.T) {
	rel := "manuscript/01-a.md"
	text := "---\npov: Mara Vell\nnote: \"[[Not A Link]]\"\n---\n# One\n\n" +
		"Mara sailed for [[Tidewardens]] and thought of [[Ilse Dorn#Nowhere]], and of [[Mara Vell]].\n\n" +
		"`[[Code Span]]` is code.\n"
	files := map[string]string{
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n",
		"codex/characters/ilse-dorn.md": "---\nname: Ilse Dorn\n---\n# Ilse Dorn\n",
		"codex/places/brinmouth.md":     "---\nname: Brinmouth\n---\n# Brinmouth\n",
		rel:                             text,
	}
	c := startServer(t, Options{})
	c.initializeCaps(writeProject(t, files), createCaps, map[string]any{protocol.MethodWorkspaceApplyEdit: map[string]any{"applied": true}})
	c.open(rel, text)
	links := func(ds []protocol.Diagnostic) []protocol.Diagnostic {
		var out []protocol.Diagnostic
		for _, d := range ds {
			if d.Code == codex.CodeBrokenLink {
				out = append(out, d)
			}
		}
		return out
	}
	ds := links(c.waitDiagnostics(c.uri(rel), "two broken links", func(ds []protocol.Diagnostic) bool { return len(links(ds)) == 2 }))
	require.Len(t, ds, 2)
	assert.Equal(t, "Tidewardens", wordsAt(t, text, ds[0].Range))
	assert.Equal(t, `no codex entry is named "Tidewardens"`, ds[0].Message)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, ds[0].Severity)
	assert.Equal(t, "Ilse Dorn#Nowhere", wordsAt(t, text, ds[1].Range))
	assert.Equal(t, `Ilse Dorn has no section "Nowhere"`, ds[1].Message)

	tide := actionsFor(t, c, rel, ds[:1])
	require.NotEmpty(t, tide)
	assert.Equal(t, "Create character entry for Tidewardens", tide[0].Title)
	assert.True(t, tide[0].IsPreferred)
	var place createEntryResult
	for _, a := range tide {
		if a.Title == "Create location entry for Tidewardens" {
			c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, &place)
		}
	}
	assert.True(t, place.Created)
	assert.Equal(t, c.uri("codex/places/tidewardens.md"), place.URI, "beside the book's other locations")
	for _, a := range actionsFor(t, c, rel, ds[1:]) {
		assert.NotContains(t, a.Title, "Create", "Ilse Dorn exists; only the section is missing")
	}

	// Mended in the editor: the warning goes.
	mended := strings.Replace(text, "[[Tidewardens]]", "[[Brinmouth]]", 1)
	c.notifyServer(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(rel), "version": 2},
		"contentChanges": []map[string]any{{"text": mended}},
	})
	at := strings.Index(mended, "Ilse Dorn#Nowhere")
	section := textdoc.NewLines(mended).RangeOf(at, at+len("Ilse Dorn#Nowhere"))
	c.waitDiagnostics(c.uri(rel), "the link mended", func(ds []protocol.Diagnostic) bool {
		got := links(ds)
		return len(got) == 1 && got[0].Range == section
	})
}
