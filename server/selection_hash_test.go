package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// A selection over several lines of a chapter saved with CRLF line
// endings: the code action's hash and the ask's own are of the same text,
// so the ask goes through instead of being refused as "changed".
func TestAskOnAMultiLineSelectionInACRLFChapter(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "Both lines hold together."))
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["manuscript/03-crlf.md"] = "# Crossing\r\n\r\nMara's boat slid out.\r\nIlse Dorn watched from the quay.\r\n"
	files["quire.yaml"] = "title: The Salt Ledger\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  tools: true\n  retries: 0\n"
	c := bareClient(t, writeProject(t, files), nil)
	across := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 3, Character: 9}}
	a := actionNamed(t, c, "manuscript/03-crlf.md", across, "Ask Continuity Editor about this")
	m := c.runAction(1, a)
	require.Nil(t, m.Error)
	msgs := c.shown()
	require.NotEmpty(t, msgs)
	last := msgs[len(msgs)-1].Message
	assert.Contains(t, last, "Both lines hold together.", "the ask was refused: %v", msgs)
	assert.Len(t, f.requests(), 1)
}
