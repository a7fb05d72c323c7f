package server

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHoverCardRendersLinksAndSmallHeadings(t *testing.T) {
	files := map[string]string{
		"codex/characters/moss.md": "---\nname: Moss Kettering\n---\n# Moss Kettering\n\n## Appearance\n\n" +
			"Sworn to [[Tidewardens]], owes [[Ilse Dorn|the harbormistress]], keeps [[Ilse Dorn#Debts]]; fears [[Nobody]].\n" +
			// The codex's grammar holds in the card: brackets escaped or
			// in code are not links.
			"Writes `[[Tidewardens]]` in code and \\[[Tidewardens]] escaped.\n",
		"codex/characters/ilse-dorn.md":      "---\nname: Ilse Dorn\n---\n# Ilse Dorn\n\n## Debts\n",
		"codex/organizations/tidewardens.md": "---\nname: Tidewardens\n---\n# Tidewardens\n",
		"manuscript/01-a.md":                 "# One\n\nMoss Kettering came in.\n",
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	var card string
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/01-a.md", 2, 3)
		if h == nil {
			return false
		}
		card = h.Contents.Value
		return !strings.Contains(card, "Counting")
	}, 10*time.Second, 10*time.Millisecond)

	excerpt := card[strings.Index(card, "> "):]
	assert.Contains(t, excerpt, "Writes `[[Tidewardens]]` in code and \\[[Tidewardens]] escaped.",
		"the link in code and the escaped one stay as written")
	assert.Equal(t, 2, strings.Count(excerpt, "[["), "no other raw link brackets")
	assert.Contains(t, card, "[Tidewardens]("+string(c.uri("codex/organizations/tidewardens.md"))+")")
	assert.Contains(t, card, "[the harbormistress]("+string(c.uri("codex/characters/ilse-dorn.md"))+")")
	assert.Contains(t, card, "[Ilse Dorn › Debts]("+string(c.uri("codex/characters/ilse-dorn.md"))+")")
	assert.Contains(t, card, "fears Nobody.", "a link to no entry reads as text")
	assert.Contains(t, card, "**Appearance**")
	for _, l := range strings.Split(card, "\n") {
		assert.False(t, strings.HasPrefix(strings.TrimLeft(l, "> "), "#"), "no heading inside the card: %q", l)
	}
}
