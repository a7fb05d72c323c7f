package continuity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAsOfLine(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	cat := tl.Canon().Catalog()
	teodora, ok := cat.Get("codex/characters/teodora-quill.md")
	require.True(t, ok)
	marek, ok := cat.Get("codex/characters/marek-dunn.md")
	require.True(t, ok)
	lines := map[string]string{}
	for _, u := range snap.Units() {
		lines[u.Path] = tl.AsOfLine(teodora, tl.ChapterOf(u))
		assert.Empty(t, tl.AsOfLine(marek, tl.Chapter(u.Path, u.Meta)), "no progressions, no line")
	}
	assert.Equal(t, `As of chapter 1, "The Harbor": none of its progressions apply yet.`, lines["manuscript/01-harbor.md"])
	assert.Equal(t, `As of chapter 5, "After the Vault": 1 of 1 progression applies: from chapter 4, "The Vault Beneath the Light" (title: Senior Warden, hair: iron grey, aliases: Teodora, the Warden, note).`, lines["manuscript/05-after.md"])
	assert.Equal(t, `As of chapter 6, "Before" (a flashback to day 1): none of its progressions apply yet.`, lines["manuscript/06-before.md"])
}

func TestCheckAll(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	r := CheckAll(tl, snap)
	assert.Len(t, r.Diagnostics, 16)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, "manuscript/07-dream.md", r.Problems[0].Path)
	assert.Contains(t, r.Problems[0].Message, `not "soon"`)
}
