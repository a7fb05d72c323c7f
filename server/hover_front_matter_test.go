package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// frontMatterBook has chapters whose front matter names codex entries:
// a pov by alias, a location by name, and a progression from chapter 2.
var frontMatterBook = map[string]string{
	"codex/characters/teodora.md": "---\ntype: character\nname: Teodora Quill\naliases: [Teo]\nsummary: Keeper of the Gannet Light.\n" +
		"progressions:\n  - from: 2\n    title: Senior Warden\n    note: Took the warden's keys.\n---\n# Teodora Quill\n",
	"codex/locations/skerry-vault.md": "---\ntype: location\nname: Skerry Vault\nsummary: A cellar under the light.\n---\n# Skerry Vault\n",
	"manuscript/01-first.md":          "---\ntitle: First\npov: Teo\nlocation: Skerry Vault\n---\nTeo went down.\n",
	"manuscript/02-second.md":         "---\ntitle: Second\npov: Teo\nlocation: Nowhere Known\n---\nTeo came up.\n",
}

// Hover and go to definition on a pov: or location: in a chapter's front
// matter show the entry as of that chapter, as they do in its prose.
func TestHoverOnChapterFrontMatter(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, frontMatterBook))

	tests := []struct {
		name      string
		rel       string
		line, ch  uint32
		want      []string
		notWant   []string
		wantRange protocol.Range
	}{
		{name: "pov by alias, before the progression", rel: "manuscript/01-first.md", line: 2, ch: 6,
			want: []string{"**Teodora Quill**", "Keeper of the Gannet Light."}, notWant: []string{"Took the warden's keys."},
			wantRange: protocol.Range{Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 8}}},
		{name: "pov as of the later chapter", rel: "manuscript/02-second.md", line: 2, ch: 5,
			want:      []string{"**Teodora Quill**", "progression applies", "Took the warden's keys."},
			wantRange: protocol.Range{Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 8}}},
		{name: "location by name", rel: "manuscript/01-first.md", line: 3, ch: 16,
			want:      []string{"**Skerry Vault**", "A cellar under the light."},
			wantRange: protocol.Range{Start: protocol.Position{Line: 3, Character: 10}, End: protocol.Position{Line: 3, Character: 22}}},
		{name: "a location that names nothing", rel: "manuscript/02-second.md", line: 3, ch: 12},
		{name: "the title", rel: "manuscript/01-first.md", line: 1, ch: 9},
		{name: "the key, not the name", rel: "manuscript/01-first.md", line: 2, ch: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := c.hoverAt(tt.rel, tt.line, tt.ch)
			if tt.want == nil {
				assert.Nil(t, h)
				return
			}
			require.NotNil(t, h)
			for _, w := range tt.want {
				assert.Contains(t, h.Contents.Value, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, h.Contents.Value, w)
			}
			require.NotNil(t, h.Range)
			assert.Equal(t, tt.wantRange, *h.Range)
		})
	}

	// The editor's text, not the disk's: a pov changed and not saved.
	c.open("manuscript/01-first.md", "---\ntitle: First\npov: Skerry Vault\n---\nTeo went down.\n")
	h := c.hoverAt("manuscript/01-first.md", 2, 7)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "**Skerry Vault**")

	// Go to definition opens the entry at its title.
	locs := c.definitionAt("manuscript/02-second.md", 2, 6)
	require.Len(t, locs, 1)
	assert.Equal(t, c.uri("codex/characters/teodora.md"), locs[0].URI)
	assert.Equal(t, uint32(10), locs[0].Range.Start.Line, "the entry's title heading")
}
