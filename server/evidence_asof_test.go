package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

// The evidence of an answer says which chapter each codex entry was read
// as of: the one asOf named, or the writer's own when it was left out;
// the answer document says so too.
func TestAskEvidenceSaysAsOfWhichChapter(t *testing.T) {
	f := newFakeLLM(t,
		callStep(t,
			[2]string{"get_character_context", `{"name":"Teo"}`},
			[2]string{"get_character_context", `{"name":"Teo","asOf":"1"}`},
			[2]string{"search_codex", `{"query":"cellar"}`}),
		answerStep(t, "She took the keys in chapter 2."))
	files := map[string]string{"quire.yaml": "title: The Light\nprovider:\n  base_url: " + f.baseURL() + "\n  model: file-model\n  tools: true\n  retries: 0\n"}
	for k, v := range frontMatterBook {
		files[k] = v
	}
	c := showDocClient(t, writeProject(t, files), true)
	m := c.call(1, protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": "quire.ask",
		"arguments": []any{map[string]any{"persona": "continuity-editor", "message": "When did Teo become warden?", "uri": c.uri("manuscript/02-second.md")}}})
	r := decodeAsk(t, m)

	var teo []wire.Evidence
	for _, e := range r.Evidence {
		switch e.Tool {
		case "get_character_context":
			teo = append(teo, e)
		case "search_codex":
			assert.Empty(t, e.AsOf, "a search is not answered as of a chapter")
		}
	}
	require.Len(t, teo, 2, "the same entry as of two chapters is two readings: %+v", r.Evidence)
	assert.Equal(t, "codex/characters/teodora.md", teo[0].Path)
	assert.Equal(t, "manuscript/02-second.md", teo[0].AsOf, "asOf left out: the chapter asked from")
	assert.Equal(t, `2 "Second"`, teo[0].AsOfChapter)
	assert.True(t, teo[0].AsOfImplied)
	assert.Equal(t, "manuscript/01-first.md", teo[1].AsOf)
	assert.False(t, teo[1].AsOfImplied)

	raw, err := json.Marshal(teo[0])
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"asOf":"manuscript/02-second.md"`, "on the wire")

	var doc string
	if docs := c.shownDocuments(); len(docs) > 0 {
		doc = docs[len(docs)-1]
	}
	require.NotEmpty(t, doc, "the answer is shown as a document")
	assert.Contains(t, doc, "1. `get_character_context \"Teo\"`\n   - [codex/characters/teodora.md]")
	assert.Contains(t, doc, `, as of chapter 2 "Second", the one you were in — not named in the answer`)
	assert.Contains(t, doc, "2. `get_character_context \"Teo\"`\n   - [codex/characters/teodora.md]")
	assert.Contains(t, doc, `, as of chapter 1 "First" — not named in the answer`)
}
