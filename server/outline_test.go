package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
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
