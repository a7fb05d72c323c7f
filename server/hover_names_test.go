package server

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// How a name is used decides what hover says of it, as it decides what
// mentions, references and the book map count.
func TestHoverJudgesHowANameIsUsed(t *testing.T) {
	files := map[string]string{
		"codex/characters/elizabeth.md": "---\nname: Elizabeth Bennet\naliases: [Miss Bennet, Lizzy]\n---\n# Elizabeth Bennet\n",
		"codex/characters/jane.md":      "---\nname: Jane Bennet\naliases: [Miss Bennet]\n---\n# Jane Bennet\n",
		"codex/characters/anthony.md":   "---\nname: Anthony Patch\naliases: [Anthony]\n---\n# Anthony Patch\n",
		"manuscript/01-a.md": "# One\n\n" +
			"Miss Bennet curtsied.\n\n" + // line 2: a name two entries share
			"He read Anthony Comstock, then Anthony slept.\n\n" + // line 4
			"The lizzy-like calm; Mr Darcy; lizzy.\n", // line 6
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

	assert.Nil(t, c.hoverAt("manuscript/01-a.md", 6, 5), "no name inside a hyphenated compound, nor in lower case")
	assert.Nil(t, c.hoverAt("manuscript/01-a.md", 6, 32), "lizzy in lower case is not Lizzy")
}
