package server

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

// How a name is used decides what hover says of it, as it decides what
// mentions, references and the book map count.
func TestHoverJudgesHowANameIsUsed(t *testing.T) {
	files := map[string]string{
		"codex/characters/elizabeth.md": "---\nname: Elizabeth Bennet\naliases: [Miss Bennet, Lizzy]\n---\n# Elizabeth Bennet\n",
		"codex/characters/jane.md":      "---\nname: Jane Bennet\naliases: [Miss Bennet]\n---\n# Jane Bennet\n",
		"codex/characters/anthony.md":   "---\nname: Anthony Patch\naliases: [Anthony]\n---\n# Anthony Patch\n",
		"codex/characters/leonce.md":    "---\nname: Léonce Pontellier\naliases: [Mr. Pontellier, Pontellier]\n---\n# Léonce Pontellier\n",
		"manuscript/01-a.md": "# One\n\n" +
			"Miss Bennet curtsied.\n\n" + // line 2: a name two entries share
			"He read Anthony Comstock, then Anthony slept.\n\n" + // line 4
			"The lizzy-like calm; Mr Darcy; lizzy.\n\n" + // line 6
			"Mrs. Pontellier sewed; Pontellier read.\n", // line 8: his wife, then him
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/01-a.md", 2, 2)
		return h != nil && !strings.Contains(h.Contents.Value, "Counting")
	}, 10*time.Second, 10*time.Millisecond)

	shared := c.hoverAt("manuscript/01-a.md", 2, 2).Contents.Value
	assert.True(t, strings.HasPrefix(shared, "*Ambiguous:* “Miss Bennet” may also be [Jane Bennet]("+string(c.uri("codex/characters/jane.md"))+")."), shared)
	assert.Contains(t, shared, "**Elizabeth Bennet**")

	unsure := c.hoverAt("manuscript/01-a.md", 4, 9)
	require.NotNil(t, unsure, "Anthony before an unknown surname is shown with a word of doubt")
	assert.True(t, strings.HasPrefix(unsure.Contents.Value, "*Uncertain:* “Anthony” here may not be Anthony Patch"), unsure.Contents.Value)
	assert.Contains(t, unsure.Contents.Value, "**Anthony Patch**")
	require.NotNil(t, unsure.Range)
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 4, Character: 8}, End: protocol.Position{Line: 4, Character: 15}}, *unsure.Range)
	anthony := c.hoverAt("manuscript/01-a.md", 4, 32)
	require.NotNil(t, anthony)
	assert.Contains(t, anthony.Contents.Value, "**Anthony Patch**")
	assert.NotContains(t, anthony.Contents.Value, "Ambiguous")

	wife := c.hoverAt("manuscript/01-a.md", 8, 7)
	require.NotNil(t, wife, "a title the codex never gives Léonce, who is Mr. Pontellier")
	assert.True(t, strings.HasPrefix(wife.Contents.Value, "*Uncertain:* “Pontellier” here may not be Léonce Pontellier"), wife.Contents.Value)
	husband := c.hoverAt("manuscript/01-a.md", 8, 25)
	require.NotNil(t, husband)
	assert.Contains(t, husband.Contents.Value, "**Léonce Pontellier**")
	assert.NotContains(t, husband.Contents.Value, "Uncertain")

	assert.Nil(t, c.hoverAt("manuscript/01-a.md", 6, 5), "no name inside a hyphenated compound, nor in lower case")
	assert.Nil(t, c.hoverAt("manuscript/01-a.md", 6, 32), "lizzy in lower case is not Lizzy")
}

// A name two entries share counts for both, as hover says: references
// of either list it, and the book map holds both entries, though the
// book names Jane only by the name she shares. An uncertain use counts
// for neither.
func TestSharedNameCountsForEveryCandidate(t *testing.T) {
	files := map[string]string{
		"codex/characters/elizabeth.md": "---\nname: Elizabeth Bennet\naliases: [Miss Bennet, Lizzy]\n---\n# Elizabeth Bennet\n",
		"codex/characters/jane.md":      "---\nname: Jane Bennet\naliases: [Miss Bennet]\n---\n# Jane Bennet\n",
		"codex/characters/anthony.md":   "---\nname: Anthony Patch\naliases: [Anthony]\n---\n# Anthony Patch\n",
		"manuscript/01-a.md": "# One\n\n" +
			"Miss Bennet curtsied.\n\n" + // line 2: shared
			"Lizzy laughed.\n\n" + // line 4
			"He read Anthony Comstock, then Anthony slept.\n", // line 6
	}
	c := startServer(t, Options{CacheDir: t.TempDir()})
	c.initialize(writeProject(t, files))
	chapter := c.uri("manuscript/01-a.md")
	refs := func(rel string, line, char uint32) []protocol.Range {
		var locs []protocol.Location
		c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Position: position(line, char)},
		}, &locs)
		var out []protocol.Range
		for _, l := range locs {
			if l.URI == chapter {
				out = append(out, l.Range)
			}
		}
		return out
	}
	shared := protocol.Range{Start: position(2, 0), End: position(2, 11)}
	require.Eventually(t, func() bool { return len(refs("manuscript/01-a.md", 4, 2)) > 0 }, 10*time.Second, 10*time.Millisecond, "the book is scanned")
	assert.Equal(t, []protocol.Range{shared, {Start: position(4, 0), End: position(4, 5)}}, refs("manuscript/01-a.md", 4, 2), "Elizabeth: Miss Bennet and Lizzy")
	assert.Equal(t, []protocol.Range{shared}, refs("codex/characters/jane.md", 4, 4), "Jane: Miss Bennet")
	assert.Equal(t, []protocol.Range{{Start: position(6, 31), End: position(6, 38)}}, refs("manuscript/01-a.md", 6, 32), "Anthony, not the uncertain one before Comstock")

	var res wire.BookMapResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandBookMap,
		"arguments": []any{map[string]any{"uri": chapter}}}, &res)
	assert.Equal(t, 3, res.Entries, "Elizabeth, Jane and Anthony")
	page, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	assert.Contains(t, string(page), "Jane Bennet")
}
